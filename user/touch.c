/*
 * touch file ...: create each file that does not exist, empty.  Files
 * here have no times, so an existing file is left as it is.
 */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct Dir d;
	int i, fd, status = 0;

	if(argc < 2 || (argv[1][0] == '-' && argv[1][1] != '\0')){
		fprintf(stderr, "usage: touch file ...\n");
		return 1;
	}
	for(i = 1; i < argc; i++){
		if(stat(argv[i], &d) == 0)
			continue;
		if((fd = open(argv[i], O_WRONLY|O_CREAT)) < 0){
			warn(argv[i]);
			status = 1;
		}else
			close(fd);
	}
	return status;
}
