/* halt [status]: power the machine off; QEMU exits with the status (0-255). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	long status = 0;

	if(argc > 2){
		fprintf(stderr, "usage: halt [status]\n");
		return 1;
	}
	if(argc == 2 && ((status = parsenum(argv[1])) < 0 || status > 255)){
		fprintf(stderr, "halt: bad status %s\n", argv[1]);
		return 1;
	}
	if(poweroff(status) < 0){
		perror("halt: #c/power");
		return 1;
	}
	return 0;
}
