/*
 * The system calls, one C function each (user/lib/syscall.asm),
 * and a few helpers built on them.  On failure a call returns -1
 * and sets errno; errstr gives the kernel's message for it.
 */
#ifndef UNISTD_H
#define UNISTD_H
#include <stddef.h>
#include "stdint.h"
#include "kern/sys.h"

void	_exit(int) __attribute__((noreturn));
int	fork(void);
int	rfork(int flags);		/* RFPROC, | RFMEM for a thread: rfork(2) */
int	wait(int *status);		/* returns the pid of a child that exited */
int	exec(const char *path, char *const argv[]);
int	getpid(void);
void	*sbrk(int incr);		/* returns the old break, or (void*)-1 */
int	sleep(int ms);			/* milliseconds, unlike Unix's seconds */
int	kill(int pid);
int	pipe(int fd[2]);
int	dup(int fd);
int	dup2(int fd, int newfd);
int	open(const char *path, int mode);
int	create(const char *path, int mode, int perm);	/* perm DMDIR: a directory */
long	read(int fd, void *buf, long n);
long	write(int fd, const void *buf, long n);
long	seek(int fd, long off, int whence);
int	close(int fd);
int	stat(const char *path, struct Dir *d);
int	fstat(int fd, struct Dir *d);
int	remove(const char *path);
int	chdir(const char *path);
int	mkdir(const char *path);
int	bind(const char *new, const char *old, int flag);
int	unmount(const char *new, const char *old);	/* new NULL: every bind onto old */
int	errstr(char *buf, int n);
int	setnoteid(int id);		/* join note group id; 0: a new one */
int	getwd(char *buf, int n);	/* the current directory */
int	profil(unsigned short *buf, size_t bufsiz, size_t offset, unsigned int scale);
long	syscall(int num, ...);		/* any call by number, up to 4 arguments */

/* Helpers in the C library. */
long	copyfd(int from, int to);	/* copy until end of file; bytes, Copyread or Copywrite */
enum { Copyread = -1, Copywrite = -2 };	/* copyfd's failures: a read, a write */
long	readwhole(const char *path, char *buf, long n);	/* at most n-1 bytes of path, NUL-ended; bytes or -1 */
int	poweroff(int status);		/* write "off status" to #c/power, the console device's power */

#endif
