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
	if(up != nil)
		profclock(up, up->ureg->pc);
	i8259eoi(IRQclock);
	wakeup(&ticks);
}

/* Milliseconds to ticks, rounding up so that a sleep is never short. */
uint
ms2tick(uint ms)
{
	return ms/1000*hz + (ms%1000*hz + 999)/1000;
}
