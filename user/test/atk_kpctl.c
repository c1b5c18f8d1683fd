/*
 * atk_kpctl: write "start" and 64 MB of blanks to /dev/kpctl.  Trailing
 * blanks are allowed in a message, but a message this long must be
 * refused at once: kpctl parsed it with interrupts off, and the clock
 * stopped for the whole scan.  The same scan in user mode, for
 * comparison, shows how many ticks it takes.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"

enum { N = 64*1024*1024 };

static long
timed(char *file, char *buf)
{
	unsigned t0, t1, hz;
	long r;
	int fd;

	if((fd = open(file, O_WRONLY)) < 0)
		return -1;
	t0 = clockticks(&hz);
	r = write(fd, buf, N);
	t1 = clockticks(&hz);
	close(fd);
	printf("atk_kpctl: %s: write %ld, %u ticks passed\n", file, r, t1 - t0);
	return r;
}

/* A scan of the whole message, here with the clock running. */
static void
userscan(char *buf)
{
	unsigned t0, t1, hz;
	volatile char *p = buf;
	long i;

	t0 = clockticks(&hz);
	for(i = 5; i < N; i++)
		if(p[i] != ' ' && p[i] != '\t' && p[i] != '\n')
			break;
	t1 = clockticks(&hz);
	printf("atk_kpctl: the same scan in user mode: %u ticks passed\n", t1 - t0);
}

int
main(void)
{
	char *buf;

	if((buf = sbrk(N)) == (void*)-1){
		printf("atk_kpctl: no memory\n");
		return 1;
	}
	memset(buf, ' ', N);
	memmove(buf, "start", 5);
	userscan(buf);
	timed("/dev/kpctl", buf);
	return 0;
}
