/*
 * grep [-v] [-n] [-c] [-F] pattern [file ...]: print the lines that
 * match the pattern (-v: that do not; -n: with line numbers; -c: only
 * count them).  With -F the pattern is a fixed string.  Otherwise it
 * is a simple regular expression: c matches itself, . any byte, x*
 * any number of x, \c the byte c itself, ^ at the start anchors the
 * match to the line's start and $ at the end to its end.
 *
 * The expression is matched by running all its states at once over
 * the line (a Thompson simulation), so the time is the line's length
 * times the pattern's, whatever the pattern: no backtracking.
 * Exit status 0 if a line was selected, 1 if none, 2 on an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

enum { ANY = 256 };	/* an item matching any byte */

typedef struct Item Item;
struct Item {
	int	c;		/* the byte to match, or ANY */
	int	star;		/* followed by *: any number of times */
};

static Item	*re;		/* the compiled expression */
static int	nre;		/* its items */
static int	bol, eol;	/* anchored at ^ and $ */
static char	*fixed;		/* -F: the string */
static long	nfixed;
static int	vflag, nflag, cflag;
static char	*cur, *next;	/* state sets: cur[i] says item i is reached */

/* Compile pat; 0, or -1 with a message. */
static int
compile(char *pat)
{
	long n = strlen(pat);

	if(*pat == '^'){
		bol = 1;
		pat++;
		n--;
	}
	if(n > 0 && pat[n-1] == '$' && (n < 2 || pat[n-2] != '\\')){
		eol = 1;
		pat[--n] = '\0';
	}
	re = malloc((n + 1) * sizeof *re);
	cur = malloc(n + 2);
	next = malloc(n + 2);
	if(re == NULL || cur == NULL || next == NULL){
		fprintf(stderr, "grep: out of memory\n");
		return -1;
	}
	for(; *pat != '\0'; pat++){
		if(*pat == '*'){
			fprintf(stderr, "grep: * with nothing before it\n");
			return -1;
		}
		if(*pat == '\\'){
			if(*++pat == '\0'){
				fprintf(stderr, "grep: \\ at the end of the pattern\n");
				return -1;
			}
			re[nre].c = (unsigned char)*pat;
		}else
			re[nre].c = *pat == '.' ? ANY : (unsigned char)*pat;
		re[nre].star = pat[1] == '*';
		if(re[nre].star)
			pat++;
		nre++;
	}
	return 0;
}

/* Add state i to set s, and the states a starred item lets it skip to. */
static void
addstate(char *s, int i)
{
	for(; i < nre && !s[i]; i++){
		s[i] = 1;
		if(!re[i].star)
			return;
	}
	s[i] = 1;	/* i == nre (accept), or already there */
}

static int
rematch(const char *line, long len)
{
	long k;
	int i;
	char *t;

	memset(cur, 0, nre + 1);
	addstate(cur, 0);
	for(k = 0; ; k++){
		if(cur[nre] && (!eol || k == len))
			return 1;
		if(k == len)
			return 0;
		memset(next, 0, nre + 1);
		for(i = 0; i < nre; i++)
			if(cur[i] && (re[i].c == ANY || re[i].c == (unsigned char)line[k]))
				addstate(next, re[i].star ? i : i + 1);
		if(!bol)
			addstate(next, 0);
		t = cur;
		cur = next;
		next = t;
	}
}

static int
fixedmatch(const char *line, long len)
{
	long k;

	for(k = 0; k + nfixed <= len; k++)
		if(memcmp(line + k, fixed, nfixed) == 0)
			return 1;
	return 0;
}

/* Search fd; the lines selected, or -1 with errno set. */
static long
grep(int fd, const char *name)
{
	Linebuf b;
	char *line;
	long len, lineno = 0, nsel = 0;

	lineinit(&b, fd);
	while((line = rdline(&b, &len)) != NULL){
		lineno++;
		if((fixed ? fixedmatch(line, len) : rematch(line, len)) == vflag)
			continue;
		nsel++;
		if(cflag)
			continue;
		if(name != NULL)
			printf("%s:", name);
		if(nflag)
			printf("%ld:", lineno);
		fwrite(line, 1, len, stdout);
		putchar('\n');
	}
	linefree(&b);
	if(!b.eof)
		return -1;
	if(cflag){
		if(name != NULL)
			printf("%s:", name);
		printf("%ld\n", nsel);
	}
	return nsel;
}

static void
usage(void)
{
	fprintf(stderr, "usage: grep [-v] [-n] [-c] [-F] pattern [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	int i, fd, fflag = 0, status = 1;
	long n;
	char *o;

	for(; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'; argc--, argv++){
		if(strcmp(argv[1], "--") == 0){
			argc--;
			argv++;
			break;
		}
		for(o = argv[1] + 1; *o != '\0'; o++)
			switch(*o){
			case 'v': vflag = 1; break;
			case 'n': nflag = 1; break;
			case 'c': cflag = 1; break;
			case 'F': fflag = 1; break;
			default: usage();
			}
	}
	if(argc < 2)
		usage();
	if(fflag){
		fixed = argv[1];
		nfixed = strlen(fixed);
	}else if(compile(argv[1]) < 0)
		return 2;
	if(argc == 2){
		if((n = grep(0, NULL)) < 0){
			warn("standard input");
			return 2;
		}
		return n == 0;
	}
	for(i = 2; i < argc; i++){
		fd = open(argv[i], O_RDONLY);
		if(fd < 0 || (n = grep(fd, argc > 3 ? argv[i] : NULL)) < 0){
			warn(argv[i]);
			status = 2;
		}else if(n > 0 && status == 1)
			status = 0;
		if(fd >= 0)
			close(fd);
	}
	return status;
}
