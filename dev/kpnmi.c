/*
 * kprof's sample (kprof(3)): its NMI's C, which kern/trapasm.asm's
 * nmientry calls on every processor at each of kprof's ticks
 * (kern/apic.c, nmiclock), interrupts off or on.  It counts the tick
 * in the processor's own Kpcount (dev/devkprof.c), so no increment is
 * lost and it takes no lock: the tick, and if the pc it interrupted is
 * in kernel text, the 8-byte bin the pc falls in; and with stacks on it
 * records the call stack there, kernel and user (kern/kpwalk.c), raw,
 * which process context adds to kpstack's table later
 * (dev/kpstack.c), as BSD's profiling clock records and leaves the
 * rest.  This file and kern/kpwalk.c are compiled without frame
 * pointers (mkfile): the NMI never samples itself, so its own frames
 * are on no stack that a walk follows, and the registers are worth
 * more (doc/benchmarks.md, kprof's NMI records, process context adds).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"
#include "kprof.h"
#include "kpcount.h"

/*
 * This processor's Mach, which the NMI's code reaches through gs, the
 * Mach's own segment, rather than hold it in a register.
 */
#define me	((__seg_gs Mach*)0)

/*
 * What an NMI cost, from d, the time-stamp counts it took.  Under -d
 * they are all the processors' instructions, which QEMU runs in turns,
 * and a turn that ends inside an NMI puts the others' turns in its d:
 * on 4 processors 1 NMI in 10, adding half again to the sum, on 8 more
 * than half.  Those turns are a hundred instructions to thousands,
 * while an NMI's own cost stays within 1.5 times its processor's mean
 * for its kind of tick (at most 1.31 times in runtest, 1.23 in #S's
 * tree of stacks, on 1 processor: doc/benchmarks.md), so a d over
 * nmicap, 1.5 times the running mean, spans a turn, and counts at the
 * mean.  A user tick, a kernel one and an idle one keep a mean each
 * (kind, Kpuser, Kpkernel or Kpidle): a kernel tick in a process walks
 * two stacks, a user one one, some 3 times the cost, and an idle one a
 * short stack; with one mean a program in user mode beside one in
 * system calls had its kernel ticks refused as spanning turns (the row
 * 14% low on 1 processor), and a processor back from idle its busy
 * ones (13% low, runtest on 4).  The mean moves half way to
 * the d of every 8th NMI it takes, by the processor's count of them,
 * which costs an NMI 4 instructions where moving it by 1/8 at each
 * took 9.  One it refuses still raises it by 1/128, so that a
 * processor whose NMIs do become dearer (a deeper stack) is followed
 * after some tens, and yet on 8 processors the refused do not carry
 * the mean off (with twice the mean and 1/32 the row came out 1.2
 * times the exact count there, with 1.5 and 1/128 1.04).  It starts
 * high (Kpnmicost), as one too high comes down fast.  Without -d the
 * counter is host time, and such a d is the host thread descheduled:
 * not the NMI's cost either.
 */
static inline uint
nmicost(Kpcount *k, uint d, int kind)
{
	uint mean;

	if(d > k->nmicap[kind]){
		mean = k->nmimean[kind];
		k->nmimean[kind] = mean + mean/128;
		k->nmicap[kind] = k->nmimean[kind] + k->nmimean[kind]/2;
		return mean;
	}
	if((kind == Kpthin ? k->thin : k->cell[KPTOTAL]) % 8 == 0){
		mean = (k->nmimean[kind] + d) / 2;
		k->nmimean[kind] = mean;
		k->nmicap[kind] = mean + mean/2;
	}
	return d;
}

/* The NMI done, at a tick of that kind: its cost into k's, and kpbusy cleared. */
static inline __attribute__((always_inline)) void
done(Kpcount *k, Nmiframe *x, int kind)
{
	/* k->cycles += nmicost(...), where the compiler would take 3 instructions for the add */
	asm("addl %1, %0; adcl $0, 4+%0" : "+m"(k->cycles) : "r"(nmicost(k, (uint)rdtsc() - x->t0, kind)) : "cc");
	me->kpbusy = 0;
}

/*
 * What a counted tick, kernel or not, at frame f of x, does beyond the
 * counts (kpmore): with stacks on, its stack, if k's buffer has room
 * for the longest, before head, so that a drain reads it whole, else
 * cut (shown in its bin: kpstack's reads find it in cells 0 and 1);
 * and on the first processor, the clock's rearming.
 */
static inline __attribute__((always_inline)) void
more(Kpcount *k, Nmiframe *x, uint *f, int kernel)
{
	if(me->kpmore & Kpstacks){
		if(k->head - k->tail <= kproom)
			k->head += (kernel ? kpwalk : kpuwalk)(f, x->bp, k->ring + (k->head & kpmask));
		else
			satinc(&k->cut);
	}
	if(me->kpmore & Kprearm)
		nmiclocknext();
}

/*
 * One more tick, at pc in frame f of x, kernel or not, unless it is
 * thinned (whose cost, if in scope, still counts, as kprof's own) or
 * out of scope; then done, with the mean cost of its kind.  extra says
 * whether there may be more to do (1), or is (2: kpmore is set).
 * kernel and extra are constants, so that each kind has a path of its
 * own.  A tick out of scope counts only as skipped,
 * for kprof's own row (dev/devkprof.c, kpself), and the first
 * processor still rearms the clock.
 */
static inline __attribute__((always_inline)) void
count(Nmiframe *x, uint *f, uint pc, int kernel, int extra, int kind)
{
	Kpcount *k = me->kp;

	/*
	 * Thinned (kern/fns.h, thintick): on runtest, 2 CPUs, the profile
	 * was over sampling's 95th percentile from the exact count in every
	 * run, and is within it (doc/benchmarks.md, Ticks thinned by the
	 * processors that run).  The generator is seeded at startclr
	 * (stackreset).
	 */
	if(virtualclock && kind != Kpidle && thintick(me->spinning, &k->thinseed)){
		satinc(&k->thin);
		if(extra && (me->kpmore & Kprearm))
			nmiclocknext();
		if(kpinscope(me->proc))
			done(k, x, Kpthin);
		else
			me->kpbusy = 0;
		return;
	}
	if(!kpproctick(me->proc, kernel)){
		satinc(&k->skip);
		if(extra && (me->kpmore & Kprearm))
			nmiclocknext();
		me->kpbusy = 0;
		return;
	}
	satinc(&k->cell[KPTOTAL]);
	if(kernel){
		satinc(&k->cell[KPKERNEL]);
		satinc(&k->cell[KPBIN + ((pc - (uint)text) >> KPBINSHIFT)]);
	}
	if(extra == 2 || (extra && me->kpmore))
		more(k, x, f, kernel);
	done(k, x, kind);
}

/* A user tick with more to do: out of kprofnmi, whose registers it would take. */
static NOPROF REGPARM __attribute__((noinline)) void
usertick(Nmiframe *x)
{
	count(x, &x->pc, x->pc, 0, 2, Kpuser);
}

/*
 * A tick that found this processor idle, in scope or not, and whether
 * every processor was: under -d the busy ones share each tick's
 * instructions, and these say how many there were (dev/devkprof.c,
 * kpself).  Only an idle tick pays for the loop.
 */
static NOPROF __attribute__((noinline)) void
idletick(void)
{
	Kpcount *k = me->kp;
	int i;

	satinc(&k->idle);
	for(i = 0; i < nmach; i++)
		if(!mach[i].idling)
			return;
	satinc(&k->allidle);
}

/*
 * A tick in the kernel's addresses, at pc in NMI frame x, of kind
 * Kpkernel or Kpidle.  At the first instruction of a vector, the tick
 * is the interrupted code's, whose frame the vector's interrupt
 * pushed.  One outside kernel text, as a user mode that jumped there
 * finds itself, is a user tick.
 */
static inline __attribute__((always_inline)) void
ktick(Nmiframe *x, uint pc, int kind)
{
	uint *f = &x->pc;

	if(pc - (uint)vec0 < (uint)kvecsize){
		f = delivered(f);	/* kern/trap.c */
		pc = f[0];
	}
	if(pc - (uint)text < (uint)ktextsize)
		count(x, f, pc, 1, 1, kind);
	else
		count(x, f, pc, 0, 1, Kpuser);
}

/* A tick in the kernel's addresses: each kind a path of its own, with its kind a constant. */
static NOPROF REGPARM __attribute__((noinline)) void
kerneltick(Nmiframe *x, uint pc)
{
	if(me->idling){
		idletick();
		ktick(x, pc, Kpidle);
	}else
		ktick(x, pc, Kpkernel);
}

/*
 * A tick while kprof does not count, of the clock that runs for the
 * profilers alone (kern/apic.c, nmiclockprof): the first processor
 * still rearms it.  Apart, and a tail call, so that kprofnmi saves no
 * register on its other paths for it.
 */
static NOPROF __attribute__((noinline)) void
offtick(void)
{
	if(me->kpmore & Kprearm)
		nmiclocknext();
	me->kpbusy = 0;
}

/*
 * The NMI's sample (kern/trapasm.asm, nmientry), after profil's and
 * pcsample's (kern/prof.c, profnmi), which nmientry calls while an
 * image profiles.  The clock may run for the profilers alone: then the
 * first processor still rearms it.  kpbusy, set with a
 * locked instruction before kprofon is looked at, tells kpctl when a
 * sample that saw it on is done.  The rearming is part of the cost
 * counted, and the instructions outside t0 and the rdtsc in done are
 * added when read (dev/devkprof.c, kpself).  A user tick with nothing
 * more to do, the most common, has the shortest path, which keeps no
 * register over a call: a user pc is below KZERO, which is below
 * kernel text.
 */
NOPROF REGPARM void
kprofnmi(Nmiframe *x)
{
	uint pc = x->pc;

	asm volatile("lock; orl $1, %%gs:%c0" : : "i"(__builtin_offsetof(Mach, kpbusy)) : "memory", "cc");
	if(!kprofon)
		offtick();
	else if(pc >= KZERO)
		kerneltick(x, pc);
	else if(me->kpmore)
		usertick(x);
	else
		count(x, &x->pc, pc, 0, 0, Kpuser);
}
