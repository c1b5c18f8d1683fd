/*
 * man [section] name: print the manual page of name, from /man, where
 * the boot archive carries doc/man/NAME.SECTION.  Without a section,
 * the first of sections 1 to 9 that has one.  A page may describe
 * several programs, all named on its NAME line (as tests.8 does): one
 * without a page of its own is looked for there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/*
 * Is name one of the names before the " - " of the NAME line of page
 * fd?  The line must end in the page's first 1 KB: tests.8's, which
 * names every test program, outgrew 512 bytes.
 */
static int
names(int fd, const char *name)
{
	char buf[1024], *p, *e;
	long n, len = strlen(name);

	if((n = read(fd, buf, sizeof buf - 1)) <= 0)
		return 0;
	buf[n] = '\0';
	if((p = strstr(buf, "\nNAME\n")) == NULL || (e = strstr(p + 6, " - ")) == NULL)
		return 0;
	for(p += 6; p < e; p++){
		while(*p == ' ' || *p == ',' || *p == '\n')
			p++;
		if(strncmp(p, name, len) == 0 && (p[len] == ',' || p + len == e))
			return 1;
		while(p < e && *p != ',')
			p++;
	}
	return 0;
}

/* Open the page of section sec that names name on its NAME line; -1 if none does. */
static int
sharedpage(const char *name, int sec, char *path, int npath)
{
	struct Dir d[16];
	char suffix[4];
	long i, n, len;
	int dir, fd;

	if((dir = open("/man", O_RDONLY)) < 0)
		return -1;
	snprintf(suffix, sizeof suffix, ".%d", sec);
	while((n = read(dir, d, sizeof d)) > 0)
		for(i = 0; i < n / (long)sizeof d[0]; i++){
			len = strlen(d[i].name);
			if(len < 3 || strcmp(d[i].name + len - 2, suffix) != 0)
				continue;
			snprintf(path, npath, "/man/%s", d[i].name);
			if((fd = open(path, O_RDONLY)) < 0)
				continue;
			if(names(fd, name)){
				close(dir);
				seek(fd, 0, 0);
				return fd;
			}
			close(fd);
		}
	close(dir);
	return -1;
}

/* Print the page of name in section sec; 0, 1 if there is none, -1 on an error. */
static int
man(const char *name, int sec)
{
	char path[64];
	int fd;
	long r;

	snprintf(path, sizeof path, "/man/%s.%d", name, sec);
	if((fd = open(path, O_RDONLY)) < 0 && (fd = sharedpage(name, sec, path, sizeof path)) < 0)
		return 1;
	fflush(stdout);
	if((r = copyfd(fd, 1)) < 0){
		warn(r == Copyread ? path : "write error");
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
