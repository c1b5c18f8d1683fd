/*
 * The kernel profiler's view of processes (kprof(3)): its scope, the
 * processes whose ticks #T counts, and its ticks by process, kpproc.
 *
 * The scope is a bit in each Proc, kpin, that fork copies: `pid N'
 * sets it on N alone, so N and what it forks from then on are in
 * scope, and kpscoped tells the NMI to count only them.  Idle, no
 * process, is never in scope.
 *
 * The NMI counts a process's user and kernel ticks in the Proc itself
 * (kpticks): only the processor the process runs on writes them, since
 * the scheduler gives a process to another only once this one has let
 * it go (kern/proc.c).  startclr zeroes them while no NMI counts.  A
 * process reaped leaves them here, in a bounded table kept until the
 * next startclr, of the busiest; the rest are summed in one overflow
 * line.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "kprof.h"

enum {
	Nkpexit	= 256,	/* exited processes kpproc keeps */
};

typedef struct Kpexit {
	int	pid;
	int	ppid;		/* its parent when it was reaped */
	char	name[NAMELEN];
	uint	ticks[2];	/* user, kernel */
} Kpexit;

volatile uint	kpscoped;	/* 1: count only the processes with kpin set */
static int	scopepid = -1;	/* the pid in scope, or -1 for all: under devkprof's kproflk */
/* The rest are guarded by procs: they are used under it (procsweep, pwait). */
static Kpexit	kpexit[Nkpexit];	/* the run's exited processes */
static int	nkpexit;	/* of kpexit in use */
static uint	nover;		/* processes the table had no room for */
static uint	over[2];	/* their ticks */

typedef struct Scope {
	int	pid;		/* in scope, or -1 for none */
	int	found;		/* processes with that pid */
} Scope;

static void
kpfind(Proc *p, void *a)
{
	Scope *s = a;

	if(p != nil && p->pid == s->pid && p->state != Zombie)
		s->found++;
}

static void
kpmark(Proc *p, void *a)
{
	if(p != nil)
		p->kpin = p->pid == ((Scope*)a)->pid;
}

/*
 * kpctl's pid arg: scope kprof to process arg and to what it forks
 * from now on, or, arg all, to everything.  -1, and nothing changed,
 * if arg is not all or decimal digits alone, or names no process.
 */
int
kpscope(char *arg)
{
	Scope s = { -1, 0 };
	uint pid;

	if(strcmp(arg, "all") != 0){
		if(decimal(arg, 100000000, &pid) < 0)
			return seterr(EINVAL, "bad control message");
		s.pid = pid;
		procsweep(kpfind, &s);
		if(s.found == 0)
			return seterr(ESRCH, "no such process");
	}
	procsweep(kpmark, &s);
	kpscoped = s.pid >= 0;
	scopepid = s.pid;
	kpscopemark(up);
	return 0;
}

/*
 * Mark, for an exact count of the scope alone (kern/kprof.h, KPSCOPE),
 * whether what this processor runs from here, process p or none, is
 * in kprof's scope, as kpproctick would find it.  The scheduler marks
 * each process it takes up and each time it comes back; kpscope marks
 * the process that changed the scope.  A process that another
 * processor runs meanwhile is marked at its next switch.
 */
void
kpscopemark(Proc *p)
{
	if(p == nil)
		KPSCOPE(kpscoped ? 0 : KPSCIN, 0);
	else
		KPSCOPE((p->kpin >= kpscoped ? KPSCIN : 0) | KPSCPROC, PADDR(p->pgdir));
}

/* The scope, as kpctl's status line says it: a pid, or all; in buf. */
char*
kpscopename(char *buf, int n)
{
	if(scopepid < 0)
		snprintf(buf, n, "all");
	else
		snprintf(buf, n, "%d", scopepid);
	return buf;
}

static void
kpnewrun(Proc *p, void *a)
{
	USED(a);
	if(p != nil){
		p->kpticks[0] = p->kpticks[1] = 0;
		return;
	}
	nkpexit = 0;
	nover = 0;
	over[0] = over[1] = 0;
}

/* A new run, while no NMI counts (startclr): no ticks in any process, and an empty table of exited ones. */
void
kpprocclear(void)
{
	procsweep(kpnewrun, nil);
}

/*
 * Process p, a zombie that its parent reaps, under procs: keep its
 * ticks.  A full table keeps the busiest: the least busy of it and p
 * goes to the overflow.
 */
void
kpprocreap(Proc *p)
{
	Kpexit *e, *min;

	if((p->kpticks[0] | p->kpticks[1]) == 0)
		return;
	if(nkpexit < Nkpexit)
		e = &kpexit[nkpexit++];
	else{
		for(min = e = kpexit; e < kpexit + Nkpexit; e++)
			if(e->ticks[0] + e->ticks[1] < min->ticks[0] + min->ticks[1])
				min = e;
		nover++;
		if(p->kpticks[0] + p->kpticks[1] <= min->ticks[0] + min->ticks[1]){
			over[0] += p->kpticks[0];
			over[1] += p->kpticks[1];
			return;
		}
		over[0] += min->ticks[0];
		over[1] += min->ticks[1];
		e = min;
	}
	e->pid = p->pid;
	e->ppid = up->pid;
	strcpy(e->name, p->name);
	e->ticks[0] = p->kpticks[0];
	e->ticks[1] = p->kpticks[1];
}

/*
 * kpproc's rows, copied under procs by kpcopy: only the copy holds it,
 * the scheduler's lock, with interrupts off.  The 300-odd lines are
 * printed after, with a scheduling point every 32: a read is some
 * 2 ms, and a reader on each processor, which the clock finds in user
 * mode too seldom to preempt, kept every other process from running
 * (a sleep of 100 ticks at 10000 Hz took 661 on 4 processors).
 */
typedef struct Rows {
	Kpexit	*row;		/* NPROC + Nkpexit of them: the live, then the exited */
	int	n;		/* of row in use */
	uint	nover;		/* the overflow line's numbers */
	uint	over[2];
} Rows;

static void
kpcopy(Proc *p, void *a)
{
	Rows *r = a;
	Kpexit *e;

	if(p == nil){
		memmove(r->row + r->n, kpexit, nkpexit * sizeof kpexit[0]);
		r->n += nkpexit;
		r->nover = nover;
		r->over[0] = over[0];
		r->over[1] = over[1];
		return;
	}
	if((p->kpticks[0] | p->kpticks[1]) == 0)
		return;
	e = &r->row[r->n++];
	e->pid = p->pid;
	e->ppid = p->parent != nil ? p->parent->pid : 0;
	strcpy(e->name, p->name);
	e->ticks[0] = p->kpticks[0];
	e->ticks[1] = p->kpticks[1];
}

/* kpproc's text, as one read at offset 0 made it. */
typedef struct Kptext {
	long	len;		/* bytes of s */
	char	s[];
} Kptext;

/*
 * kpproc's text (kern/kprof.h) now, made where every line fits (NAMELEN
 * and three numbers of 10 digits) and kept in a copy of its size: the
 * open holds it, so it is a process's to ask for (kmallocdata).
 */
static Kptext*
kpproctext(void)
{
	Rows r = { nil, 0, 0, { 0, 0 } };
	Kpexit *e;
	Kptext *t = nil;
	char *s;
	int len = 0, max = (NPROC + Nkpexit + 1) * (NAMELEN + 4*12);

	if((r.row = kmalloc((NPROC + Nkpexit) * sizeof r.row[0])) == nil || (s = kmalloc(max)) == nil){
		kfree(r.row);
		seterr(ENOMEM, nil);
		return nil;
	}
	procsweep(kpcopy, &r);
	s[0] = '\0';
	for(e = r.row; e < r.row + r.n; e++){
		if((e - r.row) % 32 == 31 && schedpoint() < 0)
			goto out;
		len += snprintf(s + len, max - len, "%d %d %s %u %u\n", e->pid, e->ppid, e->name, e->ticks[0], e->ticks[1]);
	}
	if(r.nover != 0)
		len += snprintf(s + len, max - len, "overflow %u %u %u\n", r.nover, r.over[0], r.over[1]);
	if((t = kmallocdata(sizeof *t + len)) == nil){
		seterr(ENOMEM, nil);
		goto out;
	}
	t->len = len;
	memmove(t->s, s, len);
out:
	kfree(s);
	kfree(r.row);
	return t;
}

/*
 * kpproc from off, for the open c.  A read at offset 0 (or the open's
 * first) takes the text anew and keeps it in c for the reads after it,
 * so that a reader in pieces gets one table: between two reads a
 * process reaped moves its line to the end, and a count grows a digit,
 * and pieces of two tables tore lines in two.
 */
long
kpprocread(Chan *c, void *buf, long n, uvlong off)
{
	Kptext *t = c->aux;

	if(off == 0 || t == nil){
		if((t = kpproctext()) == nil)
			return -1;
		kfree(c->aux);
		c->aux = t;
	}
	if(off >= (uvlong)t->len)
		return 0;
	if(n > (long)(t->len - off))
		n = t->len - off;
	memmove(buf, t->s + off, n);
	return n;
}
