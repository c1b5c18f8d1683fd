/* halt [status]: power the machine off; QEMU exits with the status. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	if(poweroff(argc > 1 ? atoi(argv[1]) : 0) < 0){
		perror("halt: /dev/power");
		return 1;
	}
	return 0;
}
