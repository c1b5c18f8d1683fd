/*
 * Spinlocks, as Plan 9's: lock spins until the lock is free, ilock
 * turns interrupts off on its processor first (pushcli, as xv6's) and
 * keeps them off until unlock, for locks that interrupt handlers take
 * too, so that a handler never finds its lock held by the code it
 * interrupted.  pushcli nests: interrupts come back on only at the
 * last popcli, and only if they were on at the first (splhi and splx,
 * which do not nest, are for code that keeps the state itself).  The other locks
 * leave interrupts on, so that the clock ticks while they are held
 * (kprof's NMI sees what is done either way).  A spin executes pause,
 * as the hardware asks, but under run-qemu.sh -d while the profilers
 * sample (lockspin, below).
 *
 * A QLock is for a process to hold across what may sleep: who wants it
 * meanwhile sleeps, not spins.  Its own spinlock is held only to look
 * at it.
 *
 * The lock order: a processor holding a lock takes only locks below it
 * in this list, so no two processors ever wait for each other.  The
 * ilocks come last: an interrupt may come while any other is held.
 *
 *	offset	kern/sysfile.c: a channel's offset (a QLock, held across the
 *		call's device read or write, which takes the locks below)
 *	rootfile	dev/devroot.c: a file's data (a QLock each, held across
 *		a whole read or write of it, which takes the locks below)
 *	kprof	dev/devkprof.c: kpctl's commands and kpstack's reads (a
 *		QLock, held across a read's scheduling points; kprof's NMI
 *		takes none)
 *	mounts	kern/chan.c: the mount table, and each union
 *	root	dev/devroot.c: the root file system's tree
 *	pipe	dev/devpipe.c: the list of pipes, and each pipe
 *	chan	kern/chan.c: channels' and mounts' reference counts
 *	pages	kern/alloc.c: the free pages
 *	heap	kern/alloc.c: the heap
 *	qlock	kern/lock.c: each QLock's own state
 *	image	kern/image.c: an image's threads and count (its memory is
 *		the QLock mem, taken first: held across sbrk's and fork's
 *		page mapping, pages, and procs at their scheduling points)
 *
 *	uartrx	dev/devuart.c: reading eia0's input into the console (ilock)
 *	consin	dev/devcons.c: console input (ilock)
 *	uart	dev/devuart.c: eia1's input, and writes to either port (ilock)
 *	ticks	kern/clock.c: the sleepers on &ticks and the times they wake (ilock)
 *	procs	kern/proc.c: the process table, the run queue, sleep and wakeup (ilock)
 *	consout	dev/devcons.c: console output, print (ilock)
 *
 * The test kernel's (conf/kerneltest) take one more, which no other
 * lock is ever taken under, nor it under another:
 *
 *	locktest	dev/locktest.c: taken twice, or let go unheld, to panic
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"
#include "kprof.h"

void
pushcli(void)
{
	int e = readeflags();
	Mach *m;

	cli();
	m = thismach();
	if(m->ncli++ == 0)
		m->intena = e & FL_IF;
}

void
popcli(void)
{
	Mach *m = thismach();

	if(readeflags() & FL_IF)
		panic("popcli: interruptible");
	if(--m->ncli < 0)
		panic("popcli: unbalanced");
	if(m->ncli == 0 && m->intena)
		sti();
}

/*
 * Interrupts off; returns whether they were on, for splx.  Unlike
 * pushcli these do not nest: the caller keeps the state.
 */
int
splhi(void)
{
	int s = readeflags() & FL_IF;

	cli();
	return s;
}

void
splx(int s)
{
	if(s)
		sti();
}

/* Does this processor hold l? */
int
holding(Lock *l)
{
	return l->locked && l->m == thismach();
}

/* l is taken, on processor m, by the caller at pc. */
static inline void
taken(Lock *l, Mach *m, uint pc)
{
	l->m = m;
	l->pc = pc;
	l->intr = 0;
	m->nlock++;
}

/*
 * lock's slow path, for a caller at pc on processor m: spin till l is
 * let go, and take it.  Apart, and reached by a tail call, so that the
 * fast path keeps no register across a call.  Under run-qemu.sh -d
 * (virtualclock) QEMU runs the processors in turns, and a pause ends
 * one.  A spinner that paused would give its turn straight back, and
 * so cut short the wait of a holder that QEMU had stopped inside its
 * critical section, where the profilers' thinned samples find it and
 * weigh its place by that wait (kern/fns.h, thintick): with two
 * processes busy on two processors, code under locks came out 1 to 4
 * points under its exact count, and code under none over
 * (doc/benchmarks.md, Two busy processes on two processors).  So
 * while the NMI clock samples (nmion), a spinner there spins without
 * a pause, its turns as long as any other's, and marks its spin out of
 * kprof's scope (KPSCOPE) for the exact count, as its samples are left
 * out (spinning), and so is an interrupt's spin inside its own.  That
 * costs the holder a whole turn of the spinner's, so when nothing
 * samples it pauses.
 */
static __attribute__((noinline)) void
lockspin(Lock *l, Mach *m, uint pc)
{
	do{
		if(m->spinning++ == 0)
			KPSCOPE(0, 0);
		while(((volatile Lock*)l)->locked)
			if(!virtualclock || !nmion)
				pause();
		if(--m->spinning == 0)
			kpscopemark(m->proc);
	}while(xchg(&l->locked, 1) != 0);
	taken(l, m, pc);
}

void
lock(Lock *l)
{
	Mach *m = thismach();

	if(holding(l))
		panic("lock %s: already held (at pc %#x)", l->name, l->pc);
	if(xchg(&l->locked, 1) != 0)
		lockspin(l, m, (uint)__builtin_return_address(0));
	else
		taken(l, m, (uint)__builtin_return_address(0));
}

/* lock, with interrupts off until unlock. */
void
ilock(Lock *l)
{
	pushcli();
	lock(l);
	l->pc = (uint)__builtin_return_address(0);
	l->intr = 1;
}

void
unlock(Lock *l)
{
	int intr;

	if(!holding(l))
		panic("unlock %s: not held", l->name);
	intr = l->intr;
	l->m = nil;
	l->pc = 0;
	thismach()->nlock--;
	xchg(&l->locked, 0);
	if(intr)
		popcli();
}

/*
 * Take q, sleeping while another process holds it.  With intr, a
 * process killed meanwhile gives up: -1, with EINTR.
 */
static int
qacquire(QLock *q, int intr)
{
	lock(&q->lk);
	while(q->held){
		if(intr && up->killed){
			unlock(&q->lk);
			return seterr(EINTR, nil);
		}
		q->nwait++;
		if(intr)
			sleepintr(q, &q->lk);
		else
			sleep(q, &q->lk);
		q->nwait--;
	}
	q->held = 1;
	unlock(&q->lk);
	return 0;
}

/* Take q, killed or not: for what must be done even then, as exit's leaving its image. */
void
qlock(QLock *q)
{
	qacquire(q, 0);
}

/* Take q, unless the process is killed while it waits: -1, with EINTR. */
int
qlockintr(QLock *q)
{
	return qacquire(q, 1);
}

/* Let go of q; wake its waiters, if any (wakeup looks at every process). */
void
qunlock(QLock *q)
{
	int n;

	lock(&q->lk);
	if(!q->held)
		panic("qunlock %s: not held", q->lk.name);
	q->held = 0;
	n = q->nwait;
	unlock(&q->lk);
	if(n > 0)
		wakeup(q);
}
