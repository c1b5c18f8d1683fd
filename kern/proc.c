/*
 * Processes: creation, the scheduler, sleep and wakeup, fork, exit,
 * wait and kill, and note groups.  There is one processor, and a
 * process in the kernel is never preempted, only interrupted; so
 * interrupts need be off (splhi ... splx) only around what interrupt
 * handlers touch too: the processes' states and the run queue
 * (wakeup), console and serial input, the profilers.  A process in the
 * kernel gives the processor up only where it sleeps, and at the
 * scheduling points of long system calls (schedpoint).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

static Proc	proc[NPROC];
static Context	*schedctx;	/* the scheduler's, for sched to return to */
static int	nextpid = 1;
static Proc	*initproc;
Proc	*up;

/*
 * The run queue: the Runnable processes, first come first served,
 * linked through rnext.  Interrupts off to touch it.
 */
static struct {
	Proc	*head;
	Proc	*tail;
} runq;

extern void	trapret(void);

/* Interrupts off; returns whether they were on, for splx. */
int
splhi(void)
{
	int s = readeflags() & FL_IF;

	cli();
	return s;
}

void
splx(int s)
{
	if(s)
		sti();
}

/*
 * A fresh process with a kernel stack arranged so that the first swtch
 * to it returns into trapret, and so to user mode through p->ureg.
 */
static Proc*
newproc(void)
{
	Proc *p;
	char *sp;
	int s;

	s = splhi();
	for(p = proc; p < proc + NPROC; p++)
		if(p->state == Unused)
			break;
	if(p == proc + NPROC){
		splx(s);
		return nil;
	}
	p->state = Embryo;
	p->pid = nextpid++;
	splx(s);
	if((p->kstack = kmalloc(KSTACK)) == nil){
		p->state = Unused;
		return nil;
	}
	sp = p->kstack + KSTACK;
	sp -= sizeof(Ureg);
	p->ureg = (Ureg*)sp;
	sp -= sizeof(Context);
	p->context = (Context*)sp;
	memset(p->context, 0, sizeof(Context));
	p->context->pc = (uint)trapret;
	p->killed = 0;
	p->status = 0;
	p->parent = nil;
	p->noteid = p->pid;
	memset(&p->prof, 0, sizeof p->prof);
	memset(&p->pcs, 0, sizeof p->pcs);
	memset(p->fd, 0, sizeof p->fd);
	p->errstr[0] = '\0';
	p->fpsave = fpclean;
	return p;
}

/* Make p Runnable, last in the run queue.  Interrupts must be off. */
static void
ready(Proc *p)
{
	p->state = Runnable;
	p->rnext = nil;
	if(runq.tail != nil)
		runq.tail->rnext = p;
	else
		runq.head = p;
	runq.tail = p;
}

/* The first process: /bin/init, in the root directory. */
void
userinit(void)
{
	static char *argv[] = { "init", nil };
	Proc *p;

	if((p = newproc()) == nil || (p->pgdir = newpgdir()) == nil)
		panic("userinit: no memory");
	strcpy(p->dot, "/");
	initproc = p;
	up = p;
	if(kexec("/bin/init", argv) < 0)
		panic("userinit: /bin/init: %s (errno %d)", p->err, p->errno);
	up = nil;
	splhi();
	ready(p);
}

/* The hlt that the profiles show as idle time. */
static void __attribute__((noinline))
idle(void)
{
	asm volatile("sti; hlt; cli");
}

/*
 * Run the first process of the run queue, forever; idle when it is
 * empty.  The last process's page tables stay loaded meanwhile: the
 * kernel half is the same in all, and the next process may well be the
 * same one.
 */
void
scheduler(void)
{
	Proc *p;

	cli();
	for(;;){
		while((p = runq.head) == nil)
			idle();
		runq.head = p->rnext;
		if(runq.head == nil)
			runq.tail = nil;
		up = p;
		switchuvm(p);
		fxrstor(&p->fpsave);	/* its FPU registers, until it stops (kern/fpu.c) */
		p->state = Running;
		p->turn = ticks;
		swtch(&schedctx, p->context);
		fxsave(&p->fpsave);
		up = nil;
	}
}

/* Give the processor back to the scheduler.  Interrupts must be off. */
static void
sched(void)
{
	if(readeflags() & FL_IF)
		panic("sched: interruptible");
	swtch(&up->context, schedctx);
}

/* Let the next runnable process run; if there is none, go on at once. */
void
yield(void)
{
	int s = splhi();

	if(runq.head != nil){
		ready(up);
		sched();
	}
	splx(s);
}

/*
 * A scheduling point: a system call that may run long calls this every
 * so often, so that no call keeps the others from the processor for
 * more than a clock tick (10 ms at the default 100 Hz).  If the clock
 * has ticked since this process's turn began, the others have theirs
 * first.  Returns -1, with EINTR, if the process has been killed: the
 * call stops there.  The callers, where the time may grow with what
 * the user asks for:
 *
 *	dev/devroot.c	rootread, rootwrite, grow: every 64 KB copied
 *	dev/devuart.c	uartwrite: every 64 bytes sent
 *	dev/devcons.c	conswrite: every 64 bytes printed
 *	dev/devspin.c	spina, spinb: every 64K turns of the loop
 *	kern/mmu.c	mapuser, copypgdir: every page (sbrk, exec, fork)
 *	kern/exec.c	loadsegs: every page read
 *
 * Everything else a call does is bounded by a small constant: a path,
 * the process or node table, a pipe's 4 KB, a union's 8 directories.
 */
int
schedpoint(void)
{
	if(up == nil)
		return 0;	/* at boot, loading the root file system */
	if(ticks != up->turn)
		yield();
	if(up->killed)
		return seterr(EINTR, nil);
	return 0;
}

/*
 * Wait for a wakeup on chan.  Interrupts must be off since the caller
 * tested its condition, so that no wakeup is lost in between.
 */
void
sleep(void *chan)
{
	up->wchan = chan;
	up->state = Sleeping;
	sched();
	up->wchan = nil;
}

void
wakeup(void *chan)
{
	Proc *p;
	int s = splhi();

	for(p = proc; p < proc + NPROC; p++)
		if(p->state == Sleeping && p->wchan == chan)
			ready(p);
	splx(s);
}

/*
 * Sleep for ms milliseconds, or until killed.  The comparisons of
 * ticks reach less than 2^31 ahead, and a long sleep at a high clock
 * rate is longer than that (2^31 ms at 10000 Hz is 2^34 ticks): it is
 * slept in pieces.
 */
void
tsleep(uint ms)
{
	uvlong left = ms2tick(ms);
	uint until, n;
	int s = splhi();

	while(left > 0 && !up->killed){
		n = left < Never ? left : Never;
		left -= n;
		until = ticks + n;
		while((int)(ticks - until) < 0 && !up->killed){
			wakeat(until);
			sleep(&ticks);
		}
	}
	splx(s);
}

int
pfork(void)
{
	Proc *np;
	int i, s;

	if((np = newproc()) == nil)
		return seterr(EAGAIN, "no free process");
	/*
	 * The profilers' state before the memory: a tick during the copy
	 * then leaves the child no sample it counts but lacks.
	 */
	np->prof = up->prof;
	np->pcs = up->pcs;
	profforget(np);
	if((np->pgdir = copypgdir(up->pgdir)) == nil){
		kfree(np->kstack);
		np->state = Unused;
		return seterr(ENOMEM, nil);
	}
	*np->ureg = *up->ureg;
	fxsave(&np->fpsave);	/* the parent's registers are in the FPU */
	np->ureg->ax = 0;
	np->ureg->dx = 0;
	np->hbase = up->hbase;
	np->brk = up->brk;
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
	 */
	s = splhi();
	np->noteid = up->noteid;
	np->killed = up->killed;
	ready(np);
	splx(s);
	return np->pid;
}

/* End the current process; its parent collects status with wait. */
void
pexit(int status)
{
	Proc *p;
	pte_t *pd;
	int i;

	if(up == initproc)
		panic("init exited with status %d", status);
	for(i = 0; i < NFD; i++)
		if(up->fd[i] != nil){
			cclose(up->fd[i]);
			up->fd[i] = nil;
		}
	up->prof.buf = 0;
	up->pcs.buf = 0;
	profforget(up);
	pd = up->pgdir;
	up->pgdir = nil;
	switchkvm();
	freepgdir(pd);
	splhi();
	for(p = proc; p < proc + NPROC; p++)
		if(p->parent == up){
			p->parent = initproc;
			if(p->state == Zombie)
				wakeup(initproc);
		}
	up->status = status;
	up->state = Zombie;
	wakeup(up->parent);
	sched();
	panic("zombie ran");
}

/* Collect a child that has exited: its pid, and its status in *status. */
int
pwait(int *status)
{
	Proc *p;
	int havekids, pid, s;

	s = splhi();
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
			kfree(p->kstack);
			p->kstack = nil;
			p->parent = nil;
			p->pid = 0;
			p->state = Unused;
			splx(s);
			return pid;
		}
		if(!havekids){
			splx(s);
			return seterr(ECHILD, nil);
		}
		if(up->killed){
			splx(s);
			return seterr(EINTR, nil);
		}
		sleep(up);
	}
}

/* Mark p to die on its way back to user mode.  Interrupts are off. */
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
	int s = splhi();

	for(p = proc; p < proc + NPROC; p++)
		if(p->pid == pid && p->state != Unused && p->state != Zombie){
			if(p == initproc){
				splx(s);
				return seterr(EPERM, "cannot kill init");
			}
			killp(p);
			splx(s);
			return 0;
		}
	splx(s);
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
	int s = splhi();

	for(p = proc; p < proc + NPROC; p++)
		if(p->noteid == id && p != initproc && p->state != Unused && p->state != Zombie)
			killp(p);
	splx(s);
}

/* The text of /dev/ps: a line per process. */
int
procdump(char *buf, int n)
{
	static char *states[] = { "unused", "embryo", "sleep", "ready", "run", "zombie" };
	Proc *p;
	int len = 0;

	len += snprintf(buf, n, "%5s %5s %-7s %8s %s\n", "pid", "ppid", "state", "mem", "name");
	for(p = proc; p < proc + NPROC && len < n; p++){
		if(p->state == Unused)
			continue;
		len += snprintf(buf + len, n - len, "%5d %5d %-7s %7dK %s\n", p->pid,
			p->parent ? p->parent->pid : 0, states[p->state],
			(p->brk - UTZERO + USTACKSIZE)/1024, p->name);
	}
	return len < n ? len : n;
}
