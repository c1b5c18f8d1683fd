/*
 * unmount [new] old: undo bind.  With new, take new out of the union
 * at old; without, undo every bind onto old.
 */
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	if((argc != 2 && argc != 3) || (argv[1][0] == '-' && argv[1][1] != '\0')){
		fprintf(stderr, "usage: unmount [new] old\n");
		return 1;
	}
	if(unmount(argc == 3 ? argv[1] : NULL, argv[argc-1]) < 0){
		perror("unmount");
		return 1;
	}
	return 0;
}
