/*
 * Spin locks for threads: xchg takes the lock in one atomic step, and
 * the wait reads the lock, not xchg's bus lock, executing pause, which
 * under QEMU's -icount lets the processor holding the lock run.
 */
#include "lock.h"

static int
tas(volatile int *p)
{
	int v = 1;

	asm volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
	return v;
}

int
canlock(Lock *l)
{
	return tas(&l->held) == 0;
}

void
lock(Lock *l)
{
	while(tas(&l->held) != 0)
		while(l->held)
			asm volatile("pause" ::: "memory");
}

void
unlock(Lock *l)
{
	asm volatile("" ::: "memory");	/* what the lock guards is written before it goes */
	l->held = 0;
}
