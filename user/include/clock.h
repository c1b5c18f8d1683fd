/* The system clock, as /dev/time gives it. */
#ifndef CLOCK_H
#define CLOCK_H

unsigned int	clockticks(unsigned int *hz);

#endif
