/*
 * man [section] name: print the manual page of name, from /man, where
 * the boot archive carries doc/man/NAME.SECTION.  Without a section,
 * the first of sections 1 to 9 that has one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* Print /man/name.sec; 0, 1 if there is no such page, -1 on an error. */
static int
man(const char *name, int sec)
{
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/man/%s.%d", name, sec);
	if((fd = open(path, O_RDONLY)) < 0)
		return 1;
	fflush(stdout);
	if(copyfd(fd, 1) < 0){
		warn(path);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
main(int argc, char *argv[])
{
	long sec = 0;
	int r = 1;

	if(argc == 3 && ((sec = parsenum(argv[1])) < 1 || sec > 9)){
		fprintf(stderr, "man: %s: sections are 1 to 9\n", argv[1]);
		return 1;
	}
	if(argc < 2 || argc > 3){
		fprintf(stderr, "usage: man [section] name\n");
		return 1;
	}
	if(strlen(argv[argc-1]) > NAMELEN - 3 || strchr(argv[argc-1], '/') != NULL){
		fprintf(stderr, "man: %s: not a page name\n", argv[argc-1]);
		return 1;
	}
	if(sec != 0)
		r = man(argv[2], sec);
	else
		for(sec = 1; sec <= 9 && r == 1; sec++)
			r = man(argv[1], sec);
	if(r == 1)
		fprintf(stderr, "man: no manual page for %s\n", argv[argc-1]);
	return r != 0;
}
