/*
 * sort [-r] [-n] [file ...]: sort the lines of the files, or of the
 * input, bytewise (-n: by the number each starts with; -r: reversed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

typedef struct Line Line;
struct Line {
	char	*s;		/* the line, NUL-terminated */
	long	len;		/* its length, without the NUL */
};

static Line	*lines;
static long	nlines, maxlines;
static int	rflag, nflag;

/* Keep a copy of every line of fd; 0, or -1 with errno set. */
static int
readin(int fd)
{
	Linebuf b;
	Line *nl;
	char *line, *s;
	long len;
	int r = 0;

	lineinit(&b, fd);
	while((line = rdline(&b, &len)) != NULL){
		if(nlines == maxlines){
			if((nl = realloc(lines, (maxlines ? 2*maxlines : 256) * sizeof *nl)) == NULL){
				r = -1;
				break;
			}
			lines = nl;
			maxlines = maxlines ? 2*maxlines : 256;
		}
		if((s = malloc(len + 1)) == NULL){
			r = -1;
			break;
		}
		memmove(s, line, len + 1);
		lines[nlines].s = s;
		lines[nlines++].len = len;
	}
	if(line == NULL && !b.eof)
		r = -1;
	linefree(&b);
	return r;
}

/* The number a line starts with, after blanks: sign and digits. */
static long
leadnum(const char *s)
{
	while(*s == ' ' || *s == '\t')
		s++;
	return strtol(s, NULL, 10);
}

static int
cmp(const void *va, const void *vb)
{
	const Line *a = va, *b = vb;
	long na, nb;
	int c;

	c = 0;
	if(nflag){
		na = leadnum(a->s);
		nb = leadnum(b->s);
		c = na < nb ? -1 : na > nb;
	}
	if(c == 0){
		c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
		if(c == 0)
			c = a->len < b->len ? -1 : a->len > b->len;
	}
	return rflag ? -c : c;
}

int
main(int argc, char *argv[])
{
	int i, fd, status = 0;
	long k;
	char *o;

	for(; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'; argc--, argv++)
		for(o = argv[1] + 1; *o != '\0'; o++)
			switch(*o){
			case 'r': rflag = 1; break;
			case 'n': nflag = 1; break;
			default:
				fprintf(stderr, "usage: sort [-r] [-n] [file ...]\n");
				return 1;
			}
	if(argc < 2 && readin(0) < 0){
		warn("standard input");
		return 1;
	}
	for(i = 1; i < argc; i++){
		if((fd = open(argv[i], O_RDONLY)) < 0 || readin(fd) < 0){
			warn(argv[i]);
			status = 1;
		}
		if(fd >= 0)
			close(fd);
	}
	if(status != 0)
		return status;
	qsort(lines, nlines, sizeof *lines, cmp);
	for(k = 0; k < nlines; k++){
		fwrite(lines[k].s, 1, lines[k].len, stdout);
		putchar('\n');
	}
	return 0;
}
