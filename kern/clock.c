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
		if((im = p->img) != nil && (im->prof.buf | im->pcs.buf) != 0)
			profclock(p, im, p->ureg->pc);
	}
	lapiceoi();
	/*
	 * Under QEMU's -icount the processors run in turn, and a busy one
	 * gives up its turn only at a pause: without this one an idle
	 * processor's clock, and so the work waiting for it, would wait.
	 */
	pause();
	if(m->id != 0)
		return;
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
			sleep(&ticks, &tickslk);
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
