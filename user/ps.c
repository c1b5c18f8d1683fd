/* ps: print the process list, which the kernel keeps in /dev/ps. */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int fd;
	long r;

	(void)argv;
	if(argc != 1){
		fprintf(stderr, "usage: ps\n");
		return 1;
	}
	fd = open("/dev/ps", O_RDONLY);
	if(fd < 0 || (r = copyfd(fd, 1)) == Copyread){
		perror("ps: /dev/ps");
		return 1;
	}
	if(r < 0){
		warn("write error");
		return 1;
	}
	return 0;
}
