/* The kernel's functions, by the file that defines them. */
#include <stdarg.h>
#include <stddef.h>
#include "string.h"
#include "stdio.h"

enum {
	IRQ0		= 32,	/* vector of IRQ 0 */
	IRQclock	= 0,
	IRQuart1	= 3,
	IRQuart0	= 4,
};

/* alloc.c */
void	pageinit(uintptr, uintptr);
void	*pagealloc(void);
void	pagefree(void*);
int	pagesfree(void);
int	pagestotal(void);
void	*kmalloc(uint);
void	kfree(void*);
uint	heapinuse(void);
uint	heapfree(void);

/* chan.c */
Chan	*newchan(int, int, uint);
void	incref(Chan*);
void	cclose(Chan*);
Chan	*cclone(Chan*);
int	unionof(Chan*, Chan**);
int	cleanpath(char*, char*, char*);
Chan	*namec(char*, char*);
int	kbind(char*, char*, int);
void	chaninit(Chan*);

/* clock.c */
void	clockinit(void);
void	clock(Ureg*);
uint	ms2tick(uint);
void	wakeat(uint);

/* dev.c */
void	devinit(void);
Chan	*devattach(int);
int	devwalk(Chan*, char*, Dirtab*, int);
int	devstat(Chan*, Dir*, Dirtab*, int);
long	devdirread(Chan*, void*, long, uvlong, Dirtab*, int);
long	readstr(uvlong, void*, long, char*);
int	iscmd(char*, long, char*);

/* exec.c */
int	kexec(char*, char**);
long	sysexec(uint*);

/* mmu.c */
void	mmuinit(void);
pte_t	*newpgdir(void);
void	unmapuser(pte_t*, uintptr, uintptr);
int	mapuser(pte_t*, uintptr, uintptr);
void	protectuser(pte_t*, uintptr, uintptr);
void	freepgdir(pte_t*);
pte_t	*copypgdir(pte_t*);
void	*uaddr(pte_t*, uintptr, int);
int	okuser(uintptr, uint, int);
void	switchuvm(Proc*);
void	switchkvm(void);

/* proc.c */
int	splhi(void);
void	splx(int);
void	userinit(void);
void	scheduler(void);
void	yield(void);
void	sleep(void*);
void	wakeup(void*);
void	tsleep(uint);
int	pfork(void);
void	pexit(int) __attribute__((noreturn));
int	pwait(int*);
int	pkill(int);
void	pkillgrp(int);
int	procdump(char*, int);

/* prof.c */
void	profclock(Proc*, uint);
long	sysprofil(uint*);
long	syspcsample(uint*);

/* swtch.asm */
void	swtch(Context**, Context*);

/* syscall.c */
int	seterr(int, char*);
void	syscall(Ureg*);
int	fetchstr(uintptr, char*, int);
int	uvalid(uintptr, uint, int);

/* sysfile.c */
long	sysopen(uint*);
long	syscreate(uint*);
long	sysmkdir(uint*);
long	sysread(uint*);
long	syswrite(uint*);
long	sysseek(uint*);
long	sysclose(uint*);
long	sysdup(uint*);
long	sysdup2(uint*);
long	syspipe(uint*);
long	sysstat(uint*);
long	sysfstat(uint*);
long	sysremove(uint*);
long	syschdir(uint*);
long	sysbind(uint*);
long	sysgetwd(uint*);

/* sysproc.c */
long	sysexit(uint*);
long	sysfork(uint*);
long	syswait(uint*);
long	sysgetpid(uint*);
long	syssbrk(uint*);
long	syssleep(uint*);
long	syskill(uint*);
long	syserrstr(uint*);
long	syssetnoteid(uint*);

/* trap.c */
void	trapinit(void);
void	trap(Ureg*);

/* dev/devcons.c */
void	consinput(int);
long	consreadline(char*, long);
void	print(char*, ...);
void	panic(char*, ...) __attribute__((noreturn));
void	poweroff(int) __attribute__((noreturn));

/* dev/devkprof.c */
void	kprofclock(uint);

/* dev/devpipe.c */
int	newpipe(Chan**);

/* dev/devroot.c */
void	rootload(uchar*, uint);
void	rootfile(char*, uchar*, uint);

/* dev/devuart.c */
void	uartinit(void);
void	uartputc(int, int);
void	uartintr(int);

/* dev/i8259.c */
void	i8259init(void);
void	i8259enable(int);
void	i8259eoi(int);

/* dev/vga.c */
void	vgaputc(int);
