/* The system calls that deal with processes (sbrk and rfork: kern/image.c). */
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
	return pfork(0);
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
