/*
 * A spin lock for the threads of a process (rfork(2)): lock spins,
 * with pause, until the lock is free.  A Lock starts out zero, unlocked.
 */
#ifndef LOCK_H
#define LOCK_H

typedef struct Lock {
	volatile int	held;	/* 1 while a thread holds it */
} Lock;

void	lock(Lock *l);
void	unlock(Lock *l);
int	canlock(Lock *l);	/* take it if it is free: 1 if taken */

#endif
