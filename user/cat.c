/* cat [file ...]: copy the files, or the standard input, to the output. */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int i, fd, status = 0;
	long r;

	if(argc < 2){
		if((r = copyfd(0, 1)) < 0){
			warn(r == Copywrite ? "write error" : "standard input");
			return 1;
		}
		return 0;
	}
	for(i = 1; i < argc; i++){
		fd = open(argv[i], O_RDONLY);
		if(fd < 0 || (r = copyfd(fd, 1)) < 0){
			warn(fd >= 0 && r == Copywrite ? "write error" : argv[i]);
			status = 1;
		}
		if(fd >= 0)
			close(fd);
	}
	return status;
}
