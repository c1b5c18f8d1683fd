/*
 * unmount [new] old: undo bind.  With new, take new out of the union
 * at old; without, undo every bind onto old.
 */
#include <stdio.h>
#include <errno.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct Dir d;
	int e;

	if((argc != 2 && argc != 3) || (argv[1][0] == '-' && argv[1][1] != '\0')){
		fprintf(stderr, "usage: unmount [new] old\n");
		return 1;
	}
	if(unmount(argc == 3 ? argv[1] : NULL, argv[argc-1]) < 0){
		/* The kernel's error does not say which name it is about. */
		e = errno;
		if(argc == 3 && stat(argv[1], &d) < 0)
			warn(argv[1]);
		else{
			errno = e;
			warn(argv[argc-1]);
		}
		return 1;
	}
	return 0;
}
