/*
 * Memory images and threads.  A process's user memory is an Image:
 * fork gives the child a copy, rfork(RFPROC|RFMEM) makes the child a
 * thread of the same image, and exec gives the caller a new one, the
 * others going on in the old.  The last thread to leave an image, by
 * exit or exec, frees it.
 *
 * The threads share the page tables below USHARED: text, data, bss and
 * heap.  Each has its own page directory, whose entries below USHARED
 * are the same in all (imsync copies them when sbrk adds a table), and
 * its own copy of the top 4 MB, where the stack is, made by rfork as
 * fork copies all: the new thread returns from rfork on its own stack,
 * as its parent left it.  While an image has more than one thread its
 * page tables are never freed, so the entries stay right in all.
 *
 * Pages: sbrk in a shared image takes pages away from user mode by
 * hiding them (PTEU cleared), not freeing them.  Another thread may be
 * in a system call that checked its buffer in those pages and writes
 * to it as the kernel, later: hidden, the page is still there for it,
 * and nowhere else.  Hidden pages are zeroed and shown again when the
 * heap grows over them, and freed with the image.  The profilers see a
 * hidden page as gone (uaddsat16 and uput32 want PTEU), which is the
 * fault rule.
 * Every thread of an image counts its ticks into the image's profil
 * and pcsample buffers, as a system call writes (kern/prof.c).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

/* A new image with no memory and no threads, or nil. */
Image*
newimage(void)
{
	Image *im;

	if((im = kmalloc(sizeof *im)) == nil)
		return nil;
	memset(im, 0, sizeof *im);
	im->lk.name = "image";
	im->mem.lk.name = "image memory";
	return im;
}

/* Add p, with its page directory set up, to im's threads.  im's mem is held, or im is new. */
void
imjoin(Image *im, Proc *p)
{
	lock(&im->lk);
	p->inext = im->threads;
	im->threads = p;
	im->ref++;
	unlock(&im->lk);
	profclock(im);	/* fork's new image, with its parent's profilers: the NMI clock on */
}

/*
 * The current process leaves its image, for exec (into nim, with page
 * directory npd) or exit (nil, nil).  It stops counting into the
 * image's profilers first; then, out of the list of threads that sbrk
 * keeps up to date, its page directory is its own to free: all of it
 * if it was the last, else the stack part.  If not the last, its
 * entries below USHARED go as it leaves, under mem: from then on the
 * others' sbrk may free those tables (with one thread left, it frees
 * them), and kprof's NMI walks this directory (kern/kpwalk.c) until
 * procsetimg takes it away, which may wait for procs.
 */
void
imleave(Image *nim, pte_t *npd)
{
	Image *im = up->img;
	pte_t *pd = up->pgdir;
	Proc **l;
	uintptr top;
	int last;

	procsetimg(up, nil, pd);
	qlock(&im->mem);
	lock(&im->lk);
	for(l = &im->threads; *l != up; l = &(*l)->inext)
		;
	*l = up->inext;
	last = --im->ref == 0;
	top = im->top;	/* read while im is sure to be there */
	if(!last)
		memset(pd, 0, PDX(USHARED)*sizeof(pte_t));
	unlock(&im->lk);
	qunlock(&im->mem);
	if(nim != nil)
		imjoin(nim, up);
	procsetimg(up, nim, npd);
	if(npd != nil)
		switchuvm(up);
	else
		switchkvm();
	if(last){
		im->prof.span = 0;
		im->pcs.buf = 0;
		profclock(im);	/* the NMI clock off, if none other profiles */
		freepgdir(pd, top);
		kfree(im);
	}else{
		unmapuser(pd, USHARED, KZERO, top);
		pagefree(pd);
	}
}

/* The page directory entries below USHARED of pd, which sbrk changed, into every other thread's. */
static void
imsync(Image *im, pte_t *pd)
{
	Proc *p;

	lock(&im->lk);
	for(p = im->threads; p != nil; p = p->inext)
		if(p->pgdir != pd)
			memmove(p->pgdir, pd, PDX(USHARED)*sizeof(pte_t));
	unlock(&im->lk);
}

/*
 * Take the heap pages in [lo, hi) away from the current process's
 * image: hidden if it has other threads (see the top of the file);
 * else unmapped and freed, and with them any hidden while it had, up
 * to im->top, which comes down to lo: fork and exit then look no
 * further than the heap there is (kern/mmu.c).
 */
static void
dropheap(Image *im, uintptr lo, uintptr hi)
{
	if(im->ref == 1){
		unmapuser(up->pgdir, lo, im->top, im->top);
		im->top = lo;
	}else
		protectuser(up->pgdir, lo, hi, PTEU);
	flushtlb();
	if(im->ref > 1)
		shootdown(im);
}

/*
 * sbrk(n): move the end of the heap by n bytes, mapping or unmapping
 * whole pages, and return the old end.  A request for more new pages
 * than are free fails at once, not after zeroing them all; those that
 * another thread's sbrk hid are not new.  (One that fails midway leaves
 * pages below im->top not mapped at all, which mapuser finds for
 * itself.)  The heap stays below USHARED.
 */
long
syssbrk(uint *arg)
{
	Image *im = up->img;
	int n = arg[0];
	uintptr old, new, top, hid;
	long r;

	qlock(&im->mem);
	old = im->brk;
	new = old + n;
	top = ROUNDUP(old, BY2PG);
	hid = im->top > top ? im->top : top;	/* [top, hid): pages hidden, shown again, not new (dropheap) */
	r = old;
	if(n > 0 && (new < old || new > USHARED
	|| (new > hid && (new - hid) / BY2PG > (uint)pagesfree())))
		r = seterr(ENOMEM, nil);
	else if(n < 0 && (new > old || new < im->hbase))
		r = seterr(EINVAL, "sbrk below the heap");
	else{
		/* Raised before the pages are mapped: a failed mapuser's are dropped under it. */
		if(new > im->top)
			im->top = ROUNDUP(new, BY2PG);
		if(new > top && mapuser(up->pgdir, top, new) < 0){
			/* The new tables, if any, go to all: a thread's own are only above USHARED. */
			if(im->ref > 1)
				imsync(im, up->pgdir);
			dropheap(im, top, new);
			r = seterr(ENOMEM, nil);
		}else{
			if(new > top && im->ref > 1)
				imsync(im, up->pgdir);
			if(n < 0)
				dropheap(im, ROUNDUP(new, BY2PG), top);
			im->brk = new;
		}
	}
	qunlock(&im->mem);
	return r;
}

/* rfork(flags): RFPROC, and RFMEM for a thread; nothing else. */
long
sysrfork(uint *arg)
{
	uint flags = arg[0];

	if((flags & RFPROC) == 0 || (flags & ~(RFPROC|RFMEM)) != 0)
		return seterr(EINVAL, "bad rfork flags");
	return pfork(flags);
}

/*
 * The ticks the threads of im have run, those gone included, and of
 * those the ticks with a profiler on: what #c/proctime reads.
 */
void
imticks(Image *im, uint *ticks, uint *profticks)
{
	Proc *p;

	lock(&im->lk);
	*ticks = im->ticks;
	*profticks = im->profticks;
	for(p = im->threads; p != nil; p = p->inext){
		*ticks += p->ticks;
		*profticks += p->profticks;
	}
	unlock(&im->lk);
}
