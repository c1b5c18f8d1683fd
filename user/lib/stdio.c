/*
 * Buffered output.  stdout collects output and writes it at each
 * newline (and when the buffer fills); stderr writes at the end of
 * every call.  A failed write is remembered, and exit reports it and
 * makes the exit status 1: so every program fails when its output
 * does.  Nothing here reads: programs read with read(2).
 */
#include <stdarg.h>
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"

extern int	_errnosys;	/* the last system call's error (syscall.asm) */

static FILE files[3] = {
	{ .fd = 0 },
	{ .fd = 1, .lbuf = 1 },
	{ .fd = 2, .unbuf = 1 },
};

FILE *stdin = &files[0];
FILE *stdout = &files[1];
FILE *stderr = &files[2];
const char *argv0 = "?";		/* set by crt0 */

int
fflush(FILE *f)
{
	long n, off;

	for(off = 0; off < f->n; off += n){
		n = write(f->fd, f->buf + off, f->n - off);
		if(n <= 0){
			f->n = 0;
			f->err = 1;
			return EOF;
		}
	}
	f->n = 0;
	return 0;
}

/* Add n bytes to f's buffer, writing it out as it fills or at newlines. */
static int
putbytes(FILE *f, const char *s, int n)
{
	int i, r = 0, nl = 0;

	for(i = 0; i < n; i++){
		if(f->n == BUFSIZ && fflush(f) == EOF)
			r = EOF;
		f->buf[f->n++] = s[i];
		if(s[i] == '\n')
			nl = 1;
	}
	if(f->unbuf || (f->lbuf && nl))
		if(fflush(f) == EOF)
			r = EOF;
	return r;
}

/* Format into a buffer on the stack, or for long output one from malloc. */
int
vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char small[256], *p;
	va_list ap2;
	int n, r;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	p = small;
	if(n >= (int)sizeof small){
		p = malloc(n + 1);
		if(p != NULL)
			vsnprintf(p, n + 1, fmt, ap2);
		else{
			p = small;
			n = sizeof small - 1;
		}
	}
	va_end(ap2);
	r = putbytes(f, p, n);
	if(p != small)
		free(p);
	return r == EOF ? EOF : n;
}

int
fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int
printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int
fputs(const char *s, FILE *f)
{
	return putbytes(f, s, strlen(s));
}

size_t
fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	if(putbytes(f, p, size*n) == EOF)
		return 0;
	return n;
}

int
puts(const char *s)
{
	if(fputs(s, stdout) == EOF)
		return EOF;
	return fputc('\n', stdout);
}

int
fputc(int c, FILE *f)
{
	char b = c;

	if(putbytes(f, &b, 1) == EOF)
		return EOF;
	return (unsigned char)c;
}

int
putchar(int c)
{
	return fputc(c, stdout);
}

/*
 * The text of the last error: the kernel's error string, which says
 * more than errno's message, but only if the error came from a system
 * call; after the library set errno itself (malloc, strtol), the
 * kernel's string would be stale.
 */
static void
errtext(char *msg, int n)
{
	int e = errno;

	if(e != _errnosys || errstr(msg, n) < 0 || msg[0] == '\0')
		strlcpy(msg, strerror(e), n);
}

/* Print s, a colon and the last error. */
void
perror(const char *s)
{
	char msg[ERRMAX];

	errtext(msg, sizeof msg);
	if(s != NULL && *s != '\0')
		fprintf(stderr, "%s: %s\n", s, msg);
	else
		fprintf(stderr, "%s\n", msg);
}

/* Print the program's name, what failed, and the last error. */
void
warn(const char *what)
{
	char msg[ERRMAX];

	errtext(msg, sizeof msg);
	fprintf(stderr, "%s: %s: %s\n", argv0, what, msg);
}
