/*
 * The call stack at one of kprof's ticks (dev/devkprof.c, from its
 * NMI): the kernel's, if the tick found the processor in kernel text,
 * then, if it found a process, that process's user stack below it,
 * after the mark KPUMARK (kern/kprof.h).  A tick in user mode has the
 * user stack alone.  Both are chains of frame pointers: the kernel, the
 * C library and the programs are all built with them (mkfile).
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

/* One more pc v on a stack, and in its hash h (FNV-1a, a word at a time). */
#define PUSHPC(pc, n, h, v)	((h) = ((h) ^ ((pc)[(n)++] = (v))) * Fnvprime)

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
 * The kernel call stack at the pc the NMI frame f interrupted, from
 * pc[n] on, leaf first: the return addresses in the chain of frame
 * pointers from bp, as long as each frame lies above the last, within
 * the stack, and holds a pc in kernel text.  At a function's entry nop
 * (atentry, kern/fns.h) and its first two instructions after (push ebp; mov
 * ebp, esp), or at a ret, bp is still (or again) the caller's, and the
 * caller's pc is on top of the stack.
 */
static NOPROF uint
kwalk(Mach *m, uint *f, uint bp, uint *pc, uint n, uint *hp)
{
	uint sp = (uint)(f + 3), top, fp, next, ret = 0, h = *hp;
	uchar *op = (uchar*)f[0];

	PUSHPC(pc, n, h, f[0]);
	if((top = stacktop(m, sp)) == 0 || top - sp < 8){
		*hp = h;
		return n;
	}
	if(op[0] == 0x55 || op[0] == 0xC3)
		ret = ((uint*)sp)[0];
	else if(op[0] == 0x89 && op[1] == 0xE5)
		ret = ((uint*)sp)[1];
	else if(op[0] == 0x0F && atentry(f[0]))
		ret = ((uint*)sp)[0];
	if(intext(ret))
		PUSHPC(pc, n, h, ret);
	/* fp - sp <= top - 8 - sp: fp at or above sp, and its two words below top */
	for(fp = bp; fp - sp <= top - 8 - sp && n < KPKFRAMES; fp = next){
		if(!intext(ret = ((uint*)fp)[1]))
			break;
		PUSHPC(pc, n, h, ret);
		if((next = *(uint*)fp) <= fp)
			break;
	}
	*hp = h;
	return n;
}

/* A user return address: in user space, and not 0. */
static NOPROF int
uret(uint pc)
{
	return pc - 1 < USEREND - 1;
}

/*
 * The user stack of page directory pd, from pc[n] on: the mark, then
 * upc, where the process was, and the return addresses in its chain of
 * frame pointers from ubp.  In a system call the pc is in the C
 * library's stub, which makes no frame (user/lib/syscall.asm): its
 * caller's pc is at usp.  Elsewhere, at a function's first instruction
 * or a ret it is at usp too, and at its second at usp+4, as in kwalk.
 * The frames of a stack mostly share a page, so the walk looks a page
 * up only when a frame is not in the last one; a frame whose two words
 * straddle two pages ends it (the ABI's frames are 8 bytes into 16).
 * The pcs are hashed once walked, not on the way, which keeps the
 * loop's registers free.
 */
static NOPROF uint
uwalk(pte_t *pd, uint upc, uint usp, uint ubp, int sys, uint *pc, uint n, uint *hp)
{
	uint h = *hp, i = n, end = n + 1 + KPUFRAMES, ret = 0, fp, next, pg, *w;
	uchar *op, *k = nil;

	pc[n++] = KPUMARK;
	pc[n++] = upc;
	if(sys)
		ret = usp;
	else if((op = uaddr(pd, upc, 0)) != nil){
		if(op[0] == 0x55 || op[0] == 0xC3)
			ret = usp;
		else if(op[0] == 0x89 && (upc + 1) % BY2PG != 0 && op[1] == 0xE5)
			ret = usp + 4;
	}
	if(ret != 0 && ret % 4 == 0 && (w = uaddr(pd, ret, 0)) != nil && uret(*w))
		pc[n++] = *w;
	pg = ubp + BY2PG;	/* no page yet: fp - pg is large */
	for(fp = ubp; n < end && fp % 4 == 0; fp = next){
		if(fp - pg > BY2PG - 8){
			if((fp + 4) % BY2PG == 0 || (k = uaddr(pd, fp & ~(BY2PG - 1), 0)) == nil)
				break;
			pg = fp & ~(BY2PG - 1);
		}
		w = (uint*)(k + (fp - pg));
		next = w[0];
		if(!uret(ret = w[1]))
			break;
		pc[n++] = ret;
		if(next <= fp)
			break;
	}
	for(; i < n; i++)
		h = (h ^ pc[i]) * Fnvprime;
	*hp = h;
	return n;
}

/*
 * The stack at the tick whose NMI frame is f and frame pointer bp,
 * into pc[0..KPMAXFRAMES), leaf first: the kernel's, and below it the
 * user's of the process the processor runs.  The number of pcs (0 for
 * a tick outside kernel text in no process); their hash in *hp.
 */
NOPROF uint
kpwalk(Mach *m, uint *f, uint bp, uint *pc, uint *hp)
{
	Proc *p = m->proc;
	pte_t *pd;
	Ureg *u;
	uint n = 0, h = Fnvbasis, upc, usp, ubp, sys;

	if(intext(f[0])){
		n = kwalk(m, f, bp, pc, n, &h);
		if(p == nil || (pd = *(pte_t*volatile*)&p->pgdir) == nil || (u = p->ureg) == nil || !UREGUSER(u))
			goto out;
		upc = u->pc;
		usp = u->sp;
		ubp = u->bp;
		sys = u->trap == T_SYSCALL;
	}else if((f[1] & 3) == 3 && p != nil && (pd = *(pte_t*volatile*)&p->pgdir) != nil){
		upc = f[0];
		usp = f[3];
		ubp = bp;
		sys = 0;
	}else
		goto out;
	n = uwalk(pd, upc, usp, ubp, sys, pc, n, &h);
out:
	*hp = h;
	return n;
}
