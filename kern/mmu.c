/*
 * The x86 memory management unit: segments (flat, plus the TSS that
 * gives the kernel stack for traps from user mode; no LDT) and the
 * page tables of user address spaces.  The kernel half of every page
 * directory is the same: physical memory mapped at KZERO with 4 MB
 * pages.  User memory is mapped with 4 KB pages; the kernel only ever
 * touches it after checking these tables (okuser, uaddr, uput32 and
 * uaddsat16).  The last slot of every page directory maps the
 * directory itself as a page table, so that the entry of a user page
 * in the tables in use is at VPT + 4*(va>>12), read-only and the
 * kernel's alone.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

static pte_t	*kpgdir;	/* the kernel half alone, for when no process runs */
extern pte_t	bootpgdir[];

/* A segment descriptor: base, limit (in 4 KB units if gran), access byte. */
static uvlong
segdesc(uint base, uint limit, uint access, int gran)
{
	uint lo, hi;

	lo = (base << 16) | (limit & 0xFFFF);
	hi = (base & 0xFF000000) | ((gran ? 0xC : 0x4) << 20) | (limit & 0xF0000)
		| (access << 8) | ((base >> 16) & 0xFF);
	return (uvlong)hi << 32 | lo;
}

/*
 * Processor m's own segments: the flat ones, its TSS, and the one whose
 * base is m, which the kernel keeps in gs (kern/trapasm.asm) so that
 * thismach finds m.
 */
void
gdtinit(Mach *m)
{
	struct { ushort limit; uint base; } __attribute__((packed)) gdtr;

	m->self = m;
	/* Only the user code and data segments are usable from ring 3 (DPL 3). */
	m->gdt[KCSEG>>3] = segdesc(0, 0xFFFFF, 0x9A, 1);
	m->gdt[KDSEG>>3] = segdesc(0, 0xFFFFF, 0x92, 1);
	m->gdt[UCSEG>>3] = segdesc(0, 0xFFFFF, 0xFA, 1);
	m->gdt[UDSEG>>3] = segdesc(0, 0xFFFFF, 0xF2, 1);
	m->gdt[TSSSEG>>3] = segdesc((uint)m->tss, sizeof m->tss - 1, 0x89, 0);
	m->gdt[TSSSEG>>3] &= ~((uvlong)0x4 << 52);	/* a TSS descriptor has no D bit */
	m->gdt[MACHSEG>>3] = segdesc((uint)m, sizeof(Mach) - 1, 0x92, 0);
	m->tss[2] = KDSEG;				/* ss0 */
	/*
	 * The I/O map starts past the TSS's limit, so it is empty and, with
	 * IOPL 0 in every user EFLAGS, in and out fault in user mode.
	 */
	((ushort*)m->tss)[51] = sizeof m->tss;
	gdtr.limit = sizeof m->gdt - 1;
	gdtr.base = (uint)m->gdt;
	asm volatile("lgdt %0\n"
		"ljmp %1, $1f\n"
		"1: movw %w2, %%ax\n"
		"movw %%ax, %%ds; movw %%ax, %%es; movw %%ax, %%ss\n"
		"movw %%ax, %%fs\n"
		"movw %w4, %%ax; movw %%ax, %%gs\n"
		"ltr %w3"
		: : "m"(gdtr), "i"(KCSEG), "r"(KDSEG), "r"(TSSSEG), "r"(MACHSEG) : "eax", "memory");
	/*
	 * No LDT.  The LDT register keeps its reset value (base 0) until it
	 * is loaded, and then a user program could write descriptors, call
	 * gates to ring 0 among them, into its own memory at low addresses
	 * and use them through LDT selectors.  A null LDTR makes every LDT
	 * selector fault.
	 */
	asm volatile("lldt %w0" : : "r"(0));
}

/*
 * The kernel's page directory: physical memory at KZERO, and the 4 MB
 * from APICBASE where the APICs' registers are, uncached, at their
 * physical addresses.
 */
void
mmuinit(void)
{
	int i;

	/* From here on the first 4 MB are no longer mapped at 0. */
	kpgdir = pagealloc(1);
	for(i = PDX(KZERO); i < 1024; i++)
		kpgdir[i] = bootpgdir[i];
	kpgdir[PDX(APICBASE)] = APICBASE | PTEP | PTEW | PTEBIG | PTEPWT | PTEPCD;
	kpgdir[PDX(VPT)] = PADDR(kpgdir) | PTEP;
	lcr3(PADDR(kpgdir));
}

/* A new page directory with the kernel mapped and no user memory. */
pte_t*
newpgdir(void)
{
	pte_t *pd;

	pd = pagealloc(0);
	if(pd != nil){
		memset(pd, 0, PDX(KZERO)*sizeof(pte_t));
		memmove(pd + PDX(KZERO), kpgdir + PDX(KZERO), (1024 - PDX(KZERO))*sizeof(pte_t));
		pd[PDX(VPT)] = PADDR(pd) | PTEP;
	}
	return pd;
}

/* The page table entry for user address va, making the table if alloc. */
static pte_t*
walkpgdir(pte_t *pd, uintptr va, int alloc)
{
	pte_t *pt;

	if(va >= KZERO)
		return nil;
	if(pd[PDX(va)] & PTEP)
		pt = KADDR(PTEADDR(pd[PDX(va)]));
	else{
		if(!alloc || (pt = pagealloc(1)) == nil)
			return nil;
		pd[PDX(va)] = PADDR(pt) | PTEP | PTEW | PTEU;
	}
	return &pt[PTX(va)];
}

/*
 * The index of the first present entry of e (a page table, or the user
 * half of a page directory) in [j, end), or end.  A slot at a time:
 * passing empty ones eight at a time took more instructions, not
 * fewer (doc/benchmarks.md, "Speed tricks").
 */
static uint
nextpte(pte_t *e, uint j, uint end)
{
	for(; j < end; j++)
		if(e[j] & PTEP)
			return j;
	return end;
}

/*
 * Most of a user address space is empty, and fork, exit, exec and sbrk
 * look only where the layout (kern/mem.h) lets user pages be: text,
 * data and heap in [UTZERO, top), where top is the highest end exec or
 * sbrk ever mapped in the image (Image.top), and the stack, [USTACK,
 * USTACKTOP).  So they pay for what is mapped, not for the 768 page
 * directory slots and 1024 slots a table around it.
 */

/* The next page table of pd, from slot i to last, where pages can be under top; or last+1. */
static uint
nextpt(pte_t *pd, uint i, uint last, uintptr top)
{
	uint j;

	if(top > 0 && i <= PDX(top - 1)){
		j = nextpte(pd, i, (PDX(top - 1) < last ? PDX(top - 1) : last) + 1);
		if(j <= PDX(top - 1) && j <= last)
			return j;
		i = PDX(top - 1) + 1;
	}
	if(i < PDX(USTACK))
		i = PDX(USTACK);
	return nextpte(pd, i, last + 1);
}

/* The slots [*lo, *hi) of page table i where pages can be under top. */
static void
ptspan(uint i, uintptr top, uint *lo, uint *hi)
{
	uintptr base = (uintptr)i << 22;

	*lo = 0;
	*hi = 0;
	if(top > base)
		*hi = top - base >= BY2BIGPG ? 1024 : PTX(top - 1) + 1;
	if(i == PDX(USTACK)){
		if(*hi == 0)
			*lo = PTX(USTACK);
		*hi = 1024;
	}
}

/*
 * Unmap and free the user pages in [lo, hi) of an image whose pages
 * lie under top (see above), and the page tables left empty: a failed
 * or shrinking sbrk gives them back with its pages, and fork and exit
 * need not look through them again.  If pd is in use, the caller
 * reloads cr3 before user code runs.  A scheduling point at each
 * table: 96 MB took 2.1 ms to free without, and a killed process
 * frees all the same (the point's result is not looked at).
 */
void
unmapuser(pte_t *pd, uintptr lo, uintptr hi, uintptr top)
{
	uint i, j, jlo, jhi, slo, shi, last;
	pte_t *pt;
	void *pg;

	if(hi > KZERO)
		hi = KZERO;
	if(lo >= hi)
		return;
	last = PDX(hi - 1);
	for(i = nextpt(pd, PDX(lo), last, top); i <= last; i = nextpt(pd, i + 1, last, top)){
		schedpoint();
		ptspan(i, top, &slo, &shi);
		jlo = i == PDX(lo) && PTX(lo) > slo ? PTX(lo) : slo;
		jhi = i == last && PTX(hi - 1) + 1 < shi ? PTX(hi - 1) + 1 : shi;
		pt = KADDR(PTEADDR(pd[i]));
		for(j = nextpte(pt, jlo, jhi); j < jhi; j = nextpte(pt, j + 1, jhi)){
			pg = KADDR(PTEADDR(pt[j]));
			pt[j] = 0;
			pagefree(pg);
		}
		if((jlo == slo && jhi >= shi) || nextpte(pt, slo, shi) == shi){
			pd[i] = 0;
			pagefree(pt);
		}
	}
}

/*
 * Map fresh zeroed user pages over [lo, hi); pages already there are
 * kept, and made writable.  A page hidden from user mode (a shared
 * image's sbrk shrank over it: kern/image.c) is zeroed and shown again.
 * A scheduling point at every page, the zeroing of a hidden one as
 * much as a fresh one's: 40 MB of hidden pages shown again kept the
 * processor 4.8 ms without.  On failure (no memory, or the process
 * killed at a scheduling point) what it added stays: the caller unmaps
 * it or frees the whole page directory.
 */
int
mapuser(pte_t *pd, uintptr lo, uintptr hi)
{
	uintptr va;
	pte_t *pte;
	void *pg;

	if(hi > KZERO || lo > hi)
		return -1;
	for(va = ROUNDDOWN(lo, BY2PG); va < hi; va += BY2PG){
		if(schedpoint() < 0 || (pte = walkpgdir(pd, va, 1)) == nil)
			return -1;
		if(*pte & PTEP){
			if((*pte & PTEU) == 0)
				memset(KADDR(PTEADDR(*pte)), 0, BY2PG);
			*pte |= PTEW | PTEU;
			continue;
		}
		if((pg = pagealloc(1)) == nil)
			return -1;
		*pte = PADDR(pg) | PTEP | PTEW | PTEU;
	}
	return 0;
}

/*
 * Take bits from the user pages over [lo, hi): PTEW makes them
 * read-only, PTEU hides them from user mode (the kernel may still use
 * them).  If pd is in use, the caller flushes the TLB.  A scheduling
 * point at each table, as unmapuser's: a shrink that hid 96 MB kept
 * the processor half a millisecond without, and a killed process
 * changes them all the same.
 */
void
protectuser(pte_t *pd, uintptr lo, uintptr hi, uint bits)
{
	uintptr va;
	pte_t *pte;

	for(va = ROUNDDOWN(lo, BY2PG); va < hi; va += BY2PG){
		if(va % BY2BIGPG == 0)
			schedpoint();
		if((pte = walkpgdir(pd, va, 0)) != nil)
			*pte &= ~bits;
	}
}

/* Free a page directory and all the user memory (under top) and page tables under it. */
void
freepgdir(pte_t *pd, uintptr top)
{
	unmapuser(pd, 0, KZERO, top);
	pagefree(pd);
}

/*
 * A copy of the user address space (its pages under top) from lo (a
 * multiple of 4 MB) up, for fork (from 0) and rfork(RFMEM) (the stack,
 * from USHARED); nil if memory ran out or the process was killed.  It
 * goes through the page tables there are, where pages can be, and
 * makes the child a table only where there is a page to copy.
 */
pte_t*
copypgdir(pte_t *pd, uintptr lo, uintptr top)
{
	pte_t *npd, *pt, *npt;
	uint i, j, slo, shi;
	void *pg;

	if((npd = newpgdir()) == nil)
		return nil;
	for(i = nextpt(pd, PDX(lo), PDX(KZERO) - 1, top); i < PDX(KZERO); i = nextpt(pd, i + 1, PDX(KZERO) - 1, top)){
		pt = KADDR(PTEADDR(pd[i]));
		npt = nil;
		ptspan(i, top, &slo, &shi);
		for(j = nextpte(pt, slo, shi); j < shi; j = nextpte(pt, j + 1, shi)){
			if(npt == nil){
				if((npt = pagealloc(1)) == nil)
					goto fail;
				npd[i] = PADDR(npt) | PTEP | PTEW | PTEU;
			}
			if(schedpoint() < 0 || (pg = pagealloc(0)) == nil)
				goto fail;
			memmove(pg, KADDR(PTEADDR(pt[j])), BY2PG);
			npt[j] = PADDR(pg) | (pt[j] & 0xFFF);
		}
	}
	return npd;
fail:
	freepgdir(npd, top);
	return nil;
}

/*
 * Is [va, va+len) all user memory of the current process (writable, if
 * write)?  A scheduling point at each page table: a read of nothing
 * into 96 MB kept the processor 0.6 ms checking it without.  What was
 * checked stays the process's meanwhile, as after the check: another
 * thread's sbrk only hides pages (kern/image.c).
 */
int
okuser(uintptr va, uint len, int write)
{
	uintptr p;

	if(va >= KZERO || len > KZERO - va)
		return 0;
	for(p = ROUNDDOWN(va, BY2PG); p < va + len; p += BY2PG){
		if(p % BY2BIGPG == 0)
			schedpoint();
		if(uaddr(up->pgdir, p, write) == nil)
			return 0;
	}
	return 1;
}

/*
 * A page fault in the kernel at one of the instructions of uput32 and
 * uaddsat16 (kern/fns.h) that touch user memory: have it go on at that
 * write's failure, and say so.  Those instructions and their failures
 * are listed in the section ufixups (boot/kernel.ld).
 */
int
ufixup(Ureg *u)
{
	Ufixup *f;

	if(u->trap != T_PGFLT)
		return 0;
	for(f = ufixups; f < eufixups; f++)
		if(f->pc == u->pc){
			u->pc = f->fix;
			return 1;
		}
	return 0;
}

/*
 * Run on p's page tables and, after a trap from user mode, p's kernel
 * stack.  Loading cr3 empties the TLB, so it is left alone when p's
 * tables are already the ones in use.  (A page directory is freed only
 * once it is no longer loaded, so the same address means the same
 * tables.)  A process that has left its image at exit has none, and
 * runs on the kernel's: it may yield while it frees the image
 * (unmapuser's scheduling points).
 */
void
switchuvm(Proc *p)
{
	pte_t *pd = p->pgdir != nil ? p->pgdir : kpgdir;

	thismach()->tss[1] = (uint)p->kstack + KSTACK;	/* esp0 */
	if(rcr3() != PADDR(pd))
		lcr3(PADDR(pd));
}

/* The kernel's tables alone, for when a process's are about to go. */
void
switchkvm(void)
{
	lcr3(PADDR(kpgdir));
}

/* Forget the translations of pages just unmapped. */
void
flushtlb(void)
{
	lcr3(rcr3());
}

/*
 * Have every other processor that runs a thread of im flush its TLB,
 * and wait until each has: im's pages changed.  The others need
 * nothing: a processor loads a thread's page tables afresh (and leaves
 * them, switchkvm, when the thread stops).  The caller holds no spin
 * lock, as a processor spinning for it with interrupts off would never
 * answer; it waits with interrupts on, so that two processors shooting
 * at once each answer the other.
 */
void
shootdown(Image *im)
{
	Mach *m, *me;
	Proc *p;
	uint want[MAXMACH];	/* the request each was sent, if shot */
	int shot[MAXMACH], i;

	pushcli();
	me = thismach();
	for(i = 0; i < nmach; i++){
		m = &mach[i];
		p = m->proc;
		shot[i] = m != me && p != nil && p->img == im;
		if(shot[i]){
			want[i] = xadd(&m->flushreq, 1) + 1;
			lapicipi(m->apicid, Tflush);
		}
	}
	popcli();
	for(i = 0; i < nmach; i++)
		if(shot[i])
			while((int)(mach[i].flushdone - want[i]) < 0)
				pause();
}

/* The interrupt of shootdown: flush, then say which request that answered. */
void
flushintr(void)
{
	Mach *m = thismach();
	uint req = m->flushreq;

	flushtlb();
	m->flushdone = req;
	lapiceoi();
}
