/*
 * head [-n lines | -lines] [file ...]: print the first lines (10) of
 * each file, or of the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* Copy the first n lines of fd; 0, or -1 with errno set on an error. */
static int
head(int fd, long n)
{
	Linebuf b;
	char *line;
	long len;
	int r = 0;

	lineinit(&b, fd);
	for(; n > 0; n--){
		if((line = rdline(&b, &len)) == NULL){
			if(!b.eof)
				r = -1;
			break;
		}
		fwrite(line, 1, len, stdout);
		putchar('\n');
	}
	linefree(&b);
	return r;
}

int
main(int argc, char *argv[])
{
	long n = 10;
	int i, fd, status = 0;

	if(argc > 1 && strcmp(argv[1], "-n") == 0){
		if(argc < 3 || (n = parsenum(argv[2])) < 0)
			goto usage;
		argc -= 2;
		argv += 2;
	}else if(argc > 1 && argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9'){
		if((n = parsenum(argv[1] + 1)) < 0)
			goto usage;
		argc--;
		argv++;
	}
	if(argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0')
		goto usage;
	if(argc < 2 && head(0, n) < 0){
		warn("standard input");
		return 1;
	}
	for(i = 1; i < argc; i++){
		if(argc > 2)
			printf("%s==> %s <==\n", i > 1 ? "\n" : "", argv[i]);
		if((fd = open(argv[i], O_RDONLY)) < 0 || head(fd, n) < 0){
			warn(argv[i]);
			status = 1;
		}
		if(fd >= 0)
			close(fd);
	}
	return status;
usage:
	fprintf(stderr, "usage: head [-n lines | -lines] [file ...]\n");
	return 1;
}
