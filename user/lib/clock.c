/*
 * clockticks: the clock ticks since boot, and HZ, from /dev/time
 * ("TICKS HZ\n"); proctime: the ticks the calling process's threads
 * have run, and of them with a profiler on, from /dev/proctime
 * ("ticks N profiled M\n").
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"

/* Ticks since boot; *hz is set to the ticks per second, 0 if /dev/time is unreadable. */
unsigned int
clockticks(unsigned int *hz)
{
	char buf[64], *p;
	long n;

	*hz = 0;
	if(readwhole("/dev/time", buf, sizeof buf) <= 0)
		return 0;
	n = strtoul(buf, &p, 10);
	*hz = strtoul(p, NULL, 10);
	return n;
}

/* *ticks and *profiled, for the calling process's threads; -1 if /dev/proctime is unreadable. */
int
proctime(unsigned long *ticks, unsigned long *profiled)
{
	char buf[64], *p;

	if(readwhole("/dev/proctime", buf, sizeof buf) <= 0)
		return -1;
	if(strncmp(buf, "ticks ", 6) != 0 || (p = strstr(buf, " profiled ")) == NULL)
		return -1;
	*ticks = strtoul(buf + 6, NULL, 10);
	*profiled = strtoul(p + 10, NULL, 10);
	return 0;
}
