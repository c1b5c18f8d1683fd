/*
 * The clock: the 8254 timer's channel 0 interrupts HZ times a second.
 * Each tick counts, feeds the two profilers the interrupted pc, and
 * wakes the processes sleeping on time.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Timerfreq	= 1193182,	/* the 8254's input clock, Hz */
	T0cntr		= 0x40,		/* channel 0 counter */
	Tmode		= 0x43,		/* mode register */
};

uint	ticks;
int	hz = 100;

/*
 * The earliest tick at which a sleeper's time is up, so that the clock
 * scans the process table only when there is someone to wake.
 */
static uint	nextwake;

void
clockinit(void)
{
	uint count = (Timerfreq + hz/2) / hz;

	outb(Tmode, 0x34);	/* channel 0, low then high byte, rate generator */
	outb(T0cntr, count);
	outb(T0cntr, count >> 8);
	i8259enable(IRQclock);
}

/*
 * The clock interrupt.  kprof wants the pc the tick interrupted;
 * profil and pcsample want the current process's user pc, which for a
 * tick in the kernel is where it last entered.
 */
void
clock(Ureg *u)
{
	ticks++;
	kprofclock(u->pc);
	if(up != nil && (up->prof.buf | up->pcs.buf) != 0)
		profclock(up, up->ureg->pc);
	i8259eoi(IRQclock);
	if((int)(ticks - nextwake) >= 0){
		nextwake = ticks + Never;
		wakeup(&ticks);
	}
}

/*
 * Have the clock wake the sleepers on &ticks at tick t.  It wakes them
 * all; those whose time is not up call this again before they go back
 * to sleep.  Interrupts must be off.
 */
void
wakeat(uint t)
{
	if((int)(t - nextwake) < 0)
		nextwake = t;
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
