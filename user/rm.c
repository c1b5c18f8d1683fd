/* rm file ...: remove files and empty directories. */
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int i, status = 0;

	if(argc < 2 || (argv[1][0] == '-' && argv[1][1] != '\0')){
		fprintf(stderr, "usage: rm file ...\n");
		return 1;
	}
	for(i = 1; i < argc; i++)
		if(remove(argv[i]) < 0){
			warn(argv[i]);
			status = 1;
		}
	return status;
}
