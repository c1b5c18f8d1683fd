/* clockticks: the clock ticks since boot, and HZ, from /dev/time ("TICKS HZ\n"). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "clock.h"

/* Ticks since boot; *hz is set to the ticks per second, 0 if /dev/time is unreadable. */
unsigned int
clockticks(unsigned int *hz)
{
	char buf[64], *p;
	long n;
	int fd;

	*hz = 0;
	if((fd = open("/dev/time", O_RDONLY)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if(n <= 0)
		return 0;
	buf[n] = '\0';
	n = strtoul(buf, &p, 10);
	*hz = strtoul(p, NULL, 10);
	return n;
}
