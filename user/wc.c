/*
 * wc [-lwc] [file ...]: count the lines, words and bytes of each file,
 * or of the input, and their total if there are several.  A word is a
 * run of bytes other than space, tab and newline.  The options choose
 * which counts are printed; none means all three.
 */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

static unsigned long	tlines, twords, tbytes;	/* the totals */
static int	show[3];	/* print lines, words, bytes */

/* One line of counts, those that show asks for. */
static void
put(unsigned long lines, unsigned long words, unsigned long bytes, const char *name)
{
	unsigned long c[3] = { lines, words, bytes };
	char *sep = "";
	int i;

	for(i = 0; i < 3; i++)
		if(show[i]){
			printf("%s%7lu", sep, c[i]);
			sep = " ";
		}
	if(name != NULL)
		printf(" %s", name);
	printf("\n");
}

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
	put(lines, words, bytes, name);
	tlines += lines;
	twords += words;
	tbytes += bytes;
	return 0;
}

int
main(int argc, char *argv[])
{
	int i, fd, status = 0;
	char *o;

	for(; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0'; argc--, argv++)
		for(o = argv[1] + 1; *o != '\0'; o++){
			if(*o == 'l')
				show[0] = 1;
			else if(*o == 'w')
				show[1] = 1;
			else if(*o == 'c')
				show[2] = 1;
			else{
				fprintf(stderr, "usage: wc [-lwc] [file ...]\n");
				return 1;
			}
		}
	if(!show[0] && !show[1] && !show[2])
		show[0] = show[1] = show[2] = 1;
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
		put(tlines, twords, tbytes, "total");
	return status;
}
