/* The kernel's functions, by the file that defines them. */
#include "lib.h"
#include "x86.h"

enum {
	IRQ0		= 32,	/* vector of the I/O APIC's input 0 */
	NIRQ		= 24,	/* its inputs */
	T_PGFLT		= 14,	/* the page fault */
	PFWRITE		= 2,	/* in its error code: the access was a write */
	Tclock		= IRQ0,	/* the local APIC timer's vector; input 0, the 8254, is never enabled */
	Tstop		= 0xFC,	/* kern/arcs.c's: wait while the text changes */
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
void	*kmallocdata(uint);
void	kfree(void*);
uint	heapinuse(void);
uint	heapfree(void);

/* apic.c */
extern volatile uint	*lapic, *ioapic;
void	lapicinit(void);
int	lapicid(void);
void	lapiceoi(void);
void	lapicstop(void);
void	lapicgrid(void);
void	lapicipi(int, uint);
void	ioapicinit(void);
void	ioapicenable(int);
void	nmiclock(int);
void	nmiclockprof(int);
void	nmiclocknext(void);
uvlong	nmiclocktime(int);
extern int	nmion;		/* the NMI clock samples, for kprof or an image */
extern int	nmiprofon;	/* an image profiles: the NMI clock samples for it */
extern int	nmirandom;	/* kprof's clock draws its intervals at random */
enum {
	Lcgmul	= 1664525,	/* the multiplier and increment of the kernel's linear congruential generators (Numerical Recipes') */
	Lcgadd	= 1013904223,
};
extern int	clockgsi;

/* arcs.c */
extern int	arcson;
extern uint	arcnprobe;
void	arcsinit(void);
int	arcsctl(int);
void	arcsclear(void);
uint	arcsdrops(void);
uint	arcsmax(void);
uint	arcswalk(void (*)(void*, uint, uint, uint), void*, uint);
void	patchintr(void);
#define ENTRYNOP	"\x0F\x1F\x44\x00\x00"	/* at every function's entry: nopl 0(%eax,%eax,1), gcc's -mnop-mcount */

/*
 * Is pc, a kernel address, a function's entry nop?  For kprof's stack
 * walk (kern/kpwalk.c), from the NMI, which at an entry finds the
 * caller's pc on top of the stack; inline, as it is tried at every
 * tick at a 0x0F.  gcc aligns functions to 16 bytes, and no other nop
 * starts at such an address (alignment padding ends at one, never
 * starts); an entry not so aligned is not known as one, nor one that
 * arcs on made a call, and the stack there leaves out its caller.
 */
static inline int
atentry(uint pc)
{
	uchar *s = (uchar*)pc;
	int i;

	if(pc % 16 != 0)
		return 0;
	for(i = 0; i < (int)sizeof(ENTRYNOP) - 1; i++)
		if(s[i] != (uchar)ENTRYNOP[i])
			return 0;
	return 1;
}

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
void	mountgone(void);
void	chaninit(Chan*);

/* clock.c */
void	clock(void);
void	idle(void);
void	tsleep(uint);
uvlong	ms2tick(uint);
void	tscinstr(void);
extern int	virtualclock;	/* the time-stamp counter counts instructions: run-qemu.sh -d */

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
int	okuser(uintptr, uint, int);
void	switchuvm(Proc*);
void	switchkvm(void);
void	flushtlb(void);

/*
 * The kernel address of user address va in pd, if it is mapped for
 * user access (and writable, if write); otherwise nil.  Never faults.
 * Inline, as kprof's NMI looks up the user stack (kern/kpwalk.c).  A
 * kernel address is never nil, which the compiler is told, so that a
 * caller's test for nil is the tests here alone.
 */
static inline void*
uaddr(pte_t *pd, uintptr va, int write)
{
	pte_t pde, pte;
	uint need;
	char *a;

	if(va >= KZERO)
		return nil;
	need = PTEP | PTEU | (write ? PTEW : 0);
	pde = pd[PDX(va)];
	if((pde & need) != need)
		return nil;
	pte = ((pte_t*)KADDR(PTEADDR(pde)))[PTX(va)];
	if((pte & need) != need)
		return nil;
	a = (char*)KADDR(PTEADDR(pte)) + (va & (BY2PG - 1));
	if(a == nil)
		__builtin_unreachable();
	return a;
}

/*
 * Writes to user memory at the user's own address, through the page
 * tables in use, as a user write would go: for the profilers, which
 * count ticks on the way back to user mode (kern/prof.c) and want it
 * cheaper than a walk of the tables.  0, or -1 if va (as far as the
 * write reaches) is not mapped writable for the user, without a fault:
 * an address at or over KZERO is refused at once; a page without
 * PTEU (not there, or hidden by sbrk: kern/image.c) by its entry, read
 * at VPT; and one whose table is not there (the read at VPT) or not
 * writable (text: the kernel runs with CR0.WP set) faults at an
 * instruction that ufixup knows, which goes on at the failure.  Each
 * instruction that may fault is listed in the section ufixups, with
 * where to go on.
 */
int	ufixup(Ureg*);
typedef struct Ufixup {
	uint	pc;		/* an instruction that may fault on user memory */
	uint	fix;		/* where to go on if it does */
} Ufixup;
extern Ufixup	ufixups[], eufixups[];	/* boot/kernel.ld */
#define UFIXUP(insn, fix)	".pushsection ufixups, \"a\"\n\t.balign 4\n\t.long " insn ", " fix "\n\t.popsection\n\t"

/*
 * The look before a write at user address va: below lim, and its page
 * the user's, its entry read through VPT; a page table that is not
 * there faults at 1, which the caller lists with UFIXUP.  Uses the
 * operands va, t, lim, vpt and u, and the label bad.
 */
#define UCHECK	"cmpl %[lim], %[va]\n\tja %l[bad]\n\tmovl %[va], %[t]\n\tshrl $12, %[t]\n\t" \
		"1: testb %[u], %c[vpt](,%[t],4)\n\tjz %l[bad]\n\t"

/* Store v in the 4 bytes at user address va, which is a multiple of 4. */
static inline int
uput32(uintptr va, uint v)
{
	uint t;

	asm volatile goto(UCHECK
		"2: movl %[v], (%[va])\n\t"
		UFIXUP("1b", "%l[bad]")
		UFIXUP("2b", "%l[bad]")
		: [t] "=&r"(t)
		: [va] "r"(va), [v] "r"(v), [lim] "i"(KZERO - 4), [vpt] "i"(VPT), [u] "i"(PTEU)
		: "cc", "memory" : bad);
	return 0;
bad:
	return -1;
}

/*
 * Add n to the 16-bit counter at user address va, which is even,
 * stopping at 65535.  Threads on other processors may add to it at
 * once: a compare-and-swap, tried again if another changed the counter
 * between the read and the swap (cmpxchg then leaves its new value in
 * ax), but Maxswaps times at most.  Each processor adds once a tick, so
 * the adds of the others fail it a few times at most; a thread that
 * writes the counter itself without pause could fail it for as long as
 * it liked, on a processor with interrupts off (QEMU showed 7462 in a
 * row).  Then the tick is dropped, and the profiler stays on: the
 * counter is the program's to spoil.  n + 65535 must not pass 2^32.
 */
enum { Maxswaps = 64 };	/* compare-and-swaps an add tries before it drops the tick */

static inline int
uaddsat16(uintptr va, uint n)
{
	uint t, c, k = Maxswaps;

	asm volatile goto(UCHECK
		"2: movzwl (%[va]), %%eax\n\t"
		"3: leal (%%eax,%[n]), %[t]\n\t"
		"cmpl $0xFFFF, %[t]\n\t"
		"jbe 4f\n\t"
		"movl $0xFFFF, %[t]\n\t"
		"4: lock; cmpxchgw %w[t], (%[va])\n\t"
		"je 5f\n\t"
		"decl %[k]\n\t"
		"jnz 3b\n\t"
		"5:\n\t"
		UFIXUP("1b", "%l[bad]")
		UFIXUP("2b", "%l[bad]")
		UFIXUP("4b", "%l[bad]")
		: [t] "=&r"(t), "=&a"(c), [k] "+r"(k)
		: [va] "r"(va), [n] "r"(n), [lim] "i"(KZERO - 2), [vpt] "i"(VPT), [u] "i"(PTEU)
		: "cc", "memory" : bad);
	return 0;
bad:
	return -1;
}

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
void	ready(Proc*);
void	sleep(void*, Lock*);
void	sleepintr(void*, Lock*);
void	wakeup(void*);
int	pfork(int);
void	procsetimg(Proc*, Image*, pte_t*);
void	pexit(int) __attribute__((noreturn));
int	pwait(int*);
int	pkill(int);
void	pkillgrp(int);
void	procsweep(void (*)(Proc*, void*), void*);

/* kpproc.c: kprof's scope, and its ticks by process */
extern volatile uint	kpscoped;
int	kpscope(char*);
char	*kpscopename(char*, int);
void	kpscopemark(Proc*);
void	kpprocclear(void);
void	kpprocreap(Proc*);
long	kpprocread(Chan*, void*, long, uvlong);

/*
 * kpproc.c's scope and count, inline in kprof's NMI: whether a tick of
 * p (nil for none) is in scope (kpinscope), and if so one more for p,
 * user or kernel (kpproctick).  Only the processor p runs on writes
 * p's counts.  No process, p nil, is in scope only while all is.
 */
static inline int
kpinscope(Proc *p)
{
	return p == nil ? !kpscoped : p->kpin >= kpscoped;
}

static inline int
kpproctick(Proc *p, uint kernel)
{
	if(!kpinscope(p))
		return 0;
	if(p != nil)
		satinc(&p->kpticks[kernel]);
	return 1;
}

/*
 * Whether to leave out a busy tick under run-qemu.sh -d (virtualclock),
 * so that a profile weighs code by its instructions, as the exact
 * count does: kprof's NMI (dev/kpnmi.c) and profil's and pcsample's
 * clock (kern/clock.c) ask.  QEMU's -icount runs the processors in
 * turns on one thread, its clock all their instructions together: of
 * m processors that run at once each runs 1/m of a tick's
 * instructions, and yet each is sampled at every tick, so code that
 * runs beside busy processors had m times the ticks, for its
 * instructions, of code that runs alone.  So a busy tick counts with
 * probability 1/m, m the processors that are not idle.  One that spins
 * for a lock is among them, as its turns are as long as the others'
 * (kern/lock.c says why), but its own ticks (spinning: the asking
 * processor's Mach.spinning) are left out, as the exact count leaves
 * out its spin.  seed is the asking processor's generator, so that -d
 * runs repeat.  Without -d the processors run at once, each in its own
 * time, and every tick counts.  Always inline, as kprof's NMI wants
 * its counting: each kind of tick a path of its own (dev/kpnmi.c, count).
 */
static inline __attribute__((always_inline)) int
thintick(int spinning, uint *seed)
{
	int i, m = 0;

	if(spinning)
		return 1;
	for(i = 0; i < nmach; i++)
		m += !mach[i].idling;
	if(m <= 1)
		return 0;
	*seed = *seed * Lcgmul + Lcgadd;
	return ((uvlong)*seed * m >> 32) != 0;
}

/* prof.c */
void	profapply(void);
void	profclock(Image*);
NOPROF REGPARM void	profnmi(Nmiframe*);
void	profdrain(Image*);
int	profonstack(Image*);
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
 * dev/kpnmi.c: kprof's sample, at each NMI (kern/trapasm.asm,
 * nmientry).  Safe wherever the NMI lands: it takes no lock and
 * touches only its processor's counts.
 */
REGPARM void	kprofnmi(Nmiframe*);
REGPARM uint	kpwalk(uint*, uint, uint*);	/* kpwalk.c: the kernel and user stacks at kprofnmi's tick in the kernel */
REGPARM uint	kpuwalk(uint*, uint, uint*);	/* and the user stack at one outside it */
/*
 * dev/kpstack.c: the clock's hook, while kprof counts (kprofon, dev/devkprof.c):
 * the stacks its processor's NMI recorded, into kpstack's table.
 */
extern uint	kprofon;	/* set and cleared by xchg only, and read once where read */
void	kprofdrain(void);
uint	*delivered(uint *f);	/* trap.c: the frame an NMI at a vector's first instruction interrupted */

/* Shared among the devices in dev/ */
void	consinput(int);		/* devcons.c: a character typed */
int	consroom(void);		/* devcons.c: can it take one now? */
void	uartkick(void);		/* devuart.c: the console has room again */
long	consreadline(char*, long);	/* devcons.c: a line of it */
void	uartputc(int, int);	/* devuart.c: a byte out of port 0 or 1 */
void	vgaputc(int);		/* vga.c: a character on the screen */
