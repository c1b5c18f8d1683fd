/* Buffered output and formatted printing. */
#ifndef STDIO_H
#define STDIO_H
#include <stdarg.h>
#include <stddef.h>
#include "kern/lib.h"	/* vsnprintf, snprintf */

#define EOF	(-1)
#define BUFSIZ	1024

typedef struct FILE FILE;
struct FILE {
	int	fd;		/* the file descriptor beneath */
	int	n;		/* bytes waiting in buf */
	int	lbuf;		/* flush at each newline */
	int	unbuf;		/* flush at the end of each call */
	int	err;		/* a write failed: exit reports it */
	char	buf[BUFSIZ];	/* output not yet written */
};

extern FILE *stdin, *stdout, *stderr;

/* Reading lines of any length from a file descriptor (rdline.c). */
typedef struct Linebuf Linebuf;
struct Linebuf {
	int	fd;		/* read from this */
	char	*buf;		/* input read, from malloc */
	long	size;		/* bytes of room in buf */
	long	start;		/* the next line starts here */
	long	end;		/* the input read ends here */
	int	eof;		/* read returned 0 */
};

void	lineinit(Linebuf*, int fd);
char	*rdline(Linebuf*, long *len);
void	linefree(Linebuf*);

int	vfprintf(FILE*, const char*, va_list);
int	fprintf(FILE*, const char*, ...);
int	printf(const char*, ...);
int	fputs(const char*, FILE*);
size_t	fwrite(const void*, size_t, size_t, FILE*);
int	puts(const char*);
int	fputc(int, FILE*);
int	putchar(int);
int	fflush(FILE*);
void	perror(const char*);
void	warn(const char*);	/* "argv0: what: error" */

extern const char	*argv0;		/* the program's name, argv[0] */

#endif
