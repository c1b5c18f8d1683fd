/*
 * mv from to: move a file; to may be a directory to put it in.  There
 * is no rename in this kernel, so mv copies the file and then removes
 * the original; if that fails, it removes the copy, and nothing is lost.
 * Directories are not moved.
 */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct Dir s, d;
	char path[256], *base;
	const char *to;
	int in, out;
	long r;

	if(argc != 3){
		fprintf(stderr, "usage: mv from to\n");
		return 1;
	}
	if(stat(argv[1], &s) < 0){
		warn(argv[1]);
		return 1;
	}
	if(s.mode & DMDIR){
		fprintf(stderr, "mv: %s: is a directory\n", argv[1]);
		return 1;
	}
	to = argv[2];
	if(stat(to, &d) == 0 && (d.mode & DMDIR)){
		base = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
		if(snprintf(path, sizeof path, "%s/%s", to, base) >= (int)sizeof path){
			fprintf(stderr, "mv: %s/%s: name too long\n", to, base);
			return 1;
		}
		to = path;
	}
	if(stat(to, &d) == 0){
		if(s.type == d.type && s.qid == d.qid){
			fprintf(stderr, "mv: %s and %s are the same file\n", argv[1], to);
			return 1;
		}
		/* Copied into a device (/dev/null, the console), the file would be gone. */
		if(d.type != s.type){
			fprintf(stderr, "mv: %s: a device's file, not one to move to\n", to);
			return 1;
		}
	}
	if((in = open(argv[1], O_RDONLY)) < 0){
		warn(argv[1]);
		return 1;
	}
	if((out = open(to, O_WRONLY|O_CREAT|O_TRUNC)) < 0){
		warn(to);
		return 1;
	}
	if((r = copyfd(in, out)) < 0){
		warn(r == Copyread ? argv[1] : to);
		close(out);
		remove(to);
		return 1;
	}
	close(in);
	close(out);
	if(remove(argv[1]) < 0){
		warn(argv[1]);
		remove(to);
		return 1;
	}
	return 0;
}
