/*
 * The ustar reader: headers of 512 bytes, sizes in octal, data padded
 * to 512, zero blocks at the end (an archive without them is taken to
 * be cut short).  Only files and directories are
 * kept; links and other types are skipped.  Every length is checked
 * against the archive's, so a truncated or corrupt one is an error,
 * never a read past its end.
 */
#include "tar.h"

/* A header block, and where its fields are in it. */
enum {
	Blk		= 512,	/* bytes in a header or data block */
	Name		= 0,	/* the file name, or its last part */
	Namelen		= 100,
	Size		= 124,	/* octal */
	Sizelen		= 12,
	Chksum		= 148,	/* octal: the header's bytes summed, this field as blanks */
	Chksumlen	= 8,
	Type		= 156,	/* '0' or NUL a file, '5' a directory */
	Prefix		= 345,	/* the name's leading directories, if any */
	Prefixlen	= 155,
};

/* An octal field, NUL- or space-terminated; -1 if it is not one. */
static long
octal(const unsigned char *p, int n)
{
	long v = 0;
	int i, digits = 0;

	for(i = 0; i < n && p[i] == ' '; i++)
		;
	for(; i < n && p[i] >= '0' && p[i] <= '7'; i++, digits++){
		if(v > 0xFFFFFFF)
			return -1;
		v = v*8 + p[i] - '0';
	}
	if(digits == 0 || (i < n && p[i] != ' ' && p[i] != '\0'))
		return -1;
	return v;
}

static int
iszero(const unsigned char *p)
{
	int i;

	for(i = 0; i < Blk; i++)
		if(p[i] != 0)
			return 0;
	return 1;
}

/* Copy a field of at most n bytes that need not be NUL-terminated. */
static int
field(char *dst, const unsigned char *src, int n)
{
	int i;

	for(i = 0; i < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
	return i;
}

int
tarnext(const unsigned char *a, unsigned int len, unsigned int *off, Tarent *e)
{
	const unsigned char *h;
	long size, sum;
	unsigned int i, n, chk;
	char *name;

	for(;;){
		if(len - *off < Blk)
			return -1;
		h = a + *off;
		if(iszero(h))
			return 0;
		sum = octal(h + Chksum, Chksumlen);
		chk = 0;
		for(i = 0; i < Blk; i++)
			chk += (i >= Chksum && i < Chksum + Chksumlen) ? ' ' : h[i];
		size = octal(h + Size, Sizelen);
		if(sum < 0 || (unsigned long)sum != chk || size < 0)
			return -1;
		if((unsigned long)size > len - *off - Blk)
			return -1;
		*off += Blk + ((size + Blk - 1) / Blk) * Blk;
		if(*off > len)
			*off = len;
		if(h[Type] != '0' && h[Type] != '\0' && h[Type] != '5')
			continue;
		n = 0;
		if(h[Prefix] != '\0'){
			n = field(e->name, h + Prefix, Prefixlen);
			e->name[n++] = '/';
		}
		field(e->name + n, h + Name, Namelen);
		name = e->name;
		while(name[0] == '.' && name[1] == '/')
			name += 2;
		while(name[0] == '/')
			name++;
		for(i = 0; name[i]; i++)
			e->name[i] = name[i];
		e->name[i] = '\0';
		if(i > 0 && e->name[i-1] == '/')
			e->name[--i] = '\0';
		if(i == 0 || (i == 1 && e->name[0] == '.'))
			continue;
		e->dir = h[Type] == '5';
		e->data = h + Blk;
		e->size = size;
		return 1;
	}
}
