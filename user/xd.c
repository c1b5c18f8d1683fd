/*
 * xd [file ...]: hex dump, as od -Ax -tx1 -v prints it: each line is
 * the offset in hex and then up to 16 bytes; the last line is the
 * final offset, if some file could be opened.  Several files are
 * dumped as one stream.
 */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

static unsigned char line[16];	/* bytes not yet printed */
static int nline;		/* how many */
static unsigned long off;	/* offset of line[0] */

static void
flushline(void)
{
	int i;

	printf("%06lx", off);
	for(i = 0; i < nline; i++)
		printf(" %02x", line[i]);
	printf("\n");
	off += nline;
	nline = 0;
}

/* Dump what fd holds; 0 on success, -1 on a read error. */
static int
dump(int fd)
{
	unsigned char buf[4096];
	long i, n;

	while((n = read(fd, buf, sizeof buf)) > 0)
		for(i = 0; i < n; i++){
			line[nline++] = buf[i];
			if(nline == sizeof line)
				flushline();
		}
	return n < 0 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	int i, fd, status = 0, opened = argc < 2;

	if(argc < 2 && dump(0) < 0){
		warn("standard input");
		status = 1;
	}
	for(i = 1; i < argc; i++){
		fd = open(argv[i], O_RDONLY);
		if(fd < 0 || dump(fd) < 0){
			warn(argv[i]);
			status = 1;
		}
		if(fd >= 0){
			opened = 1;
			close(fd);
		}
	}
	if(nline > 0)
		flushline();
	if(opened)	/* as od: no offset when nothing could be opened */
		printf("%06lx\n", off);
	return status;
}
