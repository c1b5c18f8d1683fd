/* ps: print the process list, which the kernel keeps in /dev/ps. */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int fd;

	(void)argv;
	if(argc != 1){
		fprintf(stderr, "usage: ps\n");
		return 1;
	}
	fd = open("/dev/ps", O_RDONLY);
	if(fd < 0 || copyfd(fd, 1) < 0){
		perror("ps: /dev/ps");
		return 1;
	}
	return 0;
}
