/*
 * Per-process profiling: profil(2), a histogram of the user pc in the
 * process's own array of 16-bit counters, and pcsample(2), a record of
 * raw user pcs.  The clock calls profclock (kern/fns.h, inline) on
 * every tick that finds a profiled process running, in user mode or in
 * the kernel on its behalf.
 *
 * The counters live in user memory, so every update first looks the
 * address up in the process's page tables (uaddr).  An address that is
 * not mapped writable turns that profiler off: the tick is dropped, the
 * process goes on, and the kernel never faults.  Each profiler keeps
 * the page it found last (Upage), as ticks mostly land in the same
 * one; whatever changes the process's mappings calls profforget.
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
	c->k = k;
	return k + (va & (BY2PG - 1));
}

/*
 * p's mappings changed (pages unmapped, or a new address space): the
 * pages the profilers found are no longer to be trusted.  Interrupts
 * must be off from the change until this is done, or a tick could find
 * a page in between that is then unmapped.
 */
void
profforget(Proc *p)
{
	p->prof.pg.va = 0;
	p->pcs.pg.va = 0;
}

/* profil(buf, bufsiz, offset, scale) */
long
sysprofil(uint *arg)
{
	uintptr buf = arg[0];
	uint size = arg[1], scale = arg[3];
	uvlong span;	/* the least pc - offset whose counter would be past the end */

	if(scale > 0x10000)
		return seterr(EINVAL, "scale over 0x10000");
	if(buf == 0 || scale < 2){
		up->prof.buf = 0;
		return 0;
	}
	if(buf & 1)
		return seterr(EINVAL, "odd profil buffer");
	if(uvalid(buf, size, 1) < 0)
		return -1;
	span = (((uvlong)size/2 << 17) + scale - 1) / scale;
	up->prof.buf = 0;
	up->prof.size = size;
	up->prof.offset = arg[2];
	up->prof.scale = scale;
	up->prof.span = span > 0xFFFFFFFF ? 0xFFFFFFFF : span;
	up->prof.buf = buf;
	return 0;
}

/* pcsample(samples, nsamples) */
long
syspcsample(uint *arg)
{
	uintptr buf = arg[0];
	int n = arg[1];
	long prev;

	if(n < 0)
		return seterr(EINVAL, "negative nsamples");
	if(n > 0 && (buf & 3))
		return seterr(EINVAL, "misaligned samples");
	if(n > 0 && ((uint)n > (KZERO >> 2) || uvalid(buf, 4*n, 1) < 0))
		return seterr(EFAULT, nil);
	prev = up->pcs.called ? (long)up->pcs.n : 0;
	up->pcs.buf = 0;
	up->pcs.called = 1;
	up->pcs.n = 0;
	up->pcs.max = n;
	if(n > 0)
		up->pcs.buf = buf;
	return prev;
}
