/* The kernel's functions, by the file that defines them. */
#include "lib.h"

enum {
	IRQ0		= 32,	/* vector of IRQ 0 */
	IRQclock	= 0,
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

/* archive.c */
void	rootload(uchar*, uint);
void	rootfile(char*, uchar*, uint);

/* chan.c */
Chan	*newchan(int, uvlong);
void	incref(Chan*);
void	cclose(Chan*);
Chan	*cclone(Chan*);
int	unionof(Chan*, Chan**);
int	cleanpath(char*, char*, char*);
Chan	*namec(char*, char*);
int	kbind(char*, char*, int);
int	kunmount(char*, char*);
void	chaninit(Chan*);

/* clock.c */
void	clockinit(void);
void	clock(Ureg*);
uvlong	ms2tick(uint);
void	wakeat(uint);

/* dev.c */
void	chandevreset(void);
void	chandevinit(void);
Chan	*cattach(int);
long	dirread(Chan*, void*, long, uvlong);
void	devreset(void);
void	devinit(void);
int	devattach(Chan*);
int	devwalk(Chan*, char*);
int	devstat(Chan*, Dir*);
int	devopen(Chan*, int);
int	devcreate(Chan*, char*, int, uint);
long	devread(Chan*, void*, long, uvlong);
long	devwrite(Chan*, void*, long, uvlong);
void	devclose(Chan*);
int	devremove(Chan*);
long	readstr(uvlong, void*, long, char*);
int	iscmd(char*, long, char*);

/* exec.c */
int	kexec(char*, char**);
long	sysexec(uint*);

/* fpu.c */
void	fpuinit(void);

/* i8259.c */
void	i8259init(void);
void	i8259enable(int);
void	i8259eoi(int);

/* main.c */
void	poweroff(int) __attribute__((noreturn));

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

/* print.c */
void	print(char*, ...);
void	panic(char*, ...) __attribute__((noreturn));

/* proc.c */
int	splhi(void);
void	splx(int);
void	userinit(void);
void	scheduler(void);
void	yield(void);
int	schedpoint(void);
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
Chan	*copen(Chan*, int);
Chan	*ccreate(char*, int, uint);
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
long	sysunmount(uint*);
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
void	intrenable(int, void (*)(void*), void*);
void	trap(Ureg*);

/*
 * The hooks: the only functions of dev/ the core calls by name.  All
 * else it reaches through devtab, and interrupts through intrenable.
 */
void	consputs(char*, int);	/* dev/devcons.c: print's output */
void	kprofclock(uint);	/* dev/devkprof.c: each clock tick's pc */

/* Shared among the devices in dev/ */
void	consinput(int);		/* devcons.c: a character typed */
long	consreadline(char*, long);	/* devcons.c: a line of it */
void	uartputc(int, int);	/* devuart.c: a byte out of port 0 or 1 */
void	vgaputc(int);		/* vga.c: a character on the screen */
