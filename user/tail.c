/* tail [-n lines | -lines] [file]: print the last lines (10) of a file, or of the input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

enum { MAXLINES = 100000 };	/* the most lines tail keeps */

/* The last n lines of fd, kept in a ring of copies; 0, or -1 with errno set. */
static int
tail(int fd, long n)
{
	Linebuf b;
	char **ring, *line;
	long *lens, len, i, seen = 0;
	int r = 0;

	if(n == 0)
		return 0;
	ring = calloc(n, sizeof *ring);
	lens = calloc(n, sizeof *lens);
	if(ring == NULL || lens == NULL){
		free(ring);
		free(lens);
		return -1;
	}
	lineinit(&b, fd);
	while((line = rdline(&b, &len)) != NULL){
		i = seen++ % n;
		free(ring[i]);
		if((ring[i] = malloc(len + 1)) == NULL){
			r = -1;
			break;
		}
		memmove(ring[i], line, len);
		lens[i] = len;
	}
	if(line == NULL && !b.eof)
		r = -1;
	for(i = seen > n ? seen - n : 0; r == 0 && i < seen; i++){
		fwrite(ring[i % n], 1, lens[i % n], stdout);
		putchar('\n');
	}
	for(i = 0; i < n; i++)
		free(ring[i]);
	free(ring);
	free(lens);
	linefree(&b);
	return r;
}

int
main(int argc, char *argv[])
{
	long n = 10;
	int fd, r;

	if(argc > 1 && (strcmp(argv[1], "-n") == 0 || (argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9'))){
		if(argv[1][1] == 'n'){
			if(argc < 3)
				goto usage;
			n = parsenum(argv[2]);
			argc--;
			argv++;
		}else
			n = parsenum(argv[1] + 1);
		if(n < 0 || n > MAXLINES){
			fprintf(stderr, "tail: lines must be 0 to %d\n", MAXLINES);
			return 1;
		}
		argc--;
		argv++;
	}
	if(argc > 2 || (argc == 2 && argv[1][0] == '-' && argv[1][1] != '\0')){
usage:
		fprintf(stderr, "usage: tail [-n lines | -lines] [file]\n");
		return 1;
	}
	if(argc < 2){
		if(tail(0, n) < 0){
			warn("standard input");
			return 1;
		}
		return 0;
	}
	if((fd = open(argv[1], O_RDONLY)) < 0){
		warn(argv[1]);
		return 1;
	}
	r = tail(fd, n);
	if(r < 0)
		warn(argv[1]);
	close(fd);
	return r < 0;
}
