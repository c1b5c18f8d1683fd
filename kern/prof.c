/*
 * Per-process profiling: profil(2), a histogram of the user pc in the
 * process's own array of 16-bit counters, and pcsample(2), a record of
 * raw user pcs.  The clock calls profclock on every tick that finds a
 * process running, in user mode or in the kernel on its behalf.
 *
 * The counters live in user memory, so every update first looks the
 * address up in the process's page tables (uaddr).  An address that is
 * not mapped writable turns that profiler off: the tick is dropped, the
 * process goes on, and the kernel never faults.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

void
profclock(Proc *p, uint pc)
{
	Profil *pr = &p->prof;
	Pcsample *ps = &p->pcs;
	ushort *cnt;
	uint *s;
	uvlong i;

	if(pr->buf != 0 && pc >= pr->offset){
		i = ((uvlong)(pc - pr->offset) * pr->scale) >> 17;
		if(i < pr->size/2){
			if((cnt = uaddr(p->pgdir, pr->buf + 2*i, 1)) == nil)
				pr->buf = 0;
			else if(*cnt != 0xFFFF)
				(*cnt)++;
		}
	}
	if(ps->buf != 0 && ps->n < ps->max){
		if((s = uaddr(p->pgdir, ps->buf + 4*ps->n, 1)) == nil)
			ps->buf = 0;
		else
			*s = pc;
		ps->n += ps->buf != 0;
	}
}

/* profil(buf, bufsiz, offset, scale) */
long
sysprofil(uint *arg)
{
	uintptr buf = arg[0];
	uint size = arg[1], scale = arg[3];

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
	up->prof.buf = 0;
	up->prof.size = size;
	up->prof.offset = arg[2];
	up->prof.scale = scale;
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
