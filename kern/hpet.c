/*
 * The HPET's first comparator as a clock that interrupts nothing: under
 * run-qemu.sh -d it cuts QEMU's turns short while the profilers sample.
 *
 * QEMU's -icount runs the processors one at a time, each for a turn
 * that ends at the next deadline of any of its timers, if not before.
 * The profilers' samples of m busy processors count 1 in m (kern/fns.h,
 * thintick), which weighs code by its instructions only if the
 * processors take turns often, over stretches shorter than the phases
 * of what is profiled.  At hz=100 a turn may be 5 ms: a child can run
 * a whole phase of its work in one turn while its parent's processor
 * stands still, and the parent run the next phase alone in its own, yet
 * both are sampled as if they ran side by side (hotspots -b on 2
 * processors: the code that runs beside a busy child was 9 points over
 * its exact count).  A comparator that comes due every 100
 * microseconds or so, with its interrupt off, ends every turn within
 * 150, as the ticks do at hz=10000, where the profiles are within
 * sampling's noise: it costs the guest a draw at each NMI
 * (turnclocknext), and QEMU a timer event at each deadline.
 *
 * Only where it matters: the time-stamp counter counting instructions
 * (virtualclock, QEMU's -icount), more than one processor, and ticks
 * farther apart than that.  It runs while the NMI clock does
 * (kern/apic.c, nmiset, under its lock).  QEMU's pc machine puts the
 * HPET at 0xFED00000, in the 4 MB kept mapped from APICBASE; a machine
 * without one there reads a counter period out of the HPET's range.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	Hpetbase	= 0xFED00000,
	Turn		= 100,		/* microseconds between deadlines */

	/* registers, as indices of 32-bit words */
	Period		= 0x04/4,	/* the counter's period in femtoseconds */
	Config		= 0x10/4,
	Counter		= 0xF0/4,	/* and its high word */
	T0config	= 0x100/4,
	T0cmp		= 0x108/4,	/* and its high word */

	Enable		= 1<<0,		/* Config: the counter counts */
	Periodic	= 1<<3,		/* T0config: due every period (its interrupt, bit 2, stays off) */
	Canperiodic	= 1<<4,
	Setperiod	= 1<<6,		/* the next write of T0cmp sets the period too */
};

int	turnon;		/* the comparator runs; under kern/apic.c's nmilk */
static uint	turncount;	/* the counter's counts in Turn */
static uint	turnseed;	/* turnclocknext's generator, seeded at each start so that -d's runs repeat */

enum {
	Turnseed	= 2891336453U,
};

/* Start the comparator (on) or stop it, where it matters. */
void
turnclock(int on)
{
	volatile uint *h = (volatile uint*)Hpetbase;
	uint fs;

	if(!virtualclock || nmach < 2 || hz >= 1000000/Turn || on == turnon)
		return;
	fs = h[Period];
	if(fs == 0 || fs > 100000000 || !(h[T0config] & Canperiodic))
		return;
	h[Config] = 0;
	if(on){
		h[Counter] = h[Counter+1] = 0;
		turncount = (uvlong)Turn * 1000000000 / fs;
		turnseed = Turnseed;
		h[T0config] = Periodic | Setperiod;
		h[T0cmp] = turncount;
		h[T0cmp+1] = 0;
		h[Config] = Enable;
	}
	turnon = on;
}

/*
 * A period drawn at random, from 1/2 to 3/2 of Turn, at each of the
 * first processor's NMIs (kern/apic.c, nmiclocknext).  A processor's
 * sample is where its last turn ended, and turns that end on a fixed
 * grid end every so many of its instructions: a loop whose length
 * divides that count would be sampled at one pc of it every time.
 * Called only while turnon, which the NMI tests itself: a call each
 * tick to learn that the comparator is off cost 10 instructions.
 */
NOPROF void
turnclocknext(void)
{
	turnseed = turnseed * Lcgmul + Lcgadd;
	((volatile uint*)Hpetbase)[T0cmp] = turncount/2 + ((uvlong)turnseed * turncount >> 32);
}
