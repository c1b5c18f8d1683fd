/*
 * ls [-l] [name ...]: list files; a directory lists its entries, sorted
 * by name, under a heading of its name when several names are given.
 * -l adds the mode (d for a directory, - for a file, then the read,
 * write and execute bits of owner, group and others) and the length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static int lflag;	/* long listing */
static int said;	/* something is listed: a heading after it gets a blank line */
static int headed;	/* the last listed was a directory's, under a heading */

static void
pr(const char *name, struct Dir *d)
{
	char mode[11];
	int i;

	said = 1;
	if(lflag){
		mode[0] = (d->mode & DMDIR) ? 'd' : '-';
		for(i = 0; i < 9; i++)
			mode[1+i] = (d->mode & (0400 >> i)) ? "rwx"[i % 3] : '-';
		mode[10] = '\0';
		printf("%s %8u %s\n", mode, d->length, name);
	}else
		printf("%s\n", name);
}

static int
byname(const void *a, const void *b)
{
	return strcmp(((const struct Dir*)a)->name, ((const struct Dir*)b)->name);
}

/*
 * The entries of directory fd, read whole so that they can be sorted:
 * their number, or -1 with errno set.
 */
static long
readdir(int fd, struct Dir **dp)
{
	struct Dir *d = NULL, *nd;
	long n = 0, max = 0, r;

	for(;;){
		if(n == max){
			max = max ? 2*max : 32;
			if((nd = realloc(d, max * sizeof *d)) == NULL){
				free(d);
				return -1;
			}
			d = nd;
		}
		r = read(fd, d + n, (max - n) * sizeof *d);
		if(r <= 0)
			break;
		n += r / (long)sizeof *d;
	}
	if(r < 0){
		free(d);
		return -1;
	}
	*dp = d;
	return n;
}

/*
 * List one name, under a heading if it is a directory and heading is
 * set; 0 on success, -1 (with a message) on error.
 */
static int
ls(const char *name, int heading)
{
	struct Dir d, *dirs;
	long i, n;
	int fd;

	if(stat(name, &d) < 0){
		warn(name);
		return -1;
	}
	if(!(d.mode & DMDIR)){
		if(headed)
			printf("\n");
		headed = 0;
		pr(name, &d);
		return 0;
	}
	if((fd = open(name, O_RDONLY)) < 0){
		warn(name);
		return -1;
	}
	n = readdir(fd, &dirs);
	close(fd);
	if(n < 0){
		warn(name);
		return -1;
	}
	qsort(dirs, n, sizeof *dirs, byname);
	if(heading){
		printf("%s%s:\n", said ? "\n" : "", name);
		said = headed = 1;
	}
	for(i = 0; i < n; i++)
		pr(dirs[i].name, &dirs[i]);
	free(dirs);
	return 0;
}

int
main(int argc, char *argv[])
{
	int i, status = 0;

	if(argc > 1 && strcmp(argv[1], "-l") == 0){
		lflag = 1;
		argc--;
		argv++;
	}
	if(argc > 1 && strcmp(argv[1], "--") == 0){
		argc--;
		argv++;
	}else if(argc > 1 && argv[1][0] == '-'){
		fprintf(stderr, "usage: ls [-l] [name ...]\n");
		return 1;
	}
	if(argc < 2)
		return ls(".", 0) < 0;
	for(i = 1; i < argc; i++)
		if(ls(argv[i], argc > 2) < 0)
			status = 1;
	return status;
}
