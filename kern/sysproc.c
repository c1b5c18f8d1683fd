/* The system calls that deal with processes and memory. */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

long
sysexit(uint *arg)
{
	pexit(arg[0]);
	return 0;
}

long
sysfork(uint *arg)
{
	USED(arg);
	return pfork();
}

/* wait(status): status may be nil. */
long
syswait(uint *arg)
{
	int pid, status;

	if(arg[0] != 0 && uvalid(arg[0], sizeof(int), 1) < 0)
		return -1;
	pid = pwait(&status);
	if(pid > 0 && arg[0] != 0)
		*(int*)arg[0] = status;
	return pid;
}

long
sysgetpid(uint *arg)
{
	USED(arg);
	return up->pid;
}

/* Unmap the current process's heap pages in [lo, hi). */
static void
unmapheap(uintptr lo, uintptr hi)
{
	int s = splhi();	/* see profforget */

	unmapuser(up->pgdir, lo, hi);
	profforget(up);
	splx(s);
	flushtlb();
}

/*
 * sbrk(n): move the end of the heap by n bytes, mapping or unmapping
 * whole pages, and return the old end.  A request for more pages than
 * are free fails at once, not after zeroing them all.
 */
long
syssbrk(uint *arg)
{
	int n = arg[0];
	uintptr old = up->brk, new = old + n, top = ROUNDUP(old, BY2PG);

	if(n > 0 && (new < old || new > USTACK - BY2PG
	|| (new > top && (new - top) / BY2PG > (uint)pagesfree())))
		return seterr(ENOMEM, nil);
	if(n < 0 && (new > old || new < up->hbase))
		return seterr(EINVAL, "sbrk below the heap");
	if(new > top && mapuser(up->pgdir, top, new) < 0){
		unmapheap(top, new);
		return seterr(ENOMEM, nil);
	}
	if(n < 0)
		unmapheap(ROUNDUP(new, BY2PG), top);
	up->brk = new;
	return old;
}

long
syssleep(uint *arg)
{
	if((int)arg[0] < 0)
		return seterr(EINVAL, nil);
	tsleep(arg[0]);
	if(up->killed)
		return seterr(EINTR, nil);
	return 0;
}

long
syskill(uint *arg)
{
	return pkill(arg[0]);
}

long
syserrstr(uint *arg)
{
	uint n = arg[1];

	if((int)n < 0)
		return seterr(EINVAL, "negative length");
	if(n == 0)
		return 0;
	if(n > ERRMAX)
		n = ERRMAX;
	if(uvalid(arg[0], n, 1) < 0)
		return -1;
	strlcpy((char*)arg[0], up->errstr, n);
	return 0;
}

/*
 * setnoteid(id): join note group id, or with 0 start a group named by
 * the caller's pid; returns the group.  Any group may be joined: as
 * with kill, there are no users here to keep apart.
 */
long
syssetnoteid(uint *arg)
{
	int id = arg[0];

	if(id < 0)
		return seterr(EINVAL, "bad note group");
	up->noteid = id == 0 ? up->pid : id;
	return up->noteid;
}
