/*
 * spin [seconds]: keep the processor busy for that long (default 1;
 * a fraction to the millisecond, as 0.25) and report the clock ticks
 * at which it started and ended and how many loops it made.  Two at
 * once show the scheduler sharing the processor: their intervals
 * overlap and both make progress.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"

/* Seconds with up to three decimals, as milliseconds; -1 if s is not that. */
static long
millis(const char *s)
{
	char whole[16], *dot;
	long ms, scale;
	size_t n;

	n = (dot = strchr(s, '.')) != NULL ? (size_t)(dot - s) : strlen(s);
	if(n >= sizeof whole)
		return -1;
	memcpy(whole, s, n);
	whole[n] = '\0';
	if((ms = parsenum(whole)) < 0 || ms > 1000000)
		return -1;
	ms *= 1000;
	if(dot == NULL)
		return ms;
	if(dot[1] == '\0')
		return -1;
	for(s = dot + 1, scale = 100; *s != '\0'; s++, scale /= 10){
		if(*s < '0' || *s > '9' || scale == 0)
			return -1;
		ms += (*s - '0') * scale;
	}
	return ms;
}

int
main(int argc, char *argv[])
{
	unsigned int start, now, hz, loops = 0;
	long ms = 1000;
	volatile int i;

	if(argc > 2 || (argc == 2 && (ms = millis(argv[1])) < 0)){
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
