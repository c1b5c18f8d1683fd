/*
 * spin [seconds]: keep the processor busy for that long (default 1;
 * a fraction to the millisecond, as 0.25) and report the clock ticks
 * at which it started and ended and how many loops it made.  Two at
 * once show the scheduler sharing the processor: their intervals
 * overlap and both make progress.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "clock.h"

int
main(int argc, char *argv[])
{
	unsigned int start, now, hz, loops = 0;
	long ms = 1000;
	volatile int i;

	if(argc > 2 || (argc == 2 && (ms = parsems(argv[1])) < 0)){
		fprintf(stderr, "usage: spin [seconds]\n");
		return 1;
	}
	start = clockticks(&hz);
	do{
		for(i = 0; i < 10000; i++)
			;
		loops++;
		now = clockticks(&hz);
	}while((unsigned long long)(now - start) * 1000 < (unsigned long long)ms * hz);
	printf("spin %d: ticks %u to %u, %u loops\n", getpid(), start, now, loops);
	return 0;
}
