/*
 * Processes: creation, the scheduler, sleep and wakeup, fork, exit,
 * wait and kill, and note groups.  Every processor runs the scheduler,
 * taking processes from the run queues.  The lock procs guards the
 * process table's states, the run queues and the parent links; it is
 * held across the switch to a process and back, as xv6's, so that no
 * other processor takes a process whose registers are still being
 * saved.  A process in the kernel is never preempted, only
 * interrupted: it gives its processor up only where it sleeps, at the
 * scheduling points of long system calls (schedpoint), and on its way
 * back to user mode after the tick that ends its turn, whichever trap
 * it came in by (trap).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

static Lock	procs = { .name = "procs" };	/* all below, and every Proc's state, wchan, parent */
static Proc	proc[NPROC];
static int	nextpid = 1;
static Proc	*initproc;

/*
 * The run queues of the Runnable processes, each first come first
 * served, through rnext: those a wakeup readied from a sleep of a tick
 * or more, then those whose turn ended, or new.  In one queue, a
 * process woken behind N spinners waited a turn of each: a sleep of
 * 100 ms took 170 beside 8 on one processor.  Only a sleep of a tick:
 * a process that slept just before each tick and spun the rest of it,
 * woken first at every tick, took 90% of a processor beside three
 * spinners.
 */
enum { Qwoken, Qturn, Nrunq };
static struct {
	Proc	*head;
	Proc	*tail;
} runq[Nrunq];

extern void	trapret(void);

/*
 * A new process's first swtch, from the scheduler, arrives here with
 * procs held: let go of it, and return into trapret (newproc), a way
 * back to user mode, counting the ticks owed to profilers as trap does.
 */
static void
forkret(void)
{
	unlock(&procs);
	if(up->killed)
		pexit(255);	/* killed before it first ran: it dies before its first user instruction */
	cli();	/* as trap's count: letting go of procs turned interrupts on */
	if(up->profowed)
		profapply();
}

/* Give p's slot back, and its kernel stack. */
static void
freeproc(Proc *p)
{
	kfree(p->kstack);
	ilock(&procs);
	p->kstack = nil;
	p->pid = 0;
	p->parent = nil;
	p->state = Unused;
	unlock(&procs);
}

/*
 * A fresh process with a kernel stack arranged so that the first swtch
 * to it goes through forkret into trapret, and so to user mode through
 * p->ureg; or nil and why: no free slot, or no heap for the stack.
 */
static Proc*
newproc(void)
{
	Proc *p;
	char *sp;

	ilock(&procs);
	for(p = proc; p < proc + NPROC && p->state != Unused; p++)
		;
	if(p == proc + NPROC){
		unlock(&procs);
		seterr(EAGAIN, "no free process");
		return nil;
	}
	p->state = Embryo;
	p->pid = nextpid++;
	p->killed = 0;	/* under procs: a kill may come as soon as the pid is there */
	p->kpin = 0;	/* and kpctl's pid N, which sets it (kern/kpproc.c) */
	p->noteid = p->pid;	/* and a ^C of the slot's last group (pkillgrp) */
	unlock(&procs);
	if((p->kstack = kmalloc(KSTACK)) == nil){
		freeproc(p);
		seterr(ENOMEM, nil);
		return nil;
	}
	sp = p->kstack + KSTACK;
	sp -= sizeof(Ureg);
	p->ureg = (Ureg*)sp;
	sp -= sizeof(uint);
	*(uint*)sp = (uint)trapret;
	sp -= sizeof(Context);
	p->context = (Context*)sp;
	memset(p->context, 0, sizeof(Context));
	p->context->pc = (uint)forkret;
	p->status = 0;
	p->parent = nil;
	p->img = nil;
	p->pgdir = nil;
	p->ticks = p->profticks = p->profowed = 0;
	p->kpticks[0] = p->kpticks[1] = 0;
	memset(p->fd, 0, sizeof p->fd);
	p->errstr[0] = '\0';
	p->fpsave = fpclean;
	return p;
}

/*
 * Make p Runnable, last in its run queue (Qwoken if it slept, and began
 * to run two ticks ago or more), and wake a processor that idles, if
 * there is one, to take it: else it would wait for that one's next
 * tick, and under QEMU's -icount for the busy ones to idle too
 * (tools/test/mp.sh).  procs must be held.
 */
void
ready(Proc *p)
{
	Mach *me = thismach();
	int i, q = p->state == Sleeping && ticks - p->ran >= 2 ? Qwoken : Qturn;

	p->state = Runnable;
	p->rnext = nil;
	if(runq[q].tail != nil)
		runq[q].tail->rnext = p;
	else
		runq[q].head = p;
	runq[q].tail = p;
	for(i = 0; i < nmach; i++)
		if(mach[i].idling && &mach[i] != me){
			mach[i].idling = 0;
			lapicipi(mach[i].apicid, Twake);
			break;
		}
}

/* The first process: /bin/init, in the root directory. */
void
userinit(void)
{
	static char *argv[] = { "init", nil };
	Proc *p;

	if((p = newproc()) == nil || (p->pgdir = newpgdir()) == nil || (p->img = newimage()) == nil)
		panic("userinit: no memory");
	imjoin(p->img, p);
	strcpy(p->dot, "/");
	initproc = p;
	up = p;
	if(kexec("/bin/init", argv) < 0)
		panic("userinit: /bin/init: %s (errno %d)", p->err, p->errno);
	up = nil;
	ilock(&procs);
	ready(p);
	unlock(&procs);
}

/*
 * Run the first process of the run queue, forever; idle when it is
 * empty.  With one processor the last process's page tables stay
 * loaded meanwhile (the next may well be the same process); with more,
 * this one lets go of them and of its TLB's copy, as the process may
 * run next elsewhere, change them or free them.  Interrupts are off but
 * in idle, where ready's interrupt wakes it.  It is idling till it takes
 * a process: woken by each NMI, it looks at the queue, and samples
 * taken meanwhile on other processors counted it busy (thintick).
 */
void
scheduler(void)
{
	Mach *m = thismach();
	Proc *p;
	int q;

	cli();
	for(;;){
		kpscopemark(nil);
		ilock(&procs);
		q = runq[Qwoken].head != nil ? Qwoken : Qturn;
		if((p = runq[q].head) == nil){
			m->idling = 1;
			unlock(&procs);
			idle();
			continue;
		}
		m->idling = 0;
		if((runq[q].head = p->rnext) == nil)
			runq[q].tail = nil;
		m->proc = p;
		kpscopemark(p);
		switchuvm(p);
		fxrstor(&p->fpsave);	/* its FPU registers, until it stops (kern/fpu.c) */
		p->state = Running;
		p->turn = m->ticks;
		p->ran = ticks;
		swtch(&m->sched, p->context);
		fxsave(&p->fpsave);
		m->proc = nil;
		if(nmach > 1)
			switchkvm();
		unlock(&procs);
	}
}

/*
 * Give the processor back to the scheduler, with procs held and no
 * other lock.  Whether interrupts were on is the process's, not the
 * processor's: it may come back on another.
 */
static void
sched(void)
{
	Mach *m = thismach();
	int intena;

	if(!holding(&procs) || m->nlock != 1 || m->ncli != 1)
		panic("sched: locks held");
	if(readeflags() & FL_IF)
		panic("sched: interruptible");
	intena = m->intena;
	swtch(&up->context, m->sched);
	thismach()->intena = intena;
}

/*
 * Let the next runnable process run; if there is none, go on in a turn
 * that starts now, so that one readied later still waits for the next
 * tick, and two that wake each other (a pipe) do not swap at every
 * call.  The first return to user mode after a tick comes here (trap):
 * most find the queue empty, looking without the lock.  A ready racing
 * on another processor is missed only until this one's next tick, an
 * idle processor takes it meanwhile, and the queue is looked at again
 * under the lock before it is used.
 */
void
yield(void)
{
	if(runq[Qwoken].head == nil && runq[Qturn].head == nil){
		up->turn = thismach()->ticks;
		return;
	}
	ilock(&procs);
	if(runq[Qwoken].head != nil || runq[Qturn].head != nil){
		ready(up);
		sched();
	}
	unlock(&procs);
}

/*
 * A scheduling point: a system call that may run long calls this every
 * so often, so that no call keeps the others from the processor for
 * more than a clock tick (10 ms at the default 100 Hz).  If the clock
 * has ticked since this process's turn began, the others have theirs
 * first.  Returns -1, with EINTR, if the process has been killed: the
 * call stops there.  The callers, where time grows with what is asked:
 *
 *	dev/devroot.c	rootread, rootwrite, grow: every 64 KB copied
 *	dev/devuart.c, devcons.c	uartwrite, conswrite: every 64 bytes
 *	dev/devspin.c	spina, spinb: every 64K turns of the loop
 *	kern/mmu.c	mapuser, copypgdir: every page; unmapuser, protectuser,
 *			okuser: every table
 *	kern/exec.c	loadsegs: every program header and page read
 *	kern/sysfile.c	unionread: every directory entry read
 *	kern/chan.c	namec: every element of a path walked
 *	kern/kpproc.c	kpproctext: every 32 lines (2 ms for a full table)
 *	dev/kpgmon.c	kpgmonopen: every histogram record, and every 64
 *			slots of arcswalk's; kpgmonread: every 64 KB
 *	dev/kpstack.c	stackread's snapshot: every stack, every 1024 cells
 *	dev/devkprof.c	kpcells (kpdata's read, kpgmon's open): every Kpchunk cells
 *
 * Everything else a call does is bounded by a small constant: the
 * process or node table, a pipe's 4 KB, a union's 8 directories.
 */
int
schedpoint(void)
{
	if(up == nil)
		return 0;	/* at boot, loading the root file system */
	if(thismach()->ticks != up->turn)
		yield();
	if(up->killed)
		return seterr(EINTR, nil);
	return 0;
}

/* sleep, or with killable sleepintr. */
static void
sleep1(void *chan, Lock *lk, int killable)
{
	int intr = lk->intr;	/* taken by ilock: an interrupt handler takes it too */

	if(lk != &procs){
		ilock(&procs);
		unlock(lk);
	}
	if(!killable || !up->killed){
		up->wchan = chan;
		up->state = Sleeping;
		sched();
		up->wchan = nil;
	}
	if(lk != &procs){
		unlock(&procs);
		/* As it was held: a plain lock would let this CPU's interrupt handler spin on it. */
		if(intr)
			ilock(lk);
		else
			lock(lk);
	}
}

/*
 * Wait for a wakeup on chan.  The caller holds lk, which guards the
 * condition it tested: wakeup's caller must take lk too, so no wakeup
 * falls between the test and the sleep.  lk is held again on return,
 * taken the way the caller took it (lock or ilock).  A kill wakes the
 * sleeper too (killp), which then finds its condition as it was and
 * sleeps again, if it does not give up (sleepintr).
 */
void
sleep(void *chan, Lock *lk)
{
	sleep1(chan, lk, 0);
}

/*
 * sleep, for a caller that gives up when killed (it looks at
 * up->killed, under lk, before it sleeps): a kill that came after that
 * look found the process not yet asleep, and so did not wake it.
 * Looked at again here under procs, which the kill takes: a killed
 * process does not fall asleep, and returns at once.
 */
void
sleepintr(void *chan, Lock *lk)
{
	sleep1(chan, lk, 1);
}

/* Ready the sleepers on chan.  procs must be held. */
static void
wakeup1(void *chan)
{
	Proc *p;

	for(p = proc; p < proc + NPROC; p++)
		if(p->state == Sleeping && p->wchan == chan)
			ready(p);
}

void
wakeup(void *chan)
{
	ilock(&procs);
	wakeup1(chan);
	unlock(&procs);
}

/*
 * Put p in image im with page directory pd, or (nil, nil) out of any,
 * under procs, so that /dev/ps never reads an image being freed, and
 * with interrupts off, so that the clock sees both or neither.  The
 * ticks p ran in the image it leaves count there from now on; those it
 * owed that image's profilers are dropped.
 */
void
procsetimg(Proc *p, Image *im, pte_t *pd)
{
	ilock(&procs);
	if(p->img != nil && p->img != im){
		xadd(&p->img->ticks, p->ticks);
		xadd(&p->img->profticks, p->profticks);
		p->ticks = p->profticks = 0;
	}
	p->img = im;
	p->pgdir = pd;
	p->profowed = 0;
	unlock(&procs);
}

/*
 * fork, and rfork: with RFMEM the child is a thread of the parent's
 * image, its page directory the image's below USHARED and a copy of
 * the parent's stack above; without, it has an image of its own, a
 * copy of the parent's, profilers and all.
 */
int
pfork(int flags)
{
	Image *im = up->img, *nim;
	pte_t *pd;
	Proc *np;
	int i, pid;

	if((np = newproc()) == nil)
		return -1;
	nim = im;
	if((flags & RFMEM) == 0 && (nim = newimage()) == nil){
		freeproc(np);
		return seterr(ENOMEM, nil);
	}
	qlock(&im->mem);
	if((flags & RFMEM) && profonstack(im)){
		qunlock(&im->mem);
		freeproc(np);
		return seterr(EBUSY, "a profiler counts into the stack");
	}
	if(flags & RFMEM){
		if((pd = copypgdir(up->pgdir, USHARED, im->top)) != nil)
			memmove(pd, up->pgdir, PDX(USHARED)*sizeof(pte_t));
	}else{
		/*
		 * The profilers' state, then the samples of the slots it
		 * counts written (profdrain), then the memory: the child has
		 * no sample it counts but lacks.
		 */
		nim->prof = im->prof;
		nim->pcs = im->pcs;
		profdrain(im);
		nim->hbase = im->hbase;
		nim->brk = im->brk;
		nim->top = im->top;
		pd = copypgdir(up->pgdir, 0, im->top);
	}
	if(pd != nil){
		np->pgdir = pd;
		imjoin(nim, np);
	}
	qunlock(&im->mem);
	if(pd == nil){
		if(nim != im)
			kfree(nim);
		freeproc(np);
		return seterr(ENOMEM, nil);
	}
	procsetimg(np, nim, pd);
	*np->ureg = *up->ureg;
	fxsave(&np->fpsave);	/* the parent's registers are in the FPU */
	np->ureg->ax = 0;
	np->ureg->dx = 0;
	np->parent = up;
	strcpy(np->name, up->name);
	strcpy(np->dot, up->dot);
	strcpy(np->errstr, up->errstr);
	for(i = 0; i < NFD; i++)
		if((np->fd[i] = up->fd[i]) != nil)
			incref(np->fd[i]);
	/*
	 * The note group and a kill that came while the memory was copied
	 * go over together, so that no ^C misses a child (a fork bomb).
	 * The child may have been killed itself meanwhile, by its pid.
	 */
	ilock(&procs);
	np->noteid = up->noteid;
	if(up->killed)
		np->killed = 1;
	np->kpin |= up->kpin;	/* under procs, as kpctl's pid sets it, maybe on np as it was made */
	pid = np->pid;	/* before it can run, and exit */
	ready(np);
	unlock(&procs);
	return pid;
}

/*
 * End the current process; its parent collects status with wait.
 * Interrupts on, whatever way it came: a process killed in user mode
 * dies in the trap that brought it in (a clock tick, a fault), with
 * them off, and freeing 96 MB then kept the processor 2 ms with its
 * clock stopped, no scheduling point taken.
 */
void
pexit(int status)
{
	Proc *p;
	int i;

	sti();
	if(up == initproc)
		panic("init exited with status %d", status);
	for(i = 0; i < NFD; i++)
		if(up->fd[i] != nil){
			cclose(up->fd[i]);
			up->fd[i] = nil;
		}
	imleave(nil, nil);
	ilock(&procs);
	for(p = proc; p < proc + NPROC; p++)
		if(p->parent == up){
			p->parent = initproc;
			if(p->state == Zombie)
				wakeup1(initproc);
		}
	up->status = status;
	up->state = Zombie;
	wakeup1(up->parent);
	sched();
	panic("zombie ran");
}

/* Collect a child that has exited: its pid, and its status in *status. */
int
pwait(int *status)
{
	Proc *p;
	char *kstack;
	int havekids, pid;

	ilock(&procs);
	for(;;){
		havekids = 0;
		for(p = proc; p < proc + NPROC; p++){
			if(p->parent != up)
				continue;
			havekids = 1;
			if(p->state != Zombie)
				continue;
			pid = p->pid;
			if(status != nil)
				*status = p->status;
			kpprocreap(p);
			kstack = p->kstack;
			p->kstack = nil;
			p->parent = nil;
			p->pid = 0;
			p->state = Unused;
			unlock(&procs);
			kfree(kstack);
			return pid;
		}
		if(!havekids){
			unlock(&procs);
			return seterr(ECHILD, nil);
		}
		if(up->killed){
			unlock(&procs);
			return seterr(EINTR, nil);
		}
		sleep(up, &procs);
	}
}

/* Mark p to die on its way back to user mode.  procs must be held. */
static void
killp(Proc *p)
{
	p->killed = 1;
	if(p->state == Sleeping)
		ready(p);
}

int
pkill(int pid)
{
	Proc *p;

	ilock(&procs);
	for(p = proc; p < proc + NPROC; p++)
		if(p->pid == pid && p->state != Unused && p->state != Zombie){
			if(p == initproc){
				unlock(&procs);
				return seterr(EPERM, "cannot kill init");
			}
			killp(p);
			unlock(&procs);
			return 0;
		}
	unlock(&procs);
	return seterr(ESRCH, nil);
}

/*
 * Kill every process of note group id but init: the console's ^C.
 * A process starts in its parent's group; setnoteid moves it.  The
 * shell puts each command it runs in a group of its own, and tells
 * the console (consctl fg) which one is in the foreground.
 */
void
pkillgrp(int id)
{
	Proc *p;

	ilock(&procs);
	for(p = proc; p < proc + NPROC; p++)
		if(p->noteid == id && p != initproc && p->state != Unused && p->state != Zombie)
			killp(p);
	unlock(&procs);
}

/* f on every process in the table, then on nil, under procs: f must not sleep. */
void
procsweep(void (*f)(Proc*, void*), void *a)
{
	Proc *p;

	ilock(&procs);
	for(p = proc; p < proc + NPROC; p++)
		if(p->state != Unused)
			f(p, a);
	f(nil, a);
	unlock(&procs);
}
