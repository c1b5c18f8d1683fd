/*
 * Per-process profiling: profil(2), a histogram of the user pc in the
 * process's own array of 16-bit counters, and pcsample(2), a record of
 * raw user pcs.  The settings are the memory image's (kern/image.c),
 * so a process's threads all count into the same buffers.
 *
 * As BSD's addupc_intr and addupc_task: the sample, an NMI (profnmi),
 * only notes that the running thread owes its profilers a tick and the
 * user pc it is for (Proc.profowed, Proc.profpc), and the thread counts
 * it itself on its way back to user mode (profapply, from trap and
 * forkret), in process context, at the counter's or slot's user
 * address, through its page tables as its own write would go (uaddsat16
 * and uput32, kern/fns.h).  The pc is the one the NMI interrupted in
 * user mode, or where the process entered the kernel if it came there.
 * The NMI clock (kern/apic.c, nmiclock) falls at random phases of each
 * 1/HZ, apart from the clock's ticks, which wake and preempt: sampled
 * at the tick, a turn that a tick starts had no sample in the rest of
 * its 1/HZ (kern/clock.c).  It runs while some image profiles
 * (profclock).
 * A counter or slot that is not mapped writable for the user turns
 * that profiler off for all the threads: the tick is dropped, the
 * process goes on, and the kernel's fault, if the write made one,
 * goes no further than the write (ufixup, kern/mmu.c).
 *
 * A tick counts under the settings in force when it is applied: ticks
 * owed when the settings change go by the new ones, or are dropped if
 * the profiler went off.  A settings change turns the profiler off,
 * waits until no processor is applying ticks of the image with the
 * settings from before (profdrain), and only then puts in the new ones
 * and turns it on.  So an apply reads old settings or new, never a
 * mix, and once the call returns none counts with the old.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

/*
 * Wait until no processor is applying ticks of im that may have read
 * the settings from before the caller changed them.  profapply marks
 * its processor (Mach.profimg) before it reads them, the xchg of
 * profowed between; the mfence here puts the caller's change before
 * its look at the marks.  Of the two, one sees the other.
 */
void
profdrain(Image *im)
{
	int i;

	asm volatile("mfence" ::: "memory");
	for(i = 0; i < nmach; i++)
		while(mach[i].profimg == im)
			pause();
}

/* Is a buffer of [buf, buf+n) in the top 4 MB, a copy of its own in each thread? */
static int
onstack(uintptr buf, uint n)
{
	return n > 0 && buf + n > USHARED;
}

/*
 * Does a profiler of im count into a thread's own stack?  Then im may
 * not gain threads (pfork), whose ticks would have only their own
 * copies to go to.  im's mem is held.
 */
int
profonstack(Image *im)
{
	return (im->prof.span != 0 && onstack(im->prof.buf, im->prof.size))
		|| (im->pcs.buf != 0 && onstack(im->pcs.buf, 4*im->pcs.max));
}

/*
 * This processor's Mach.proc and Mach.profimg, through gs, whose base
 * is the Mach (kern/mmu.c, gdtinit): one instruction each.
 */
static inline Proc*
machproc(void)
{
	Proc *p;

	asm volatile("movl %%gs:%c1, %0" : "=r"(p) : "i"(__builtin_offsetof(Mach, proc)));
	return p;
}

static inline void
setprofimg(Image *im)
{
	asm volatile("movl %0, %%gs:%c1" : : "ri"(im), "i"(__builtin_offsetof(Mach, profimg)) : "memory");
}

/*
 * The samples of n ticks (one or more) at pc into pcsample's buffer
 * buf, as profapply read it after the switch: a slot each, taken with a
 * lock xadd on ps->n and given back if it is past max.  A slot that
 * cannot be written turns sampling off and brings max down to it, the
 * least such slot if threads fail at once, so that the count the next
 * call returns, min(n, max), is of slots written (or being written by
 * a processor that profdrain waits for).  Apart, so that profil alone
 * pays nothing for it.
 */
static __attribute__((noinline)) void
pcsapply(Pcsample *ps, uintptr buf, uint n, uint pc)
{
	uint i, max;

	do{
		if((i = xadd(&ps->n, 1)) >= ps->max){
			xadd(&ps->n, -1);	/* full: n stays within a processor or two of max */
			break;
		}
		if(uput32(buf + 4*i, pc) < 0){
			ps->buf = 0;
			while((max = ps->max) > i && !__sync_bool_compare_and_swap(&ps->max, max, i))
				;
			break;
		}
	}while(--n > 0);
}

/*
 * The NMI clock's sample (kern/apic.c), from nmientry
 * (kern/trapasm.asm), before kprof's (dev/kpnmi.c), on every processor
 * while an image profiles, kprof counting or not:
 * if the process it finds here is in an image that profiles, a tick
 * owed, and its user pc noted: the one interrupted, or in the kernel
 * the one the process entered it at, which its trap frame at the top
 * of its kernel stack (Proc.ureg) holds from the first instruction of
 * the entry on.  An NMI may come anywhere, also inside profapply or a
 * lock's hold, so it takes no lock, reads only this processor's
 * process and its image (which the process leaves, procsetimg, before
 * any frees it) and stores only into the Proc: this processor's NMI is
 * the only writer of profowed but for profapply's exchange and
 * procsetimg, both on this processor.  The first Nprofpc-1 ticks owed
 * have a pc each, the rest the last slot's, the latest: a thread that
 * stays in user mode goes back through the kernel at each of its
 * clock's ticks, one 1/HZ, in which the NMI falls once on the first
 * processor and at most twice on another.  Measured under -d:
 * hotspots -b on two processors at hz=10000 came back with two ticks
 * owed in 930 of 12,887 applies and never more; hotspots -z at
 * hz=1000 never with two.  Thinned under -d
 * (kern/fns.h, thintick) as kprof's own samples are: hotspots -b on
 * two processors had the loop beside a busy one 16 points over its
 * exact share unthinned.  The seed is the processor's, its NMI's
 * alone.
 */
NOPROF REGPARM void
profnmi(Nmiframe *x)
{
	Proc *p = machproc();
	Mach *m;
	Image *im;
	uint pc = x->pc, n;

	if(p == nil || (im = p->img) == nil || (im->prof.span | im->pcs.buf) == 0)
		return;
	m = thismach();
	if(virtualclock && thintick(m->spinning, &m->profseed))
		return;
	if(pc >= KZERO)
		pc = p->ureg->pc;
	n = p->profowed;
	p->profpc[n < Nprofpc ? n : Nprofpc-1] = pc;
	p->profowed = n + 1;
}

/*
 * Count the ticks that the current process owes its image's
 * profilers, each at the user pc its NMI noted, on its way back to
 * user mode.  Threads on other processors count into the same buffers
 * at once: a counter's add is a compare-and-swap (uaddsat16), and
 * samples take their slots with a lock xadd.  Called with interrupts
 * off (trap says why), and only when the process owes a tick (trap,
 * forkret).  The noted pcs are read before the count is taken to 0 by
 * a compare-and-swap, which fails if an NMI came between and owed
 * another (its pc then perhaps in a slot already read): then read
 * again.  The counter's address is below buf + size, which sysprofil
 * checked: the index is below size/2, as d < span.
 */
void
profapply(void)
{
	Proc *p = machproc();
	Image *im = p->img;
	uint n, k, i, c, d, span, pc[Nprofpc];
	uintptr buf;

	setprofimg(im);
	do{
		n = p->profowed;
		k = n < Nprofpc ? n : Nprofpc;
		for(i = 0; i < k; i++)
			pc[i] = p->profpc[i];
	}while(!__sync_bool_compare_and_swap(&p->profowed, n, 0));	/* and a fence: the settings are read after the mark */
	span = im->prof.span;
	if(span != 0 || im->pcs.buf != 0){
		p->profticks += n;
		asm volatile("" ::: "memory");	/* the switches before the settings they turn on */
		for(i = 0; i < k; i++){
			c = i == Nprofpc-1 ? n - i : 1;
			/* One compare: span is 0 while off, and a pc below offset wraps past it (sysprofil). */
			d = pc[i] - im->prof.offset;
			if(__builtin_expect(d < span, 1)
			&& uaddsat16(im->prof.buf + 2*(uint)(((uvlong)d * im->prof.mult) >> 32), c) < 0)
				span = im->prof.span = 0;
			if((buf = im->pcs.buf) != 0)
				pcsapply(&im->pcs, buf, c, pc[i]);
		}
	}
	setprofimg(nil);
}

/*
 * The NMI clock runs while an image profiles (kern/apic.c,
 * nmiclockprof): im, whose profilers were just set, counted in or out
 * of the images that do.  Under im's mem, or with im new.  A profiler
 * that a fault turned off (profapply) leaves im counted, and the clock
 * on, until the next call or the image goes (imleave): it costs only
 * NMIs that find nothing to do.
 */
void
profclock(Image *im)
{
	int on = im->prof.span != 0 || im->pcs.buf != 0;

	if(on != im->profclk){
		im->profclk = on;
		nmiclockprof(on ? 1 : -1);
	}
}

/*
 * profil(buf, bufsiz, offset, scale), for every thread of the image.
 * A buffer in the stack's 4 MB, which each thread has a copy of, is
 * refused while the image has threads, as their ticks would count
 * into their own copies, not the caller's (and pfork refuses a thread
 * while it is there).
 */
long
sysprofil(uint *arg)
{
	Image *im = up->img;
	Profil *pr = &im->prof;
	uintptr buf = arg[0];
	uint size = arg[1], scale = arg[3];
	uvlong span;	/* the least pc - offset whose counter would be past the end, or past 2^32 */
	int on = buf != 0 && scale >= 2;

	if(scale > 0x10000)
		return seterr(EINVAL, "scale over 0x10000");
	if(on){
		if(buf & 1)
			return seterr(EINVAL, "odd profil buffer");
		if(uvalid(buf, size, 1) < 0)
			return -1;
	}
	qlock(&im->mem);
	if(on && im->ref > 1 && onstack(buf, size)){
		qunlock(&im->mem);
		return seterr(EINVAL, "profil buffer on a thread's own stack");
	}
	pr->span = 0;
	profdrain(im);
	if(on){
		span = (((uvlong)size/2 << 17) + scale - 1) / scale;
		if(span > 0x100000000ULL - arg[2])
			span = 0x100000000ULL - arg[2];
		pr->buf = buf;
		pr->size = size;
		pr->offset = arg[2];
		pr->mult = scale << 15;
		asm volatile("" ::: "memory");	/* the settings before span, which turns them on */
		pr->span = span > 0xFFFFFFFF ? 0xFFFFFFFF : span;
	}
	profclock(im);
	qunlock(&im->mem);
	return 0;
}

/* pcsample(samples, nsamples), for every thread of the image: as profil. */
long
syspcsample(uint *arg)
{
	Image *im = up->img;
	Pcsample *ps = &im->pcs;
	uintptr buf = arg[0];
	int n = arg[1];
	long prev;

	if(n < 0)
		return seterr(EINVAL, "negative nsamples");
	if(n > 0 && (buf & 3))
		return seterr(EINVAL, "misaligned samples");
	if(n > 0 && ((uint)n > (KZERO >> 2) || uvalid(buf, 4*n, 1) < 0))
		return seterr(EFAULT, nil);
	qlock(&im->mem);
	if(n > 0 && im->ref > 1 && onstack(buf, 4*n)){
		qunlock(&im->mem);
		return seterr(EINVAL, "samples on a thread's own stack");
	}
	ps->buf = 0;
	profdrain(im);
	/* Slots are taken by xadd, which may go past max on the last ones. */
	prev = ps->called ? (long)(ps->n < ps->max ? ps->n : ps->max) : 0;
	ps->called = 1;
	ps->n = 0;
	ps->max = n;
	asm volatile("" ::: "memory");
	if(n > 0)
		ps->buf = buf;
	profclock(im);
	qunlock(&im->mem);
	return prev;
}
