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
	char *name;
	int e;

	if((argc != 2 && argc != 3) || (argv[1][0] == '-' && argv[1][1] != '\0')){
		fprintf(stderr, "usage: unmount [new] old\n");
		return 1;
	}
	if(unmount(argc == 3 ? argv[1] : NULL, argv[argc-1]) < 0){
		/*
		 * The kernel's error does not say which name it is about:
		 * new's if new does not exist, or if old does and new is
		 * not in the union there (both ENOENT); else old's.
		 */
		e = errno;
		name = argv[argc-1];
		if(argc == 3 && e == ENOENT && (stat(argv[1], &d) < 0 || stat(argv[2], &d) == 0))
			name = argv[1];
		errno = e;
		warn(name);
		return 1;
	}
	return 0;
}
