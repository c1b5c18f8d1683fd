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
 * more (doc/benchmarks.md, kprof's NMI).
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
 * on 4 processors 1 NMI in 10, adding half again to the sum.  Those
 * turns are hundreds to thousands of instructions, and the NMI's own
 * cost varies by less than 2 to 1 on a processor (290 in a user loop
 * with a deep stack to 400 in #S's spina, doc/benchmarks.md), so a d
 * over twice the processor's running mean spans a turn, and counts at
 * the mean.  The mean follows the d it takes by 1/8; one it refuses
 * still raises it by 1/32, so that a processor whose NMIs do become
 * twice as dear (a deeper stack) is followed after a few.  Without -d
 * the counter is host time, and such a d is the host thread
 * descheduled: not the NMI's cost either.
 */
static inline uint
nmicost(Kpcount *k, uint d)
{
	uint mean = k->nmimean;

	if(d > 2*mean){
		k->nmimean = mean + mean/32;
		return mean;
	}
	k->nmimean = mean + ((int)(d - mean) >> 3);
	return d;
}

/*
 * One more tick for the processor, kernel or not (a constant, so that
 * each kind has a path of its own), at pc in frame f of x (nil for x's
 * own, which is then found only where the stack needs it); false if it
 * is out of scope.  A stack that finds no room in the buffer is cut:
 * shown in its bin (kpstack's reads find it in cells 0 and 1).
 */
static inline __attribute__((always_inline)) int
count(Nmiframe *x, uint *f, uint pc, int kernel)
{
	Kpcount *k;

	if(!kpproctick(me->proc, kernel))
		return 0;
	k = me->kp;
	satinc(&k->cell[KPTOTAL]);
	if(kernel){
		satinc(&k->cell[KPKERNEL]);
		satinc(&k->cell[KPBIN + ((pc - (uint)text) >> KPBINSHIFT)]);
	}
	if(me->kpmore){
		if(me->kpmore & Kpstacks){
			/* the stack, if k's buffer has room for the longest, before head: a drain reads it whole */
			if(k->head - k->tail <= KPnring - KPrec)
				k->head += (kernel ? kpwalk : kpuwalk)(f != nil ? f : &x->pc, x->bp, k->ring + k->head % KPnring);
			else
				satinc(&k->cut);
		}
		if(me->kpmore & Kprearm)
			nmiclocknext();
	}
	/* k->cycles += nmicost(...), where the compiler would take 3 instructions for the add */
	asm("addl %1, %0; adcl $0, 4+%0" : "+m"(k->cycles) : "r"(nmicost(k, (uint)rdtsc() - x->t0)) : "cc");
	return 1;
}

/*
 * A tick at pc in kernel text, at its NMI frame x.  At the first
 * instruction of a vector, the tick is the interrupted code's, whose
 * frame the vector's interrupt pushed.  Out of kprofnmi, which keeps
 * the registers this needs for the user's ticks.
 */
static NOPROF REGPARM __attribute__((noinline)) void
kerneltick(Nmiframe *x, uint pc)
{
	uint *f = &x->pc;

	if(pc - (uint)vec0 < (uint)kvecsize){
		f = delivered(f);	/* kern/trap.c */
		pc = f[0];
		if(pc - (uint)text >= (uint)ktextsize){
			if(!count(x, f, pc, 0) && (me->kpmore & Kprearm))
				nmiclocknext();
			return;
		}
	}
	if(!count(x, f, pc, 1) && (me->kpmore & Kprearm))
		nmiclocknext();
}

/*
 * The NMI's sample (kern/trapasm.asm, nmientry).  kpbusy, set with a
 * locked instruction before kprofon is looked at, tells kpctl when a
 * sample that saw it on is done.  A tick out of scope counts nowhere,
 * but the first processor still rearms the clock; the rearming is part
 * of the cost counted, and the instructions outside t0 and the rdtsc
 * here are added when read (dev/devkprof.c, kpself).
 */
NOPROF REGPARM void
kprofnmi(Nmiframe *x)
{
	uint pc = x->pc;

	asm volatile("lock; orl $1, %%gs:%c0" : : "i"(__builtin_offsetof(Mach, kpbusy)) : "memory", "cc");
	if(kprofon){
		if(pc - (uint)text < (uint)ktextsize)
			kerneltick(x, pc);
		else if(!count(x, nil, pc, 0) && (me->kpmore & Kprearm))	/* a user pc is below KZERO */
			nmiclocknext();
	}
	me->kpbusy = 0;
}
