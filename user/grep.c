/*
 * grep [-v] [-n] [-c] [-F] pattern [file ...]: print the lines that
 * match the pattern (-v: that do not; -n: with line numbers; -c: only
 * count them).  With -F the pattern is a fixed string.  Otherwise it
 * is a simple regular expression (user/lib/regexp.c): c matches
 * itself, . any byte, x* any number of x, \c the byte c itself, ^ at
 * the start anchors the match to the line's start and $ at the end to
 * its end; the time is linear in the line's length.  Exit status 0 if
 * a line was selected, 1 if none, 2 on an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "regexp.h"

static Regexp	*re;		/* the pattern, unless -F */
static char	*fixed;		/* -F: the string */
static long	nfixed;
static int	vflag, nflag, cflag;

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
		if((fixed ? fixedmatch(line, len) : regexec(re, line, len)) == vflag)
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
	const char *err;

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
	}else if((re = regcomp(argv[1], &err)) == NULL){
		fprintf(stderr, "grep: %s\n", err);
		return 2;
	}
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
