/*
 * The APICs: each processor's local APIC, which gives it a clock (its
 * timer, HZ times a second), takes the end of every interrupt, and
 * sends the start-up messages to the others; and the I/O APIC, which
 * sends the devices' interrupts to the first processor, and while kprof
 * counts, the 8254's ticks to every processor as an NMI (nmiclock).
 * The 8259s are left masked (kern/i8259.c).  Both are memory-mapped at their
 * physical addresses, which mmuinit maps uncached.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {				/* local APIC registers, as indexes of uints */
	Lid	= 0x020/4,	/* its id, in bits 24-31 */
	Ltpr	= 0x080/4,	/* task priority */
	Leoi	= 0x0B0/4,
	Lsvr	= 0x0F0/4,	/* spurious vector; bit 8 enables the APIC */
	Lesr	= 0x280/4,	/* error status */
	Licrlo	= 0x300/4,	/* interprocessor interrupt command */
	Licrhi	= 0x310/4,
	Ltimer	= 0x320/4,	/* timer's local vector */
	Lpcint	= 0x340/4,	/* performance counters' */
	Lint0	= 0x350/4,
	Lint1	= 0x360/4,
	Lerror	= 0x370/4,
	Lticr	= 0x380/4,	/* timer initial count */
	Ltccr	= 0x390/4,	/* timer current count */
	Ltdcr	= 0x3E0/4,	/* timer divide */

	Masked	= 1<<16,	/* in a local vector or redirection entry */
	Nmi	= 4<<8,		/* delivery mode: an NMI, edge-triggered */
	Broadcast	= 0xFF<<24,	/* redirection entry's destination: every processor */
	Periodic	= 1<<17,
	Enable	= 1<<8,		/* in Lsvr */
	Delivs	= 1<<12,	/* in Licrlo: still being sent */
	Div16	= 0x3,		/* Ltdcr: the bus clock over 16 */

	Iosel	= 0x00/4,	/* I/O APIC: register select */
	Iowin	= 0x10/4,	/* and its data */
	Ioredtbl	= 0x10,	/* first redirection entry: two registers each */
	Iover	= 0x01,		/* version; bits 16-23: entries - 1 */
};

volatile uint	*lapic;		/* mapped at its physical address: volatile, as every device register */
volatile uint	*ioapic;
int	clockgsi = 2;	/* the I/O APIC input of the 8254's IRQ 0: mpinit reads the MADT's override */
static uint	lapicticks;	/* timer counts per clock tick */

static void
lapicw(int r, uint v)
{
	lapic[r] = v;
	(void)lapic[Lid];	/* wait for the write to finish */
}

/*
 * One measure of the timer's counts in 1/1000 s, against the 8254's
 * channel 2, which counts a known time whatever the processor's speed:
 * gated on by port 0x61, its output shows there when the count runs
 * out.  The timer starts before the 8254's count and is read after its
 * end is seen, so a measure is never short, only long by any time the
 * processor was stopped in between.  Not inlined: tools/test/clock.sh
 * makes a measure long from gdb, as such a stop would.
 */
static __attribute__((noinline)) uint
calibrate1(void)
{
	uint n = 1193182/1000;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(0x43, 0xB0);	/* channel 2, low then high byte, count once */
	lapicw(Lticr, 0xFFFFFFFF);
	outb(0x42, n);
	outb(0x42, n >> 8);	/* the count starts */
	while((inb(0x61) & 0x20) == 0)
		pause();
	return 0xFFFFFFFF - lapic[Ltccr];
}

/*
 * The timer's counts in 1/1000 s.  The 8254 counts 1193 times in that,
 * so the clock's rate is right to about 0.1%; a longer wait is all
 * boot time (under -d, 1/100 s was 10 M of the boot's 22.6 M
 * instructions).  Without -d the counts are the host's time, and a
 * processor that the host (or QEMU's own lock) stops inside the
 * millisecond counts the stop as well: on a loaded machine one boot in
 * three had a clock 1.5 to 9 times too slow, and a stop of a fifth of
 * a second there made it 160 times too slow, so that `usertests;
 * runtest 1` took minutes and the tests' time limit called the guest
 * hung.  So the timer is measured again until a measure agrees with the
 * least before it to 1/1000 (the second, under -d, where the counts
 * are instructions), Ncal times at most, and the least is kept.
 */
enum { Ncal = 10 };

static uint
calibrate(void)
{
	uint best, c, i;
	int near;

	best = calibrate1();
	for(i = 1; i < Ncal; i++){
		c = calibrate1();
		near = c < best ? best - c <= c/1000 : c - best <= best/1000;
		if(c < best)
			best = c;
		if(near)
			break;
	}
	return best;
}

enum {
	Clkseed	= 2891336453U,	/* the clock's phases' generator's first state, less the processor's id */
	Profseed	= 3141592653U,	/* the profiled ticks' thinning's (kern/clock.c), less the id */
};

/*
 * This processor's local APIC: on, with its timer the clock, every
 * other local interrupt masked.  The first processor measures the
 * timer; the others' run at the same rate.  Its clock's generators are
 * seeded here, once, so that the interrupt need not ask.
 */
void
lapicinit(void)
{
	Mach *m = thismach();

	m->clkseed = Clkseed - m->id;
	m->profseed = Profseed - m->id;
	lapicw(Lsvr, Enable | Tspurious);
	lapicw(Ltdcr, Div16);
	lapicw(Ltimer, Masked | Tclock);
	if(lapicticks == 0)
		lapicticks = ((uvlong)calibrate() * 1000 + hz/2) / hz;
	lapicw(Lint0, Masked);
	lapicw(Lint1, Masked);
	lapicw(Lpcint, Masked);
	lapicw(Lerror, Masked);
	lapicw(Lesr, 0);
	lapicw(Lesr, 0);
	lapicw(Leoi, 0);
	lapicw(Ltpr, 0);
	lapicw(Ltimer, Periodic | Tclock);
	lapicw(Lticr, lapicticks);
}

int
lapicid(void)
{
	return lapic[Lid] >> 24;
}

NOPROF void
lapiceoi(void)
{
	lapic[Leoi] = 0;
}

/* Send the interrupt command lo to the processor with APIC id apicid. */
void
lapicipi(int apicid, uint lo)
{
	lapicw(Licrhi, apicid << 24);
	lapicw(Licrlo, lo);
	while(lapic[Licrlo] & Delivs)
		pause();
}

static uint
ioapicr(int r)
{
	ioapic[Iosel] = r;
	return ioapic[Iowin];
}

static void
ioapicw(int r, uint v)
{
	ioapic[Iosel] = r;
	ioapic[Iowin] = v;
}

/* Every input masked, each set to its vector IRQ0+n: edge-triggered, active high, as ISA's. */
void
ioapicinit(void)
{
	int i, n;

	n = (ioapicr(Iover) >> 16) & 0xFF;
	for(i = 0; i <= n; i++){
		ioapicw(Ioredtbl + 2*i, Masked | (IRQ0 + i));
		ioapicw(Ioredtbl + 2*i + 1, 0);
	}
}

/* Send irq to the first processor. */
void
ioapicenable(int irq)
{
	ioapicw(Ioredtbl + 2*irq, IRQ0 + irq);
	ioapicw(Ioredtbl + 2*irq + 1, mach[0].apicid << 24);
}

/*
 * kprof's sampling clock, on while it counts: the 8254's channel 0 as
 * a rate generator at HZ, its input of the I/O APIC an NMI broadcast to
 * every processor, so that each one samples where it is, cli or not
 * (dev/devkprof.c, kprofnmi).  Off, the input is masked and channel 0
 * set to count once, with no count given: it stops.  Called by kpctl's
 * commands only, one at a time, so the I/O APIC's register pair is
 * never shared.
 *
 * With nmirandom, as BSD's statclock, the samples come at random, so
 * that no process can run in step with them and hide from them or fill
 * them, as one that wakes at each of the scheduler's ticks can with a
 * clock of the same rate and a fixed phase: one in each tick of the
 * first processor's clock, at a phase drawn at random (nmiclocknext).
 * So the rate is HZ and the count per second exact, but for an NMI
 * taken after the end of the tick it fell in.  The generator is seeded
 * the same at each start, so that run-qemu.sh -d's runs stay the same.
 * It is the default only under -d (tscinstr): elsewhere the first
 * processor's NMI, which rearms the clock, may come late by much (a
 * host thread not running), and meanwhile no processor samples; a rate
 * generator never waits.
 */
int	nmirandom = 1;	/* kprof's intervals are random; else all 1/HZ */
static uint	nmicount;	/* the 8254's counts in 1/HZ s */
static uint	nmiscale;	/* the 8254's counts in one of the local APIC timer's, times 2^32 */
static uint	nmiseed;	/* the generator's state; the first processor's NMI alone steps it */
static int	nmion;		/* the clock is on */
static uvlong	nmitime, nmit0;	/* time-stamp counts it was on till nmit0, when it last went on */

enum {
	Nmiseed	= 2463534242U,	/* the generator's first state */
};

void
nmiclock(int on)
{
	nmicount = (1193182 + hz/2) / hz;
	nmiscale = ((uvlong)nmicount << 32) / lapicticks;
	if(on != nmion){
		nmitime += on ? 0 : rdtsc() - nmit0;
		nmit0 = rdtsc();
		nmion = on;
	}
	mach[0].kpmore = (mach[0].kpmore & ~Kprearm) | (on && nmirandom ? Kprearm : 0);
	if(on){
		nmiseed = Nmiseed;
		outb(0x43, nmirandom ? 0x30 : 0x34);	/* channel 0, low then high byte, count once or rate generator */
		outb(0x40, nmicount);
		outb(0x40, nmicount >> 8);
		ioapicw(Ioredtbl + 2*clockgsi + 1, Broadcast);
		ioapicw(Ioredtbl + 2*clockgsi, Nmi);
	}else{
		ioapicw(Ioredtbl + 2*clockgsi, Masked | Nmi);
		outb(0x43, 0x30);	/* channel 0, count once */
	}
}

/* The time-stamp counts the clock has been on, since the last call with clr set. */
uvlong
nmiclocktime(int clr)
{
	uvlong now = rdtsc();

	if(clr){
		nmitime = 0;
		nmit0 = now;
	}
	return nmitime + (nmion ? now - nmit0 : 0);
}

/*
 * The next sample, from the first processor's NMI: channel 0 counts
 * once (mode 0: its output rises at the end of the count, and a count
 * written drops it and starts the next) to a phase drawn at random in
 * the 1/HZ after the next point of this processor's grid, which its
 * local APIC timer's count, less the phase of its next tick
 * (lapicnext), says how far off it is.  So the NMI's own delay needs
 * no measuring: two multiplications, where latching channel 0 to take
 * it off a random interval would take 3 port reads and a division.
 * The grid, not the tick: while a process profiles, the ticks come at
 * random phases, some less than 1/HZ apart, and a draw in the tick
 * after the next then passed the one after that, so that kprof lost
 * 15% of its samples beside profdemo -p (kprof.sh, rate-beside-profil).
 * The generator is linear congruential, whose high bits, all that the
 * draw (nmiseed * nmicount >> 32) keeps, are as good as xorshift's
 * for the 5 instructions of its 11.
 */
NOPROF void
nmiclocknext(void)
{
	int g;
	uint left, c;

	for(g = lapic[Ltccr] - mach[0].clkphase; g < 0; g += lapicticks)
		;
	left = (uvlong)(uint)g * nmiscale >> 32;
	nmiseed = nmiseed * Lcgmul + Lcgadd;
	c = left + 1 + ((uvlong)nmiseed * nmicount >> 32);
	outb(0x40, c);
	outb(0x40, c >> 8);
}

/*
 * This processor's clock stopped (a count of 0 stops the timer), for
 * an idle one (kern/clock.c, idle).
 */
void
lapicstop(void)
{
	lapicw(Lticr, 0);
}

/*
 * This processor's clock at 1/HZ from now, off any phase that a
 * profiled tick left (lapicnext): started again after lapicstop, or
 * back on the grid after a profiled tick.
 */
NOPROF void
lapicgrid(void)
{
	Mach *m = thismach();

	lapicw(Lticr, lapicticks);
	m->clkcount = 0;
	m->clkphase = 0;
}

/*
 * The clock's next tick, from its interrupt.  With prof (the clock's
 * ticks stay at random phases for Clkprof ticks after one that found
 * a process that profiles itself, profil or pcsample, kern/prof.c,
 * whatever they find: kern/clock.c), at a
 * phase drawn at random after its point on the grid of 1/HZ, as
 * kprof's ticks are (nmiclocknext), so that a program whose loop keeps
 * time with the clock cannot alias with its samples.  On the fixed
 * grid, profdemo's pair of loops, 4.1 to a tick at hz=10000, had its
 * split 3.8 standard errors off, by where the run started
 * (doc/benchmarks.md, profil aliases).  The grid stays, so the rate
 * stays HZ: the count written is from now, less the counts since this
 * tick (the periodic timer counts on from the count it reloads), to
 * the next grid point and its phase.  Without prof, the tick goes
 * back to the grid, and at the next to the count of 1/HZ, which the
 * time since the interrupt puts that far off the grid: a few counts,
 * once.  While nothing profiles the clock is as it was, fixed, and the
 * clock calls this only while m's clkcount says otherwise.
 */
NOPROF void
lapicnext(int prof)
{
	Mach *m = thismach();
	int e, ph, c, near = lapicticks/16;

	if(!prof && m->clkphase == 0){
		lapicgrid();
		return;
	}
	ph = 0;
	if(prof){
		m->clkseed = m->clkseed * Lcgmul + Lcgadd;
		ph = (uvlong)m->clkseed * lapicticks >> 32;
	}
	e = (m->clkcount ? m->clkcount : lapicticks) - lapic[Ltccr];
	c = lapicticks + ph - m->clkphase - e;
	/*
	 * A point already passed (a host that stopped us, or interrupts
	 * held off), or so near that the timer, reloading so short a
	 * count, would fire faster than its interrupt is taken (under
	 * QEMU, its timer loop then never catches up, and the guest
	 * stops): the tick comes later, and its phase says how much, so
	 * that the next finds the grid again.  Moved to the point after
	 * instead, as it was, it lost the grid point, one tick of the
	 * time at every draw of a phase 15/16 of a tick before the last:
	 * beside a profiling process the clock ran 0.25% slow
	 * (atk_prof rate).  A tick more than a period behind then gives
	 * its point up, so that a clock held off for long never runs
	 * fast to catch up.
	 */
	if(c <= near){
		ph += near + 1 - c;
		c = near + 1;
		while(ph >= 2*(int)lapicticks)
			ph -= lapicticks;
	}
	lapicw(Lticr, c);
	m->clkcount = c;
	m->clkphase = ph;
}
