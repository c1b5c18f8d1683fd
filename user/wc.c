/*
 * wc [file ...]: count the lines, words and bytes of each file, or of
 * the input, and their total if there are several.  A word is a run of
 * bytes other than space, tab and newline.
 */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

static unsigned long	tlines, twords, tbytes;	/* the totals */

/* Count fd and print the counts with name; 0, or -1 with errno set. */
static int
wc(int fd, const char *name)
{
	char buf[4096];
	unsigned long lines = 0, words = 0, bytes = 0;
	long n, i;
	int inword = 0, sp;

	while((n = read(fd, buf, sizeof buf)) > 0){
		bytes += n;
		for(i = 0; i < n; i++){
			sp = buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n';
			if(buf[i] == '\n')
				lines++;
			if(!sp && !inword)
				words++;
			inword = !sp;
		}
	}
	if(n < 0)
		return -1;
	printf("%7lu %7lu %7lu%s%s\n", lines, words, bytes, name ? " " : "", name ? name : "");
	tlines += lines;
	twords += words;
	tbytes += bytes;
	return 0;
}

int
main(int argc, char *argv[])
{
	int i, fd, status = 0;

	if(argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'){
		fprintf(stderr, "usage: wc [file ...]\n");
		return 1;
	}
	if(argc < 2 && wc(0, NULL) < 0){
		warn("standard input");
		return 1;
	}
	for(i = 1; i < argc; i++){
		if((fd = open(argv[i], O_RDONLY)) < 0 || wc(fd, argv[i]) < 0){
			warn(argv[i]);
			status = 1;
		}
		if(fd >= 0)
			close(fd);
	}
	if(argc > 2)
		printf("%7lu %7lu %7lu total\n", tlines, twords, tbytes);
	return status;
}
