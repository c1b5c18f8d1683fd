/*
 * The system-call interface shared by the kernel and the C library:
 * call numbers, error numbers, open modes, bind flags and the
 * directory entry.  Defined here only: the kernel includes it as
 * "sys.h", the C library's headers as "kern/sys.h".
 *
 * A user program calls `int $0x40` with the call number in eax and the
 * arguments on its stack, as a cdecl call would leave them.  The kernel
 * returns the result in eax and an errno in edx (0 when all went well).
 */
#ifndef SYS_H
#define SYS_H

#define T_SYSCALL	0x40

#define SYS_exit	1
#define SYS_fork	2
#define SYS_wait	3
#define SYS_exec	4
#define SYS_getpid	5
#define SYS_sbrk	6
#define SYS_sleep	7
#define SYS_kill	8
#define SYS_pipe	9
#define SYS_dup		10
#define SYS_dup2	11
#define SYS_open	12
#define SYS_create	13
#define SYS_read	14
#define SYS_write	15
#define SYS_seek	16
#define SYS_close	17
#define SYS_stat	18
#define SYS_fstat	19
#define SYS_remove	20
#define SYS_chdir	21
#define SYS_mkdir	22
#define SYS_bind	23
#define SYS_errstr	24
#define SYS_profil	25
#define SYS_pcsample	26
#define SYS_unmount	27
#define SYS_setnoteid	28
#define SYS_getwd	29
#define SYS_rfork	30
#define NSYSCALL	31

/* rfork flags, with Plan 9's values: the only two this kernel knows */
#define RFPROC		(1<<4)	/* a new process */
#define RFMEM		(1<<5)	/* sharing data, bss and heap: a thread */

/* Error numbers, with Linux's values. */
#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define ECHILD		10
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EXDEV		18
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define EMFILE		24
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define EPIPE		32
#define ERANGE		34
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ENOTEMPTY	39

/* open modes */
#define O_RDONLY	0
#define O_WRONLY	1
#define O_RDWR		2
#define O_ACCMODE	3
#define O_CREAT		0x40
#define O_TRUNC		0x200
#define O_APPEND	0x400

/* seek whence */
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

/* bind flags, as Plan 9's */
#define MREPL		0	/* new replaces old */
#define MBEFORE		1	/* union: new, then old */
#define MAFTER		2	/* union: old, then new */

#define DMDIR		0x80000000	/* mode bit: a directory */

/* The user address space: programs are linked at UTZERO (user/user.ld). */
#define UTZERO		0x1000
#define USEREND		0xC0000000	/* first address above user space */

#define NAMELEN		32	/* longest path element, with its NUL */
#define ERRMAX		64	/* longest error string, with its NUL */
#define MAXARG		32	/* arguments exec takes, argv[0] among them */

/* What stat returns, and what a read of a directory returns a run of. */
struct Dir {
	char	name[NAMELEN];	/* last element of the path */
	unsigned long long	qid;	/* unique within its device, never reused */
	unsigned int	mode;	/* DMDIR | permission bits */
	unsigned int	length;	/* bytes; 0 for directories */
	unsigned int	type;	/* device letter, e.g. 'c' */
};

#endif
