/*
 * The clock: each processor's local APIC timer interrupts it HZ times
 * a second (kern/apic.c), but while an idle one other than the first
 * halts (idle).  Each tick counts in the processor's ticks and the
 * running process's, and drains kprof's stacks while it counts (kprof,
 * profil and pcsample sample on a clock of their own, an NMI:
 * kern/apic.c, nmiclock); the first
 * processor's also count as the system's time, ticks, and wake the
 * processes sleeping on it.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

uint	ticks;
int	hz = 100;
int	virtualclock;	/* the time-stamp counter counts instructions (tscinstr) */

/*
 * The earliest tick at which a sleeper's time is up, so that the clock
 * takes the lock only when there is someone to wake.
 */
static Lock	tickslk = { .name = "ticks" };	/* nextwake, sleeping on &ticks, and each Proc's wakeat */
static uint	nextwake;

/* The clock's sweep for sleepers whose time has come (wakedue). */
typedef struct Due Due;
struct Due {
	uint	now;	/* ticks */
	uint	next;	/* the earliest wakeat not yet come, or now + Never */
};

/*
 * One of procsweep's, under procs: ready p if it sleeps in tsleep and
 * its time has come, else keep its time if it is the earliest left.
 * Only those whose time has come: were every sleeper readied at the
 * first one's time, n sleepers due at times apart would each run at
 * every other's, only to sleep again (sleepers, in tools/test/hogwake.sh).
 */
static void
wakedue(Proc *p, void *a)
{
	Due *d = a;

	if(p == nil || p->state != Sleeping || p->wchan != &ticks)
		return;
	if((int)(d->now - p->wakeat) >= 0)
		ready(p);
	else if((int)(p->wakeat - d->next) < 0)
		d->next = p->wakeat;
}

/*
 * The clock interrupt, on the fixed grid of 1/HZ.  It takes no sample
 * for profil or pcsample: the tick that wakes a sleeper or preempts
 * starts the next process's turn, so that a turn of r < 1 ticks that
 * starts at one was sampled with probability r*r/2, not r (a process
 * that sleeps a tick between rounds lost a third of a tick a round:
 * doc/benchmarks.md).  kprof's NMI clock, at random phases that
 * schedule nothing, samples for them (kern/prof.c, profnmi).
 *
 * Nothing here is for run-qemu.sh -d.  QEMU's -icount runs the
 * processors in turns on one host thread; QEMU 7.2 gave each the time
 * to the next timer deadline, so that a busy first processor kept the
 * others from running unless it paused at its tick, and a clock that
 * paused, #S's loops that paused every 256 turns and local APIC timers
 * spread over a tick were needed.  QEMU 10 gives each processor 1/n of
 * that time, and the clock's pause and the spread timers measure worse,
 * not better: two of #S's spins on two processors at hz=10000 end 2.3%
 * apart with them and together without (#S's own pauses stay, for
 * kprof's NMI clock: dev/devspin.c).
 *
 * On three or more QEMU 10 is uneven, and no clock of the kernel's can
 * even it: QEMU runs each deadline's timers on that thread, and doing
 * so kicks every processor out of its turn (cpu_exit on all, from
 * qemu_timer_notify_cb).  Its loop then gives each processor after the
 * one it stopped at a turn of its own, each of 1/n of what is left to
 * the next deadline, before a whole round shares the rest.  The first
 * processor mostly runs the 1 to n-1 instructions the division leaves
 * over, and the second, finding none left, runs the timers: so the
 * third gets the most, the fourth the next, and the first two the
 * least, whatever the guest runs (doc/benchmarks.md, QEMU 10's round
 * robin).
 */
NOPROF void
clock(void)
{
	Mach *m = thismach();
	Proc *p = m->proc;

	m->ticks++;
	if(p != nil)
		p->ticks++;
	lapiceoi();
	if(kprofon)
		kprofdrain();
	if(m->id != 0)
		return;
	ticks++;
	if((int)(ticks - nextwake) >= 0){
		Due d = { ticks, ticks + Never };

		ilock(&tickslk);
		procsweep(wakedue, &d);
		nextwake = d.next;
		unlock(&tickslk);
	}
}

/*
 * Halt until an interrupt: the idle time that the profiles show.  A
 * processor other than the first stops its clock meanwhile, as Linux's
 * do: it has nothing to count (the first keeps the time and wakes the
 * sleepers, and ready's interrupt wakes an idle processor when there is
 * work), and each tick would only wake it to halt again.  Under -d each
 * cost QEMU some 35 microseconds of the host's time: 8 idle processors
 * at hz=10000 took 3.6 s of its CPU a virtual second, and take 0.7 so
 * (doc/benchmarks.md).  Not while kprof counts, whose tick drains the
 * NMI's records on every processor.
 */
void
idle(void)
{
	int stop = thismach()->id != 0 && !kprofon;

	if(stop)
		lapicstop();
	asm volatile("sti; hlt; cli");
	if(stop)
		lapicgrid();
}

/*
 * Sleep for ms milliseconds, or until killed.  At nextwake the clock
 * readies the sleepers on &ticks whose wakeat has come, and sets
 * nextwake to the earliest of the others'.  The comparisons of ticks
 * reach less than 2^31 ahead, and a long sleep at a high clock rate is
 * longer than that (2^31 ms at 10000 Hz is 2^34 ticks): it is slept in
 * pieces.
 */
void
tsleep(uint ms)
{
	uvlong left = ms2tick(ms);
	uint until, n;

	ilock(&tickslk);
	while(left > 0 && !up->killed){
		n = left < Never ? left : Never;
		left -= n;
		until = ticks + n;
		while((int)(ticks - until) < 0 && !up->killed){
			up->wakeat = until;
			if((int)(until - nextwake) < 0)
				nextwake = until;
			sleepintr(&ticks, &tickslk);
		}
	}
	unlock(&tickslk);
}

/*
 * Milliseconds to ticks, rounding up so that a sleep is never short;
 * in 64 bits, as 2^32 ms at 10000 Hz is more than 2^32 ticks.
 */
uvlong
ms2tick(uint ms)
{
	return (uvlong)ms/1000*hz + (ms%1000*hz + 999)/1000;
}

/* Time-stamp counts over a loop of n iterations of two instructions, interrupts off. */
static uvlong
loopcounts(uint n)
{
	uvlong t = rdtsc();

	asm volatile("1: dec %0; jnz 1b" : "+r"(n));
	return rdtsc() - t;
}

/*
 * Whether the time-stamp counter counts instructions, one each: so it
 * does under run-qemu.sh -d (QEMU's -icount shift=0, where a virtual
 * nanosecond is an instruction), and then kprof's ticks are a count
 * of instructions.  Asked of the machine, not of the command line: a
 * loop of 2 instructions an iteration takes exactly 2n counts more for
 * n more iterations, and does so twice over.  Any other counter (the
 * host's clock without -icount, or hardware's cycles) is not in step
 * with instructions to the count.  At boot, before the other
 * processors start, so that no other runs meanwhile and its counts
 * are this one's.
 */
void
tscinstr(void)
{
	uvlong a, b, c;

	a = loopcounts(1000);
	b = loopcounts(2000);
	c = loopcounts(3000);
	virtualclock = b - a == 2000 && c - b == 2000;
	nmirandom = virtualclock;	/* see nmiclock */
}
