/*
 * The clock: each processor's local APIC timer interrupts it HZ times
 * a second (kern/apic.c).  Each tick feeds the per-process profilers
 * (kprof has a clock of its own, an NMI: kern/apic.c, nmiclock) and
 * counts in the processor's ticks; the first
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

/*
 * The earliest tick at which a sleeper's time is up, so that the clock
 * takes the lock only when there is someone to wake.
 */
static Lock	tickslk = { .name = "ticks" };	/* nextwake, and sleeping on &ticks */
static uint	nextwake;

/*
 * The clock interrupt.  profil and pcsample want the current process's
 * user pc, which for a tick in the kernel is where it last entered.
 */
void
clock(void)
{
	Mach *m = thismach();
	Proc *p = m->proc;
	Image *im;

	m->ticks++;
	if(m->phase < 2)
		lapicphase(m);
	if(p != nil){
		p->ticks++;
		if((im = p->img) != nil && (im->prof.span | im->pcs.buf) != 0)
			profclock(p, im, p->ureg->pc);
	}
	lapiceoi();
	if(m->id != 0)
		return;
	/*
	 * For run-qemu.sh -d only (QEMU 7.2, -icount): QEMU then runs
	 * the processors on one host thread, in turns, always in the
	 * same order from the first: each runs until the next deadline
	 * of any timer (a clock tick of any processor), or until it
	 * halts or executes pause; a turn that reaches the deadline ends
	 * the round, and the next begins with the first processor again
	 * (later QEMUs share the time to a deadline among them instead).
	 * A processor busy in a loop that never pauses therefore keeps
	 * all those after it from running, even to take their own clock
	 * interrupts: with no pause here, two spins on 2 processors both
	 * ran on the first, the second idle and taking 1 tick of 101.  So
	 * the first processor pauses at each of its ticks, and the rest
	 * of its turn goes to the others.  They do not pause at theirs:
	 * one that did would give its turn back right after each tick and
	 * starve (with a pause on every processor's tick, two spins made
	 * 12605 and 2199 loops in a second; with it on the first only,
	 * 7599 and 7206).  With 3 or more processors QEMU's turns are
	 * still uneven between the others.  An idle first processor
	 * does not pause: it goes back to idle's hlt, which ends its turn
	 * as well, and a pause would park it here, where kprof's NMI
	 * falling due meanwhile counts its idle time as the clock's.  A
	 * processor waiting for its turn is sampled where its last one
	 * ended, so kernel loops that run long pause themselves, at a pc
	 * of their own (dev/devspin.c).  On hardware, and without -d, the
	 * pause is one instruction and no more.
	 */
	if(p != nil)
		pause();
	ticks++;
	if((int)(ticks - nextwake) >= 0){
		ilock(&tickslk);
		nextwake = ticks + Never;
		wakeup(&ticks);
		unlock(&tickslk);
	}
}

/*
 * Sleep for ms milliseconds, or until killed.  The clock wakes all
 * the sleepers on &ticks at nextwake; those whose time is not up set
 * it again.  The comparisons of ticks reach less than 2^31 ahead, and
 * a long sleep at a high clock rate is longer than that (2^31 ms at
 * 10000 Hz is 2^34 ticks): it is slept in pieces.
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
