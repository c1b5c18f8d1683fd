/*
 * ls [-l] [name ...]: list files; a directory lists its entries.
 * -l adds the mode (d for a directory, - for a file, then the read,
 * write and execute bits of owner, group and others) and the length.
 */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static int lflag;	/* long listing */

static void
pr(const char *name, struct Dir *d)
{
	char mode[11];
	int i;

	if(lflag){
		mode[0] = (d->mode & DMDIR) ? 'd' : '-';
		for(i = 0; i < 9; i++)
			mode[1+i] = (d->mode & (0400 >> i)) ? "rwx"[i % 3] : '-';
		mode[10] = '\0';
		printf("%s %8u %s\n", mode, d->length, name);
	}else
		printf("%s\n", name);
}

/* List one name; 0 on success, -1 (with a message) on error. */
static int
ls(const char *name)
{
	struct Dir d, dirs[16];
	long i, n;
	int fd;

	if(stat(name, &d) < 0){
		warn(name);
		return -1;
	}
	if(!(d.mode & DMDIR)){
		pr(name, &d);
		return 0;
	}
	fd = open(name, O_RDONLY);
	if(fd < 0){
		warn(name);
		return -1;
	}
	while((n = read(fd, dirs, sizeof dirs)) > 0)
		for(i = 0; i < n / (long)sizeof(struct Dir); i++)
			pr(dirs[i].name, &dirs[i]);
	close(fd);
	if(n < 0){
		warn(name);
		return -1;
	}
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
	if(argc < 2)
		return ls(".") < 0;
	for(i = 1; i < argc; i++)
		if(ls(argv[i]) < 0)
			status = 1;
	return status;
}
