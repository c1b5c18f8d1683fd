/*
 * System calls: the table, the dispatcher, and the checks every call
 * makes on what user code hands it.  A call's arguments are the words
 * above the user stack pointer; its result goes back in ax and, if
 * that is -1, its errno in dx.  (A call can meet errors on its way to
 * success, walking a union directory say: only a failure reports one.)
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

static long (*systab[NSYSCALL])(uint*) = {
	[SYS_exit]	sysexit,
	[SYS_fork]	sysfork,
	[SYS_wait]	syswait,
	[SYS_exec]	sysexec,
	[SYS_getpid]	sysgetpid,
	[SYS_sbrk]	syssbrk,
	[SYS_sleep]	syssleep,
	[SYS_kill]	syskill,
	[SYS_pipe]	syspipe,
	[SYS_dup]	sysdup,
	[SYS_dup2]	sysdup2,
	[SYS_open]	sysopen,
	[SYS_create]	syscreate,
	[SYS_read]	sysread,
	[SYS_write]	syswrite,
	[SYS_seek]	sysseek,
	[SYS_close]	sysclose,
	[SYS_stat]	sysstat,
	[SYS_fstat]	sysfstat,
	[SYS_remove]	sysremove,
	[SYS_chdir]	syschdir,
	[SYS_mkdir]	sysmkdir,
	[SYS_bind]	sysbind,
	[SYS_errstr]	syserrstr,
	[SYS_profil]	sysprofil,
	[SYS_pcsample]	syspcsample,
};

enum { NARG = 5 };

/* Record an error for the system call in progress; returns -1. */
int
seterr(int e, char *msg)
{
	if(up != nil){
		up->errno = e;
		strlcpy(up->err, msg != nil ? msg : strerror(e), ERRMAX);
	}
	return -1;
}

void
syscall(Ureg *u)
{
	uint arg[NARG], n = u->ax;
	uint *p;
	long r;
	int i;

	up->errno = 0;
	for(i = 0; i < NARG; i++){
		p = uaddr(up->pgdir, u->sp + 4 + 4*i, 0);
		arg[i] = p != nil && (u->sp + 4 + 4*i) % 4 == 0 ? *p : 0;
	}
	if(n < NSYSCALL && systab[n] != nil)
		r = systab[n](arg);
	else
		r = seterr(ENOSYS, "bad system call");
	u->ax = r;
	u->dx = r == -1 ? up->errno : 0;
}

/* Copy a user string of fewer than max bytes into buf. */
int
fetchstr(uintptr va, char *buf, int max)
{
	char *p;
	int i;

	for(i = 0; i < max; i++){
		if((p = uaddr(up->pgdir, va + i, 0)) == nil)
			return seterr(EFAULT, nil);
		if((buf[i] = *p) == '\0')
			return 0;
	}
	return seterr(ENAMETOOLONG, nil);
}

/* Is [va, va+n) the current process's memory?  If not, EFAULT. */
int
uvalid(uintptr va, uint n, int write)
{
	if(!okuser(va, n, write))
		return seterr(EFAULT, nil);
	return 0;
}
