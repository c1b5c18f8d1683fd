/*
 * poweroff: ask the kernel to end the machine with the given status.
 * The console device by its own name: a bind over /dev cannot hide it.
 */
#include "stdio.h"
#include "string.h"
#include "fcntl.h"
#include "unistd.h"

int
poweroff(int status)
{
	char msg[32];
	int fd;
	long n;

	fd = open("#c/power", O_WRONLY);
	if(fd < 0)
		return -1;
	snprintf(msg, sizeof msg, "off %d", status);
	n = write(fd, msg, strlen(msg));
	close(fd);
	return n < 0 ? -1 : 0;
}
