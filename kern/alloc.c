/*
 * Memory: whole physical pages for page tables and user memory
 * (pagealloc), and a heap for everything else: kernel stacks, channels,
 * pipes, files (kmalloc), which like C's malloc does not zero what it
 * returns: most callers fill it at once.  The heap is a fixed arena,
 * the first pages past what the boot loader placed, so that the count
 * of free pages says exactly what user address spaces hold.  Each
 * allocator has its lock; interrupt handlers allocate nothing.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

/*
 * The free pages: those freed since boot on a list, each one's first
 * word pointing to the next, and those never yet handed out above a
 * mark.  A page is first written when it is first used: under QEMU the
 * host gives the guest its memory as it is written, and linking every
 * page at boot wrote all of it, a quarter of a short boot's CPU
 * (doc/benchmarks.md, "Boot").
 */
static struct {
	Lock	lk;		/* guards the rest */
	uintptr	*list;		/* first freed page (virtual address) */
	uintptr	next;		/* first page never handed out (physical) */
	uintptr	end;		/* end of the pages above next */
	int	nfree;		/* pages on the list or above next */
	int	ntotal;		/* pages given to the allocator */
} pages = { .lk = { .name = "pages" } };

enum {
	HEAPSIZE	= 16*1024*1024,
	Reserve	= 2*1024*1024,	/* heap that kmallocdata leaves for processes and channels */
};

typedef union Header Header;
static Header	*arena;		/* HEAPSIZE bytes, set once at boot */
static void	heapinit(void);

/*
 * Give the physical pages [lo, hi) to the allocators, once, at boot:
 * the heap's arena first, the rest to pagealloc.  The arena is not in
 * the kernel's bss, where the boot loader (QEMU's, for -kernel) would
 * zero and copy all of it at every boot; past the first block's header,
 * its pages are first written, like the others, when they are first used.
 */
void
pageinit(uintptr lo, uintptr hi)
{
	if(hi > PHYSMAX)
		hi = PHYSMAX;
	lo = ROUNDUP(lo, BY2PG);
	if(hi < lo + HEAPSIZE)
		panic("%u KB of memory past the kernel and its modules: the heap alone wants %u KB",
			hi > lo ? (uint)((hi - lo) >> 10) : 0, HEAPSIZE >> 10);
	arena = KADDR(lo);
	lo += HEAPSIZE;
	heapinit();
	lock(&pages.lk);
	pages.next = lo;
	pages.end = hi & ~(BY2PG-1);
	pages.nfree = pages.ntotal = (pages.end - pages.next) / BY2PG;
	unlock(&pages.lk);
}

/*
 * A page, zeroed if clear (a page about to be copied over need not
 * be), or nil if none is left.  A freed page first, as its memory has
 * been written already.
 */
void*
pagealloc(int clear)
{
	uintptr *p;

	lock(&pages.lk);
	if((p = pages.list) != nil)
		pages.list = (uintptr*)*p;
	else if(pages.next < pages.end){
		p = KADDR(pages.next);
		pages.next += BY2PG;
	}else{
		unlock(&pages.lk);
		return nil;
	}
	pages.nfree--;
	unlock(&pages.lk);
	if(clear)
		memset(p, 0, BY2PG);
	return p;
}

void
pagefree(void *v)
{
	uintptr *p = v;

	if((uintptr)v % BY2PG || (uintptr)v < KZERO)
		panic("pagefree %p", v);
	lock(&pages.lk);
	*p = (uintptr)pages.list;
	pages.list = p;
	pages.nfree++;
	unlock(&pages.lk);
}

int
pagesfree(void)
{
	return pages.nfree;
}

int
pagestotal(void)
{
	return pages.ntotal;
}

/*
 * The heap: K&R's first-fit allocator over a fixed arena.  Each block
 * starts with a header giving its size in units; free blocks form a
 * circular list in address order, so that freeing coalesces.
 */
union Header {
	struct {
		Header	*next;	/* next free block */
		uint	size;	/* in units of sizeof(Header) */
	};
	uvlong	align;
};

static Lock	heaplk = { .name = "heap" };	/* all below */
static Header	base;		/* the list's anchor, size 0 */
static Header	*freep;		/* where the last search ended */
static uint	heapused;	/* units handed out */

/* The arena, one free block: at boot, before anything is allocated. */
static void
heapinit(void)
{
	arena[0].size = HEAPSIZE/sizeof(Header);
	arena[0].next = &base;
	base.next = &arena[0];
	freep = &base;
}

void*
kmalloc(uint nbytes)
{
	Header *p, *prev;
	uint nunits;

	if(nbytes > HEAPSIZE)
		return nil;
	nunits = (nbytes + sizeof(Header) - 1)/sizeof(Header) + 1;
	lock(&heaplk);
	prev = freep;
	for(p = prev->next;; prev = p, p = p->next){
		if(p->size >= nunits){
			if(p->size == nunits)
				prev->next = p->next;
			else{
				p->size -= nunits;
				p += p->size;
				p->size = nunits;
			}
			freep = prev;
			heapused += nunits;
			unlock(&heaplk);
			return p + 1;
		}
		if(p == freep){
			unlock(&heaplk);
			return nil;
		}
	}
}

void
kfree(void *v)
{
	Header *bp, *p;

	if(v == nil)
		return;
	bp = (Header*)v - 1;
	if(bp < arena || bp >= arena + HEAPSIZE/sizeof(Header))
		panic("kfree %p", v);
	lock(&heaplk);
	heapused -= bp->size;
	/*
	 * Find p, the free block bp goes after: the list is a ring in
	 * address order, so bp lies between p and p->next, or, where the
	 * ring wraps from its highest block back to its lowest
	 * (p >= p->next), above the highest or below the lowest.
	 */
	for(p = freep; !(bp > p && bp < p->next); p = p->next)
		if(p >= p->next && (bp > p || bp < p->next))
			break;
	if(bp + bp->size == p->next){
		bp->size += p->next->size;
		bp->next = p->next->next;
	}else
		bp->next = p->next;
	if(p + p->size == bp){
		p->size += bp->size;
		p->next = bp->next;
	}else
		p->next = bp;
	freep = p;
	unlock(&heaplk);
}

/* Bytes of heap in use, headers included. */
uint
heapinuse(void)
{
	return heapused*sizeof(Header);
}

/*
 * kmalloc for what a process may ask for as much of as it likes (a
 * file's data, a snapshot of #T's counts at open): nil once the heap
 * is within Reserve of full, so that what every process needs
 * (processes, channels, mounts) can still be made.
 */
void*
kmallocdata(uint nbytes)
{
	uint f = heapfree();

	if(f < Reserve || nbytes > f - Reserve)
		return nil;
	return kmalloc(nbytes);
}

/* Bytes of heap not in use, though maybe not in one piece. */
uint
heapfree(void)
{
	return HEAPSIZE - heapinuse();
}
