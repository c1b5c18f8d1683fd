/* The system clock, as /dev/time gives it, and the process's ticks, as /dev/proctime does. */
#ifndef CLOCK_H
#define CLOCK_H

unsigned int	clockticks(unsigned int *hz);
int	proctime(unsigned long *ticks, unsigned long *profiled);

#endif
