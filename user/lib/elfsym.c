/*
 * Function symbols of an i386 ELF program, shared by the profile
 * formatters kprof (the kernel's profile) and prof (a program's
 * gmon.out): read the symbol table, credit ticks at an address to the
 * function that holds it, and print the busy functions in Plan 9's
 * layout:
 *
 *	ms	  %	sym
 *	5000	 50.0	idle
 *
 * The same source builds for the guest and for the host, so it uses only
 * standard names, no floating point, and decodes ELF a byte at a time.
 * Errors come back as a message, "file: what is wrong", for the caller
 * to print.  It also holds the few helpers every formatter of the
 * library uses: fatal, readfile, grow (an array that doubles), strhash,
 * muldiv and flagarg (an option's argument).
 *
 * The time taken grows linearly with the file, or as n log n with its
 * symbols for the sorts, whatever the file holds: finding a name's end
 * looks no further than NAMEMAX bytes, and names no longer than that
 * are all that are compared and printed.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "elfsym.h"

enum {
	/* The little of ELF32 that the formatters need. */
	ELFCLASS32	= 1,
	ELFDATA2LSB	= 1,
	EM_386		= 3,
	EHDRSIZE	= 52,	/* bytes in the file header */
	SHDRSIZE	= 40,	/* in a section header */
	SYMSIZE		= 16,	/* in a symbol */
	SHT_SYMTAB	= 2,
	SHT_STRTAB	= 3,
	STB_LOCAL	= 0,
	STT_NOTYPE	= 0,
	STT_FUNC	= 2,
	NAMEMAX		= 512,	/* longest symbol name, as Linux's kallsyms */
};

typedef struct Ehdr Ehdr;
typedef struct Shdr Shdr;
typedef struct Strtab Strtab;

/* An ELF32 file header, as much of it as symload uses, decoded. */
struct Ehdr {
	uint32_t	shoff;		/* file offset of the section headers */
	uint32_t	shentsize;	/* bytes in each */
	uint32_t	shnum;		/* how many */
	uint32_t	shstrndx;	/* the section holding their names */
};

/* An ELF32 section header, decoded. */
struct Shdr {
	uint32_t	name;		/* offset of its name in the names */
	uint32_t	type;		/* SHT_SYMTAB, ... */
	uint32_t	addr;		/* address when loaded */
	uint32_t	offset;		/* in the file */
	uint32_t	size;		/* bytes */
	uint32_t	link;		/* a symbol table's string table */
	uint32_t	entsize;	/* bytes in each entry of a table */
};

/* A string table: names are offsets into it. */
struct Strtab {
	const uint8_t	*p;
	uint32_t	len;		/* bytes at p */
};

static char	errbuf[256];	/* the message symload returns */

/* Make the message "path: what" for symload to return; returns -1. */
static int
failed(Symtab *t, const char *fmt, ...)
{
	va_list arg;
	int n;

	n = snprintf(errbuf, sizeof errbuf, "%s: ", t->path);
	if(n < 0 || (size_t)n >= sizeof errbuf)
		return -1;
	va_start(arg, fmt);
	vsnprintf(errbuf + n, sizeof errbuf - n, fmt, arg);
	va_end(arg);
	return -1;
}

static int
corrupt(Symtab *t, const char *what)
{
	return failed(t, "corrupt ELF file (%s)", what);
}

static int
nomem(void)
{
	strcpy(errbuf, "out of memory");
	return -1;
}

/*
 * Read all of the file at path into a buffer with room for a NUL
 * after the data.  Returns NULL, with errno set, if it can't.  The
 * first read asks for hint bytes (up to 16 MB) and one more: a device
 * such as kpdata takes its snapshot a read at a time, and a file of
 * the length expected then comes in one.
 */
uint8_t*
readfile(const char *path, size_t hint, size_t *lenp)
{
	uint8_t *buf, *nbuf;
	size_t len, size;
	long n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if(fd < 0)
		return NULL;
	size = 8192;
	if(hint > 16*1024*1024)
		hint = 16*1024*1024;
	if(hint + 2 > size)
		size = hint + 2;
	buf = malloc(size);
	len = 0;
	for(;;){
		if(buf != NULL && size - len < 4096){
			size *= 2;
			nbuf = realloc(buf, size);
			if(nbuf == NULL)
				free(buf);
			buf = nbuf;
		}
		if(buf == NULL){
			close(fd);
			errno = ENOMEM;
			return NULL;
		}
		n = read(fd, buf + len, size - len - 1);
		if(n < 0){
			err = errno;
			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if(n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* The program's name, for fatal's messages. */
#if __STDC_HOSTED__	/* on the host; the guest's C library has one */
const char *argv0 = "elfsym";
#endif

/* Say what is wrong, on one line, and exit with status 1. */
void
fatal(const char *fmt, ...)
{
	va_list arg;

	fprintf(stderr, "%s: ", argv0);
	va_start(arg, fmt);
	vfprintf(stderr, fmt, arg);
	va_end(arg);
	fprintf(stderr, "\n");
	exit(1);
}

/* Make room in *p, an array of *cap elements of size bytes, for need of them. */
void*
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if(need <= *cap)
		return p;
	n = *cap > 0 ? *cap : 64;
	while(n < need)
		n *= 2;
	if(n > (size_t)-1 / size || (p = realloc(p, n * size)) == NULL)
		fatal("out of memory");
	*cap = n;
	return p;
}

/* FNV-1a, in 32 bits on the host as in the guest. */
uint32_t
strhash(const char *s)
{
	uint32_t h;

	h = 2166136261u;
	for(; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* a*b/c, for a <= c and b < 2^32, without overflow: a and c lose low bits first. */
uint64_t
muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	while(c >= (uint64_t)1<<32){
		a >>= 1;
		c >>= 1;
	}
	return a*b/c;
}

/*
 * The argument of the option argv[*i]: the rest of the word after its
 * letter, or the next word, *i then moved to it; NULL if there is none.
 */
const char*
flagarg(int argc, char **argv, int *i)
{
	if(argv[*i][2] != '\0')
		return argv[*i] + 2;
	if(*i+1 < argc)
		return argv[++*i];
	return NULL;
}

/* Little-endian numbers, read a byte at a time: alignment and host order do not matter. */
uint32_t
le16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1]<<8;
}

uint32_t
le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1]<<8 | (uint32_t)p[2]<<16 | (uint32_t)p[3]<<24;
}

/* Do n bytes at off lie within a buffer of len bytes? */
static int
inside(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

/*
 * The NUL-terminated string at off in string table s, or NULL if off
 * is outside the table or no NUL ends the string within it and within
 * NAMEMAX bytes.  Names may overlap (one may be the tail of another),
 * so the search is bounded by NAMEMAX, not by the table.
 */
static const char*
strat(Strtab *s, uint32_t off)
{
	uint32_t n;

	if(off >= s->len)
		return NULL;
	n = s->len - off;
	if(n > NAMEMAX + 1)
		n = NAMEMAX + 1;
	if(memchr(s->p + off, '\0', n) == NULL)
		return NULL;
	return (const char*)s->p + off;
}

/* Say why strat found no name at off in s: too long, or not there. */
static int
badname(Symtab *t, Strtab *s, uint32_t off, const char *what)
{
	if(off < s->len && memchr(s->p + off, '\0', s->len - off) != NULL)
		return failed(t, "%s longer than %d bytes", what, NAMEMAX);
	return corrupt(t, what);
}

/* Decode section header i; the caller has checked the table fits the file. */
static void
getshdr(Symtab *t, Ehdr *eh, uint32_t i, Shdr *sh)
{
	const uint8_t *p;

	p = t->image + eh->shoff + (uint64_t)i*eh->shentsize;
	sh->name = le32(p);
	sh->type = le32(p+4);
	sh->addr = le32(p+12);
	sh->offset = le32(p+16);
	sh->size = le32(p+20);
	sh->link = le32(p+24);
	sh->entsize = le32(p+36);
}

/*
 * Check the ELF file header and decode the section header table's
 * place, making sure all of the table lies within the file.
 */
static int
getehdr(Symtab *t, Ehdr *eh)
{
	const uint8_t *p;

	memset(eh, 0, sizeof *eh);
	p = t->image;
	if(t->len < 4 || memcmp(p, "\177ELF", 4) != 0)
		return failed(t, "not an ELF file");
	if(t->len < EHDRSIZE)
		return corrupt(t, "file header");
	if(p[4] != ELFCLASS32 || p[5] != ELFDATA2LSB || le16(p+18) != EM_386)
		return failed(t, "not an i386 ELF file");
	eh->shoff = le32(p+32);
	eh->shentsize = le16(p+46);
	eh->shnum = le16(p+48);
	eh->shstrndx = le16(p+50);
	if(eh->shnum == 0)
		return failed(t, "no section headers");
	if(eh->shentsize < SHDRSIZE
	|| !inside(t->len, eh->shoff, (uint64_t)eh->shnum*eh->shentsize))
		return corrupt(t, "section headers");
	return 0;
}

/*
 * Order symbols by address and, at one address, best first:
 * then the first of each address is the one to keep.
 */
static int
byaddr(const void *va, const void *vb)
{
	const Sym *a = va, *b = vb;

	if(a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if(a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Order symbols by ticks, most first, then by calls, name and address. */
static int
byticks(const void *va, const void *vb)
{
	const Sym *a = va, *b = vb;

	if(a->ticks != b->ticks)
		return a->ticks > b->ticks ? -1 : 1;
	if(a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if(strcmp(a->name, b->name) != 0)
		return strcmp(a->name, b->name);
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * Should the symbol be a place ticks are credited to?  Functions are,
 * and untyped labels, as assembly code has, except those whose name
 * has a dot: NASM's local labels, such as `trapret.loop', which are
 * places within a function.
 */
static int
wanted(int type, int bind, const char *name)
{
	if(name[0] == '\0')
		return 0;
	if(type == STT_FUNC)
		return 1;
	return type == STT_NOTYPE && (bind != STB_LOCAL || strchr(name, '.') == NULL);
}

/*
 * Gather the symbols in .text from the symbol table sh, sort them by
 * address, and keep one for each address: a function before a label,
 * a global symbol before a local one.  A symbol "text" at the start of
 * text, ranked below all others, takes any ticks before the first.
 */
static int
getsyms(Symtab *t, Ehdr *eh, Shdr *sh, uint32_t textndx)
{
	Shdr str;
	Strtab strtab;
	const uint8_t *p;
	const char *name;
	Sym *s;
	uint32_t i, nent, value;
	int type, bind, ns, n, j;

	if(sh->entsize < SYMSIZE || !inside(t->len, sh->offset, sh->size))
		return corrupt(t, "symbol table");
	if(sh->link >= eh->shnum)
		return corrupt(t, "symbol string table");
	getshdr(t, eh, sh->link, &str);
	if(str.type != SHT_STRTAB || !inside(t->len, str.offset, str.size))
		return corrupt(t, "symbol string table");
	strtab.p = t->image + str.offset;
	strtab.len = str.size;

	nent = sh->size / sh->entsize;
	s = malloc(((size_t)nent + 1) * sizeof s[0]);
	if(s == NULL)
		return nomem();
	s[0].addr = t->textbase;
	s[0].name = "text";
	s[0].rank = 0;
	ns = 1;
	for(i = 0; i < nent; i++){
		p = t->image + sh->offset + (uint64_t)i*sh->entsize;
		value = le32(p+4);
		type = p[12] & 0xf;
		bind = p[12] >> 4;
		if(le16(p+14) != textndx || value - t->textbase >= t->textsize)
			continue;
		name = strat(&strtab, le32(p));
		if(name == NULL){
			free(s);
			return badname(t, &strtab, le32(p), "symbol name");
		}
		if(!wanted(type, bind, name))
			continue;
		s[ns].addr = value;
		s[ns].name = name;
		s[ns].rank = 1 + 2*(type == STT_FUNC) + (bind != STB_LOCAL);
		ns++;
	}

	qsort(s, ns, sizeof s[0], byaddr);
	n = 0;
	for(j = 0; j < ns; j++){
		if(n > 0 && s[n-1].addr == s[j].addr)
			continue;
		s[n] = s[j];
		s[n].ticks = 0;
		s[n].calls = 0;
		n++;
	}
	t->sym = s;
	t->nsym = n;
	return 0;
}

/* Find .text by name, through the section name table, and the symbol table. */
static int
findsyms(Symtab *t)
{
	Ehdr eh;
	Shdr sh, names;
	Strtab shstr;
	const char *name;
	uint32_t i, textndx, symndx;

	if(getehdr(t, &eh) < 0)
		return -1;
	if(eh.shstrndx >= eh.shnum)
		return corrupt(t, "section names");
	getshdr(t, &eh, eh.shstrndx, &names);
	if(!inside(t->len, names.offset, names.size))
		return corrupt(t, "section names");
	shstr.p = t->image + names.offset;
	shstr.len = names.size;

	textndx = 0;
	symndx = 0;
	for(i = 1; i < eh.shnum; i++){
		getshdr(t, &eh, i, &sh);
		name = strat(&shstr, sh.name);
		if(name == NULL)
			return badname(t, &shstr, sh.name, "section name");
		if(textndx == 0 && strcmp(name, ".text") == 0){
			textndx = i;
			t->textbase = sh.addr;
			t->textsize = sh.size;
		}
		if(symndx == 0 && sh.type == SHT_SYMTAB)
			symndx = i;
	}
	if(textndx == 0)
		return failed(t, "no .text section");
	/* Bins and symbols are offsets into text: it must not wrap past 2^32. */
	if(t->textsize == 0 || t->textbase + t->textsize < t->textbase)
		return corrupt(t, ".text section");
	if(symndx == 0)
		return failed(t, "no symbol table");
	getshdr(t, &eh, symndx, &sh);
	return getsyms(t, &eh, &sh, textndx);
}

/*
 * Read the ELF program at path and its symbols in .text into t.
 * Returns NULL, or a message saying what is wrong (and then t holds
 * nothing to free).
 */
const char*
symload(Symtab *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->path = path;
	t->image = readfile(path, 0, &t->len);
	if(t->image == NULL){
		failed(t, "%s", strerror(errno));
		return errbuf;
	}
	if(findsyms(t) < 0){
		free(t->image);
		t->image = NULL;
		return errbuf;
	}
	return NULL;
}

/*
 * The index in t->sym of the last symbol at or before addr.  The first
 * symbol is at the start of text, so every address in text has one; an
 * address below text gets the first.
 */
int
symfind(Symtab *t, uint32_t addr)
{
	int lo, hi, mid;

	lo = 0;
	hi = t->nsym;
	while(hi - lo > 1){
		mid = (lo + hi) / 2;
		if(t->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Credit ticks at addr to the symbol that symfind finds. */
void
symcredit(Symtab *t, uint32_t addr, uint64_t ticks)
{
	t->sym[symfind(t, addr)].ticks += ticks;
}

/*
 * Print the column headings, then a row for each symbol with ticks,
 * most first: milliseconds at hz ticks a second (ticks if hz is 0, not
 * known), the percentage of total to one decimal, and the name.  With
 * t->withcalls (prof, for a program that recorded its call graph) a
 * calls column comes before the name, blank for a function with no
 * calls recorded, and a symbol with calls but no ticks has a row too.  Reorders t's symbols, so it
 * is the last thing done with them.
 */
void
symprint(Symtab *t, uint64_t total, unsigned long hz)
{
	Sym *s;
	uint64_t tenths;
	int i, n;

	printf(t->withcalls ? "%s\t  %%\tcalls\tsym\n" : "%s\t  %%\tsym\n", hz == 0 ? "ticks" : "ms");
	s = t->sym;
	n = 0;
	for(i = 0; i < t->nsym; i++)
		if(s[i].ticks != 0 || s[i].calls != 0)
			s[n++] = s[i];
	t->nsym = n;
	qsort(s, n, sizeof s[0], byticks);
	for(i = 0; i < n; i++){
		tenths = total == 0 ? 0 : (s[i].ticks*1000 + total/2) / total;
		printf("%llu\t%3llu.%llu\t",
			(unsigned long long)(hz == 0 ? s[i].ticks : s[i].ticks*1000 / hz),
			(unsigned long long)(tenths / 10),
			(unsigned long long)(tenths % 10));
		if(t->withcalls && s[i].calls != 0)
			printf("%llu", (unsigned long long)s[i].calls);
		printf(t->withcalls ? "\t%s\n" : "%s\n", s[i].name);
	}
}

/* Free what symload allocated. */
void
symfree(Symtab *t)
{
	free(t->sym);
	free(t->image);
	t->sym = NULL;
	t->image = NULL;
	t->nsym = 0;
}
