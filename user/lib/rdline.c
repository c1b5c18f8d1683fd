/*
 * rdline: the next line of a file descriptor, of any length.  The
 * buffer grows as a line needs, so a file is read once, in time
 * linear in its size.
 */
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"

void
lineinit(Linebuf *b, int fd)
{
	memset(b, 0, sizeof *b);
	b->fd = fd;
}

void
linefree(Linebuf *b)
{
	free(b->buf);
	b->buf = NULL;
}

/*
 * The next line, NUL-terminated, without its newline; its length in
 * *len.  It stays valid until the next call.  NULL at the end of the
 * input, or on an error with errno set (a read's, or ENOMEM).
 */
char*
rdline(Linebuf *b, long *len)
{
	long i = b->start, n;
	char *nb, *line;

	for(;;){
		for(; i < b->end; i++)
			if(b->buf[i] == '\n')
				goto found;
		if(b->eof){
			if(b->start == b->end)
				return NULL;
			goto found;	/* a last line without a newline */
		}
		if(b->start > 0){	/* move the partial line to the front */
			memmove(b->buf, b->buf + b->start, b->end - b->start);
			b->end -= b->start;
			i -= b->start;
			b->start = 0;
		}
		if(b->end + 1 >= b->size){	/* room for a NUL after it all */
			if((nb = realloc(b->buf, b->size ? 2*b->size : 1024)) == NULL){
				errno = ENOMEM;
				return NULL;
			}
			b->buf = nb;
			b->size = b->size ? 2*b->size : 1024;
		}
		n = read(b->fd, b->buf + b->end, b->size - 1 - b->end);
		if(n < 0)
			return NULL;
		if(n == 0)
			b->eof = 1;
		b->end += n;
	}
found:
	line = b->buf + b->start;
	b->buf[i] = '\0';
	*len = i - b->start;
	b->start = i < b->end ? i + 1 : i;
	return line;
}
