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
		;	/* no pause: under -d QEMU ends the turn at each, 0.14 s of a boot's host time */
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
	Profseed	= 3141592653U,	/* the thinning of profil's NMIs' (kern/prof.c, profnmi), less the id */
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
 * The NMI clock: the 8254's channel 0 as a rate generator at HZ, its
 * input of the I/O APIC an NMI broadcast to every processor, so that
 * each one samples where it is, cli or not: kprof's sample
 * (dev/devkprof.c, kprofnmi), on while kprof counts, and profil's and
 * pcsample's (kern/prof.c, profnmi), on while an image profiles.  Off,
 * the input is masked and channel 0 set to count once, with no count
 * given: it stops.  kpctl (nmiclock) and the images' profilers
 * (nmiclockprof) change it under nmilk, so the I/O APIC's register
 * pair is never shared.
 *
 * With nmirandom, as BSD's statclock, the samples come at random, so
 * that no process can run in step with them and hide from them or fill
 * them, as one that wakes at each of the scheduler's ticks can with a
 * clock of the same rate and a fixed phase: one in each tick of the
 * first processor's clock, at a phase drawn at random (nmiclocknext).
 * So the rate is HZ and the count per second exact, but for an NMI
 * taken more than a whole tick late.  The generator is seeded
 * the same at each start of kprof, so that run-qemu.sh -d's runs stay
 * the same.
 * It is kprof's default only under -d (tscinstr): elsewhere the first
 * processor's NMI, which rearms the clock, may come late by much (a
 * host thread not running), and meanwhile no processor samples; a rate
 * generator never waits.  While an image profiles the intervals are
 * random whatever kpctl's interval says: profil's samples are what the
 * clock is there for, and at a fixed rate they would alias with a loop
 * that keeps time with it; a late NMI only loses samples, which
 * profil's counts, a share of the time each, can lose.  So kpctl's
 * interval fixed holds only while no image profiles.
 */
int	nmirandom = 1;	/* kprof's intervals are random; else all 1/HZ */
int	nmiprofon;	/* an image profiles: the NMI looks for one (kern/prof.c, profnmi) */
static Lock	nmilk = { .name = "nmi clock" };	/* the clock's changes, one at a time */
static int	nmikprof;	/* kprof counts */
static int	nmiprof;	/* images that profile */
static int	nmirnd;	/* the clock, if on, counts once to random phases */
static uint	nmicount;	/* the 8254's counts in 1/HZ s */
static uint	nmiscale;	/* the 8254's counts in one of the local APIC timer's, times 2^32 */
static uint	nmiseed;	/* the generator's state; the first processor's NMI alone steps it */
static uint	nmiphase;	/* the 8254's counts into its 1/HZ that the NMI due was drawn at; 0 if not drawn (nmiclocknext) */
int	nmion;		/* the clock is on: kprof or an image samples (kern/lock.c reads it) */
static uvlong	nmitime, nmit0;	/* time-stamp counts kprof counted till nmit0, when it last started */

enum {
	Nmiseed	= 2463534242U,	/* the generator's first state */
};

/*
 * The first processor's NMI rearms the clock no more: once one that
 * may have seen Kprearm is done (it sets kpbusy before it looks), the
 * 8254 is ours to write.  Written while that NMI wrote its count, a
 * byte at a time, the bytes went in out of step, and the clock ran at
 * counts of tens of milliseconds until the next change.
 */
static void
nmiquiet(void)
{
	__sync_fetch_and_and(&mach[0].kpmore, ~Kprearm);
	while(mach[0].kpbusy)
		pause();
}

/*
 * The clock as kprof and the profilers want it, under nmilk.  An
 * on clock is programmed again only if its kind changed: else a profil
 * turned on or off, or kprof's start (seed, which reseeds it as kprof's
 * runs want), would move the NMI due.  Kprearm goes on after the
 * count is written, a whole 1/HZ before the NMI that must rearm: set
 * before, an NMI of the old count on this processor could write its
 * own bytes between ours.
 */
static void
nmiset(int seed)
{
	int on = nmikprof || nmiprof > 0, rnd = nmirandom || nmiprof > 0;

	nmicount = (1193182 + hz/2) / hz;
	nmiscale = ((uvlong)nmicount << 32) / lapicticks;
	nmiprofon = nmiprof > 0;
	if(!on){
		if(nmion){
			ioapicw(Ioredtbl + 2*clockgsi, Masked | Nmi);
			nmiquiet();
			outb(0x43, 0x30);	/* channel 0, count once */
		}
		nmion = 0;
		return;
	}
	if(nmion && rnd == nmirnd){
		/*
		 * On for the profilers, it goes on as it is when kprof
		 * starts too (start, startclr, and the stop and start
		 * round interval and stacks): a count written again drops
		 * the NMI due in this 1/HZ, and with it a sample of each
		 * process that profiles (atk_clock steady, a start every 6
		 * ticks or so: 15% of them).  Only the generator is
		 * reseeded, for the draws after that NMI; under -d an
		 * NMI's step that overwrites this store does so in every
		 * run.
		 */
		if(seed)
			nmiseed = Nmiseed;
		return;
	}
	nmiquiet();
	if(seed || !nmion)
		nmiseed = Nmiseed;
	nmiphase = 0;	/* the first NMI is a whole 1/HZ from now, whatever the grid says */
	outb(0x43, rnd ? 0x30 : 0x34);	/* channel 0, low then high byte, count once or rate generator */
	outb(0x40, nmicount);
	outb(0x40, nmicount >> 8);
	if(rnd)
		__sync_fetch_and_or(&mach[0].kpmore, Kprearm);
	if(!nmion){
		ioapicw(Ioredtbl + 2*clockgsi + 1, Broadcast);
		ioapicw(Ioredtbl + 2*clockgsi, Nmi);
	}
	nmion = 1;
	nmirnd = rnd;
}

/* kprof's clock on or off (dev/devkprof.c, kpctl's commands): it runs on while an image profiles. */
void
nmiclock(int on)
{
	ilock(&nmilk);
	if(on != nmikprof){
		nmitime += on ? 0 : rdtsc() - nmit0;
		nmit0 = rdtsc();
		nmikprof = on;
	}
	nmiset(on);
	unlock(&nmilk);
}

/* One more image that profiles (d 1), or one less (-1): kern/prof.c, profclock. */
void
nmiclockprof(int d)
{
	ilock(&nmilk);
	nmiprof += d;
	nmiset(0);
	unlock(&nmilk);
}

/* The time-stamp counts kprof has counted, since the last call with clr set. */
uvlong
nmiclocktime(int clr)
{
	uvlong now = rdtsc();

	if(clr){
		nmitime = 0;
		nmit0 = now;
	}
	return nmitime + (nmikprof ? now - nmit0 : 0);
}

/*
 * The next sample, from the first processor's NMI: channel 0 counts
 * once (mode 0: its output rises at the end of the count, and a count
 * written drops it and starts the next) to a phase drawn at random in
 * the 1/HZ after the next point of this processor's grid, which its
 * local APIC timer's count, less the phase of its next tick
 * says how far off it is (its ticks are on the grid: kern/clock.c).
 * So the NMI's own delay needs no measuring: two multiplications, where
 * latching channel 0 to take it off a random interval would take 3
 * port reads and a division.  But an NMI taken past the end of the
 * 1/HZ it was drawn in, which the grid alone cannot tell, is seen by
 * its place in the 1/HZ it is in: before the phase drawn (nmiphase).
 * Then the next is drawn in the rest of this one.
 * The generator is linear congruential, whose high bits, all that the
 * draw (nmiseed * nmicount >> 32) keeps, are as good as xorshift's
 * for the 5 instructions of its 11.
 */
NOPROF void
nmiclocknext(void)
{
	uint left, c, at;

	left = (uvlong)lapic[Ltccr] * nmiscale >> 32;
	nmiseed = nmiseed * Lcgmul + Lcgadd;
	at = nmicount - left;
	if(at + 1 < nmiphase){
		/*
		 * Late (delivered so, or its path, with a stack's walk,
		 * longer than the rest of its 1/HZ): this 1/HZ has had no
		 * NMI, and drawn after the next point of the grid, it would
		 * have none.  Under -d -i 3 at hz=10000 with kprof's stacks
		 * on, 2.8% of profil's samples went so (atk_clock beside).
		 */
		c = 1 + ((uvlong)nmiseed * (left > 1 ? left - 1 : 1) >> 32);
		nmiphase = at + c;
	}else{
		c = left + 1 + ((uvlong)nmiseed * nmicount >> 32);
		nmiphase = c - left;
	}
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

/* This processor's clock at 1/HZ from now: started again after lapicstop. */
NOPROF void
lapicgrid(void)
{
	lapicw(Lticr, lapicticks);
}
