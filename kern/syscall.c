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

/* Each call's function, and how many argument words it takes. */
static struct {
	long	(*f)(uint*);
	int	nargs;
} systab[NSYSCALL] = {
	[SYS_exit]	{ sysexit,	1 },
	[SYS_fork]	{ sysfork,	0 },
	[SYS_wait]	{ syswait,	1 },
	[SYS_exec]	{ sysexec,	2 },
	[SYS_getpid]	{ sysgetpid,	0 },
	[SYS_sbrk]	{ syssbrk,	1 },
	[SYS_sleep]	{ syssleep,	1 },
	[SYS_kill]	{ syskill,	1 },
	[SYS_pipe]	{ syspipe,	1 },
	[SYS_dup]	{ sysdup,	1 },
	[SYS_dup2]	{ sysdup2,	2 },
	[SYS_open]	{ sysopen,	2 },
	[SYS_create]	{ syscreate,	3 },
	[SYS_read]	{ sysread,	3 },
	[SYS_write]	{ syswrite,	3 },
	[SYS_seek]	{ sysseek,	3 },
	[SYS_close]	{ sysclose,	1 },
	[SYS_stat]	{ sysstat,	2 },
	[SYS_fstat]	{ sysfstat,	2 },
	[SYS_remove]	{ sysremove,	1 },
	[SYS_chdir]	{ syschdir,	1 },
	[SYS_mkdir]	{ sysmkdir,	1 },
	[SYS_bind]	{ sysbind,	3 },
	[SYS_errstr]	{ syserrstr,	2 },
	[SYS_profil]	{ sysprofil,	4 },
	[SYS_pcsample]	{ syspcsample,	2 },
	[SYS_unmount]	{ sysunmount,	2 },
	[SYS_setnoteid]	{ syssetnoteid,	1 },
	[SYS_getwd]	{ sysgetwd,	2 },
	[SYS_rfork]	{ sysrfork,	1 },
};

enum { NARG = 4 };	/* the most any call takes */

/*
 * Record an error for the system call in progress; returns -1.  It
 * becomes what errstr reads only if the call fails.
 */
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
	uintptr va;
	long r;
	int i;

	if(up->killed)
		pexit(255);	/* killed while it ran in user mode: it makes no more calls */
	up->errno = 0;
	up->err[0] = '\0';
	if(n >= NSYSCALL || systab[n].f == nil)
		r = seterr(ENOSYS, "bad system call");
	else{
		for(i = 0; i < systab[n].nargs; i++){
			va = u->sp + 4 + 4*i;
			if(!okuser(va, 4, 0))
				break;
			arg[i] = *(uint*)va;
		}
		if(i < systab[n].nargs)
			r = seterr(EFAULT, "arguments not in user memory");
		else
			r = systab[n].f(arg);
	}
	u->ax = r;
	u->dx = 0;
	if(r == -1){
		u->dx = up->errno;
		memmove(up->errstr, up->err, ERRMAX);
	}
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
