/* rand and srand: a 64-bit linear congruential generator (Knuth's MMIX). */
#include "stdlib.h"

static unsigned long long state = 1;

void
srand(unsigned int seed)
{
	state = seed;
}

/* The top 31 bits of the state: its low bits repeat too soon. */
int
rand(void)
{
	state = state*6364136223846793005ULL + 1442695040888963407ULL;
	return state >> 33;
}
