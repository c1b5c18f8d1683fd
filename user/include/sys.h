/*
 * The system-call interface shared by the kernel and the C library:
 * call numbers, open modes, bind flags and the directory entry.
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
#define SYS_setnoteid	27
#define SYS_getwd	28
#define NSYSCALL	29

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

#define NAMELEN		32	/* longest path element, with its NUL */
#define ERRMAX		64	/* longest error string, with its NUL */

/* What stat returns, and what a read of a directory returns a run of. */
struct Dir {
	char	name[NAMELEN];	/* last element of the path */
	unsigned int	qid;	/* unique within its device */
	unsigned int	mode;	/* DMDIR | permission bits */
	unsigned int	length;	/* bytes; 0 for directories */
	unsigned short	type;	/* device letter, e.g. 'c' */
	unsigned short	dev;	/* instance of that device */
};

#endif
