/* cp src dst: copy a file; a directory is refused, as Plan 9's cp does. */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct Dir s, d;
	int in, out;
	long r;

	if(argc != 3){
		fprintf(stderr, "usage: cp src dst\n");
		return 1;
	}
	in = open(argv[1], O_RDONLY);
	if(in < 0){
		warn(argv[1]);
		return 1;
	}
	if(fstat(in, &s) < 0){
		warn(argv[1]);
		return 1;
	}
	if(s.mode & DMDIR){
		fprintf(stderr, "cp: %s: is a directory\n", argv[1]);
		return 1;
	}
	/* Opening dst would truncate it, and so src, were they one file. */
	if(stat(argv[2], &d) == 0
	&& s.type == d.type && s.qid == d.qid){
		fprintf(stderr, "cp: %s and %s are the same file\n", argv[1], argv[2]);
		return 1;
	}
	out = open(argv[2], O_WRONLY|O_CREAT|O_TRUNC);
	if(out < 0){
		warn(argv[2]);
		return 1;
	}
	if((r = copyfd(in, out)) < 0){
		warn(r == Copyread ? argv[1] : argv[2]);
		return 1;
	}
	return 0;
}
