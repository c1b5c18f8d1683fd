/*
 * Per-process profiling: profil(2), a histogram of the user pc in the
 * process's own array of 16-bit counters, and pcsample(2), a record of
 * raw user pcs.  The settings are the memory image's (kern/image.c),
 * so a process's threads all count into the same buffers.  The clock
 * calls profclock (kern/fns.h, inline) on every tick that finds a
 * profiled process running, in user mode or in the kernel on its
 * behalf.
 *
 * The counters live in user memory, so every update first looks the
 * address up in the thread's page tables (uaddr).  An address that is
 * not mapped writable turns that profiler off, for all the threads:
 * the tick is dropped, the process goes on, and the kernel never
 * faults.  Each thread keeps the page each profiler found last
 * (Upage), as ticks mostly land in the same one; whatever changes the
 * mappings calls profforget.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

/*
 * The tick's slow path: va's page is not the one c holds.  Look it up
 * in the page tables, and keep it in c if it is user memory, writable.
 */
void*
upagefind(pte_t *pd, Upage *c, uintptr va)
{
	char *k;

	if((k = uaddr(pd, ROUNDDOWN(va, BY2PG), 1)) == nil)
		return nil;
	c->va = ROUNDDOWN(va, BY2PG);
	c->k = (uintptr)k - c->va;
	return k + (va & (BY2PG - 1));
}

/*
 * p's mappings changed (pages unmapped or hidden, or a new address
 * space): the pages its profilers found are no longer to be trusted.
 * Interrupts must be off from the change until this is done, or a
 * tick could find a page in between that is then unmapped.  For the
 * other threads of a shared image, see kern/image.c.
 */
void
profforget(Proc *p)
{
	p->ppg.va = 0;
	p->spg.va = 0;
}

/*
 * profil(buf, bufsiz, offset, scale), for every thread of the image.
 * The counters are off while the settings change, and no tick on
 * another processor is still counting with the old ones when the new
 * go on.
 */
long
sysprofil(uint *arg)
{
	Image *im = up->img;
	Profil *pr = &im->prof;
	uintptr buf = arg[0];
	uint size = arg[1], scale = arg[3];
	uvlong span;	/* the least pc - offset whose counter would be past the end, or past 2^32 */

	if(scale > 0x10000)
		return seterr(EINVAL, "scale over 0x10000");
	if(buf != 0 && scale >= 2){
		if(buf & 1)
			return seterr(EINVAL, "odd profil buffer");
		if(uvalid(buf, size, 1) < 0)
			return -1;
	}
	qlock(&im->mem);
	pr->span = 0;
	if(im->ref > 1)
		shootdown(im);
	if(buf != 0 && scale >= 2){
		span = (((uvlong)size/2 << 17) + scale - 1) / scale;
		if(span > 0x100000000ULL - arg[2])
			span = 0x100000000ULL - arg[2];
		pr->buf = buf;
		pr->size = size;
		pr->offset = arg[2];
		pr->scale = scale;
		asm volatile("" ::: "memory");	/* the settings before span, which turns them on */
		pr->span = span > 0xFFFFFFFF ? 0xFFFFFFFF : span;
	}
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
	ps->buf = 0;
	if(im->ref > 1)
		shootdown(im);
	/* Slots are taken by xadd, which may go past max on the last ones. */
	prev = ps->called ? (long)(ps->n < ps->max ? ps->n : ps->max) : 0;
	ps->called = 1;
	ps->n = 0;
	ps->max = n;
	asm volatile("" ::: "memory");
	if(n > 0)
		ps->buf = buf;
	qunlock(&im->mem);
	return prev;
}

