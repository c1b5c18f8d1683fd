/*
 * sort [-r] [-n] [file ...]: sort the lines of the files, or of the
 * input, bytewise (-n: by the number each starts with; -r: reversed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
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

/*
 * The number s starts with, after blanks: whether it is negative, in
 * *neg, and its digits past any leading zeros, in *d; their count.
 * Digits, not a long, so that a number of any length compares right.
 */
static long
number(const char *s, int *neg, const char **d)
{
	long n;

	while(*s == ' ' || *s == '\t')
		s++;
	*neg = *s == '-';
	if(*s == '-' || *s == '+')
		s++;
	while(*s == '0')
		s++;
	*d = s;
	for(n = 0; isdigit(s[n]); n++)
		;
	if(n == 0)
		*neg = 0;	/* -0, and no number at all, are 0 */
	return n;
}

/* Compare the numbers lines a and b start with. */
static int
numcmp(const char *a, const char *b)
{
	const char *da, *db;
	long la, lb;
	int na, nb, c;

	la = number(a, &na, &da);
	lb = number(b, &nb, &db);
	if(na != nb)
		return na ? -1 : 1;
	c = la != lb ? (la < lb ? -1 : 1) : memcmp(da, db, la);
	return na ? -c : c;
}

static int
cmp(const void *va, const void *vb)
{
	const Line *a = va, *b = vb;
	int c;

	c = nflag ? numcmp(a->s, b->s) : 0;
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

	for(; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'; argc--, argv++){
		if(strcmp(argv[1], "--") == 0){
			argc--;
			argv++;
			break;
		}
		for(o = argv[1] + 1; *o != '\0'; o++)
			switch(*o){
			case 'r': rflag = 1; break;
			case 'n': nflag = 1; break;
			default:
				fprintf(stderr, "usage: sort [-r] [-n] [file ...]\n");
				return 1;
			}
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
