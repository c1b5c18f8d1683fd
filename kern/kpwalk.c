/*
 * The call stack at one of kprof's ticks, as its NMI records it
 * (dev/kpnmi.c): the kernel's, if the tick found the processor in
 * kernel text, then, if it found a process, that process's user stack
 * below it, after the mark KPUMARK (kern/kprof.h).  A tick in user mode
 * has the user stack alone.  Both are chains of frame pointers: the
 * kernel, the C library and the programs are all built with them
 * (mkfile).  The pcs go raw into the processor's buffer of samples;
 * hashing them and finding their line of kpstack is left to process
 * context (dev/kpstack.c), as BSD's profiling clock leaves all but the
 * recording.
 *
 * An NMI comes at any instruction, and must not fault.  The kernel
 * stack is the kernel's own.  The user stack is read only through the
 * process's page tables (uaddr), as the processor would read it, and
 * each frame must lie above the last: a frame that is not mapped for
 * user access, that points into the kernel, to itself or below, or
 * past the top of user space ends the walk, as does KPUFRAMES.  What
 * uaddr finds stays the process's while the NMI reads it: the process
 * is the one interrupted, so it changes nothing; another thread of its
 * image only hides pages, never frees them, and frees tables only once
 * the process has left the image and its directory no longer names
 * them (kern/image.c); and the scheduler holds procs from a process's exit until it lets go of it
 * here (kern/proc.c), so no one frees its tables meanwhile.  All of
 * it is NOPROF, as the NMI's path: no entry nop that kern/arcs.c
 * patches, so that it runs the same while the text changes.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "kprof.h"

static NOPROF int
intext(uint pc)
{
	return pc - (uint)text < (uint)ktextsize;
}

/*
 * The top of the stack that sp is in, if it is one the kernel knows:
 * the kernel stack of the process running here, or this processor's
 * scheduler stack (the boot stack on the first).  0 for anything else.
 */
static NOPROF uint
stacktop(Mach *m, uint sp)
{
	Proc *p = m->proc;

	if(p != nil && sp - (uint)p->kstack < KSTACK)
		return (uint)p->kstack + KSTACK;
	if(sp - (uint)m->stack < KSTACK)
		return (uint)m->stack + KSTACK;
	return 0;
}

/*
 * The kernel call stack at the pc the NMI frame f interrupted, into pc,
 * leaf first; the end of what it wrote: the return addresses in the
 * chain of frame pointers from bp, as long as each frame lies above the
 * last, within the stack, and holds a pc in kernel text.  At a
 * function's entry nop (atentry, kern/fns.h) and its first two
 * instructions after (push ebp; mov ebp, esp), or at a ret, bp is still
 * (or again) the caller's, and the caller's pc is on top of the stack.
 */
static NOPROF uint*
kwalk(Mach *m, uint *f, uint bp, uint *pc)
{
	uint sp = (uint)(f + 3), top, fp, next, ret = 0, *end = pc + KPKFRAMES;
	uchar *op = (uchar*)f[0];

	*pc++ = f[0];
	if((top = stacktop(m, sp)) == 0 || top - sp < 8)
		return pc;
	if(op[0] == 0x55 || op[0] == 0xC3)
		ret = ((uint*)sp)[0];
	else if(op[0] == 0x89 && op[1] == 0xE5)
		ret = ((uint*)sp)[1];
	else if(op[0] == 0x0F && atentry(f[0]))
		ret = ((uint*)sp)[0];
	if(intext(ret))
		*pc++ = ret;
	/* fp - sp <= top - 8 - sp: fp at or above sp, and its two words below top */
	for(fp = bp; fp - sp <= top - 8 - sp && pc < end; fp = next){
		if(!intext(ret = ((uint*)fp)[1]))
			break;
		*pc++ = ret;
		if((next = *(uint*)fp) <= fp)
			break;
	}
	return pc;
}

/* A user return address: in user space, and not 0. */
static NOPROF int
uret(uint pc)
{
	return pc - 1 < USEREND - 1;
}

/*
 * The user stack of page directory pd into pc; the end of what it
 * wrote: the mark, then upc, where the process was, and the return
 * addresses in its chain of frame pointers from ubp.  In a system call
 * the pc is in the C library's stub, which makes no frame
 * (user/lib/syscall.asm): its caller's pc is at usp.  Elsewhere, at a
 * function's first instruction or a ret it is at usp too, and at its
 * second at usp+4, as in kwalk.
 *
 * The frames of a stack mostly share a page, so the walk looks a page
 * up only for a frame whose two words are not both in the last one,
 * and else goes from frame to frame in the kernel's addresses of the
 * page: a frame at user address fp is at fp+d, and one in the page
 * lies above the last and at most at lim.  A frame it looks up must be
 * 4-aligned and not straddle two pages (the ABI's frames are 8 bytes
 * into 16).  The return addresses go in as they are: one that is not
 * a user one (uret) ends the stack, but the drain cuts it there
 * (dev/kpstack.c), not the NMI, which would test every frame.
 */
static inline __attribute__((always_inline)) uint*
uwalk(pte_t *pd, uint upc, uint usp, uint ubp, int sys, uint *pc)
{
	uint *end = pc + 1 + KPUFRAMES, ret = 0, fp, next, d, *w, *nw, *lim;
	uchar *op;

	pc[0] = KPUMARK;
	pc[1] = upc;
	pc += 2;
	if(sys)
		ret = usp;
	else if((op = uaddr(pd, upc, 0)) != nil){
		if(op[0] == 0x55 || op[0] == 0xC3)
			ret = usp;
		else if(op[0] == 0x89 && (upc + 1) % BY2PG != 0 && op[1] == 0xE5)
			ret = usp + 4;
	}
	if(ret != 0 && ret % 4 == 0 && (w = uaddr(pd, ret, 0)) != nil && uret(*w))
		*pc++ = *w;
	for(fp = ubp; fp % 4 == 0 && fp % BY2PG <= BY2PG - 8 && (w = uaddr(pd, fp, 0)) != nil; fp = next){
		d = (uint)w - fp;
		lim = (uint*)(((uint)w | (BY2PG - 1)) - 7);
		for(;;){
			*pc++ = w[1];
			if(pc == end)
				return pc;
			nw = (uint*)(w[0] + d);
			if(nw <= w || nw > lim)
				break;
			w = nw;
		}
		/* Out of the page, or at or below the frame (or so far above that w[0] + d wrapped) */
		next = w[0];
		if(next <= (uint)w - d)
			break;
	}
	return pc;
}

/*
 * The stack at a tick in kernel text whose NMI frame is f and frame
 * pointer bp (kpwalk), or at one outside it, in NMI frame x (kpuwalk),
 * leaf first, into r[1] on, KPMAXFRAMES pcs at most, and their number
 * into r[0]: the kernel's, and below it the user's of the process the
 * processor runs (none for a tick outside kernel text in no process,
 * or not in user mode).  The words written.
 */
NOPROF REGPARM uint
kpwalk(uint *f, uint bp, uint *r)
{
	Mach *m = thismach();
	Proc *p = m->proc;
	Ureg *u;
	pte_t *pd;
	uint *e;

	e = kwalk(m, f, bp, r + 1);
	if(p != nil && (u = p->ureg) != nil && UREGUSER(u) && (pd = *(pte_t*volatile*)&p->pgdir) != nil)
		e = uwalk(pd, u->pc, u->sp, u->bp, u->trap == T_SYSCALL, e);
	return (r[0] = e - (r + 1)) + 1;
}

NOPROF REGPARM uint
kpuwalk(uint *f, uint bp, uint *r)
{
	Proc *p = thismach()->proc;
	pte_t *pd;

	if(p == nil || (f[1] & 3) == 0 || (pd = *(pte_t*volatile*)&p->pgdir) == nil){	/* cs: 0 in the kernel, 3 in user mode */
		r[0] = 0;
		return 1;
	}
	return (r[0] = uwalk(pd, f[0], f[3], bp, 0, r + 1) - (r + 1)) + 1;
}
