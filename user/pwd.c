/* pwd: print the current directory. */
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	char dir[256];

	(void)argv;
	if(argc != 1){
		fprintf(stderr, "usage: pwd\n");
		return 1;
	}
	if(getwd(dir, sizeof dir) < 0){
		warn("getwd");
		return 1;
	}
	printf("%s\n", dir);
	return 0;
}
