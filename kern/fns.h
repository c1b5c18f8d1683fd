/* The kernel's functions, by the file that defines them. */
#include "lib.h"
#include "x86.h"

enum {
	IRQ0		= 32,	/* vector of the I/O APIC's input 0 */
	NIRQ		= 24,	/* its inputs */
	Tclock		= IRQ0,	/* the local APIC timer's vector; input 0, the 8254, is never enabled */
	Twake		= 0xFD,	/* ready's interrupt: an idle processor, there is work */
	Tflush		= 0xFE,	/* shootdown's interrupt: flush the TLB */
	Tspurious	= 0xFF,	/* the local APIC's spurious interrupt */
};

/* alloc.c */
void	pageinit(uintptr, uintptr);
void	*pagealloc(int);
void	pagefree(void*);
int	pagesfree(void);
int	pagestotal(void);
void	*kmalloc(uint);
void	kfree(void*);
uint	heapinuse(void);
uint	heapfree(void);

/* apic.c */
extern volatile uint	*lapic, *ioapic;
void	lapicinit(void);
void	lapicphase(Mach*);
extern volatile int	evenclocks;	/* three or more processors: lapicphase spreads their ticks */
int	lapicid(void);
void	lapiceoi(void);
void	lapicipi(int, uint);
void	ioapicinit(void);
void	ioapicenable(int);
void	nmiclock(int);
extern int	clockgsi;

/* archive.c */
void	rootload(uchar*, uint);
void	rootfile(char*, uchar*, uint);

/* chan.c */
Chan	*newchan(int, uvlong);
void	incref(Chan*);
void	cclose(Chan*);
Chan	*cclone(Chan*);
int	unionof(Chan*, Chan**);
void	unionclose(Chan**, int);
int	cleanpath(char*, char*, char*);
Chan	*namec(char*, char*);
int	kbind(char*, char*, int);
int	kunmount(char*, char*);
void	chaninit(Chan*);

/* clock.c */
void	clock(void);
void	tsleep(uint);
uvlong	ms2tick(uint);

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

/* exec.c */
int	kexec(char*, char**);
long	sysexec(uint*);

/* image.c */
Image	*newimage(void);
void	imjoin(Image*, Proc*);
void	imleave(Image*, pte_t*);
void	imticks(Image*, uint*, uint*);
long	syssbrk(uint*);
long	sysrfork(uint*);

/* fpu.c */
void	fpuinit(void);

/* i8259.c */
void	i8259init(void);

/* lock.c */
void	pushcli(void);
void	popcli(void);
int	holding(Lock*);
void	lock(Lock*);
void	ilock(Lock*);
void	unlock(Lock*);
void	qlock(QLock*);
int	qlockintr(QLock*);
void	qunlock(QLock*);

/* main.c */
void	poweroff(int) __attribute__((noreturn));

/* mmu.c */
void	gdtinit(Mach*);
void	mmuinit(void);
pte_t	*newpgdir(void);
void	unmapuser(pte_t*, uintptr, uintptr, uintptr);
int	mapuser(pte_t*, uintptr, uintptr);
void	protectuser(pte_t*, uintptr, uintptr, uint);
void	freepgdir(pte_t*, uintptr);
pte_t	*copypgdir(pte_t*, uintptr, uintptr);
void	*uaddr(pte_t*, uintptr, int);
int	okuser(uintptr, uint, int);
void	switchuvm(Proc*);
void	switchkvm(void);
void	flushtlb(void);
void	shootdown(Image*);
void	flushintr(void);

/* mp.c */
void	mpinit(void);
void	mpstart(void);

/* parse.c */
int	tokenize(char*, char**, int);
int	parsecmd(Cmdbuf*, void*, long);
Cmdtab	*lookupcmd(Cmdbuf*, Cmdtab*, int);
int	decimal(char*, uint, uint*);

/* print.c */
extern int	panicking;
void	print(char*, ...);
void	panic(char*, ...) __attribute__((noreturn));

/* proc.c */
int	splhi(void);
void	splx(int);
void	userinit(void);
void	scheduler(void);
void	yield(void);
int	schedpoint(void);
void	sleep(void*, Lock*);
void	sleepintr(void*, Lock*);
void	wakeup(void*);
int	pfork(int);
void	procsetimg(Proc*, Image*, pte_t*);
void	pexit(int) __attribute__((noreturn));
int	pwait(int*);
int	pkill(int);
void	pkillgrp(int);
int	procdump(char*, int);

/*
 * prof.c, and the clock's hook, inline: p, a thread of im, has user pc
 * pc at this tick.  The counter or sample slot's page is looked for
 * only when it is not the one p found last (upage).  Threads on other
 * processors count into the same buffers at once: the counter's add is
 * a compare-and-swap (satinc16), and each sample takes its slot with a
 * lock xadd on n; a slot past max is not written, and pcsample reports
 * no more than max.  The settings change only while no tick is at work
 * (kern/image.c).
 */
void	*upagefind(pte_t*, Upage*, uintptr);
void	profforget(Proc*);
long	sysprofil(uint*);
long	syspcsample(uint*);

static inline void*
upage(pte_t *pd, Upage *c, uintptr va)
{
	if(ROUNDDOWN(va, BY2PG) == c->va)
		return (void*)(va + c->k);
	return upagefind(pd, c, va);
}

static inline void
profclock(Proc *p, Image *im, uint pc)
{
	Profil *pr = &im->prof;
	Pcsample *ps = &im->pcs;
	ushort *cnt;
	uint *s, d, i;
	uintptr buf;

	p->profticks++;
	/* One compare: span is 0 while off, and a pc below offset wraps past it (sysprofil). */
	d = pc - pr->offset;
	if(d < pr->span){
		cnt = upage(p->pgdir, &p->ppg, pr->buf + 2*(uint)(((uvlong)d * pr->scale) >> 17));
		if(cnt != nil)
			satinc16(cnt);
		else
			pr->span = 0;
	}
	if((buf = ps->buf) != 0){
		if((i = xadd(&ps->n, 1)) >= ps->max)
			xadd(&ps->n, -1);	/* full: n stays within a processor or two of max */
		else if((s = upage(p->pgdir, &p->spg, buf + 4*i)) != nil)
			*s = pc;
		else
			ps->buf = 0;
	}
}

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
long	syssleep(uint*);
long	syskill(uint*);
long	syserrstr(uint*);
long	syssetnoteid(uint*);

/* trap.c */
void	trapinit(void);
void	idtinit(void);
void	intrenable(int, void (*)(void*), void*);
void	trap(Ureg*);

/*
 * The hooks: the only functions of dev/ the core calls by name.  All
 * else it reaches through devtab, and interrupts through intrenable.
 */
void	consputs(char*, int);	/* dev/devcons.c: print's output */
void	rootdata(Chan*, uchar*, uint);	/* dev/devroot.c: a boot file's contents, where they lie */

/*
 * dev/devkprof.c: kprof's sample, at each NMI (kern/trapasm.asm,
 * nmientry): f is what the processor pushed (pc, cs, flags), bp the
 * frame pointer it interrupted.  Safe wherever the NMI lands: it takes
 * no lock and touches only its processor's counts.
 */
void	kprofnmi(uint *f, uint bp);

/* Shared among the devices in dev/ */
void	consinput(int);		/* devcons.c: a character typed */
int	consroom(void);		/* devcons.c: can it take one now? */
void	uartkick(void);		/* devuart.c: the console has room again */
long	consreadline(char*, long);	/* devcons.c: a line of it */
void	uartputc(int, int);	/* devuart.c: a byte out of port 0 or 1 */
void	vgaputc(int);		/* vga.c: a character on the screen */
