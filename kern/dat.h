/*
 * The kernel's data structures: processes, channels, devices, the
 * trap frame.  Plan 9's names where there is one.
 */
#include "sys.h"

typedef struct Arcs	Arcs;
typedef struct Bootopt	Bootopt;
typedef struct Chan	Chan;
typedef struct Cmdbuf	Cmdbuf;
typedef struct Cmdtab	Cmdtab;
typedef struct Context	Context;
typedef struct Dev	Dev;
typedef struct Dirtab	Dirtab;
typedef struct Image	Image;
typedef struct Lock	Lock;
typedef struct Mach	Mach;
typedef struct FPsave	FPsave;
typedef struct Kpcount	Kpcount;
typedef struct Mount	Mount;
typedef struct Proc	Proc;
typedef struct QLock	QLock;
typedef struct Ureg	Ureg;
typedef struct Nmiframe	Nmiframe;
typedef struct Dir	Dir;

enum {
	NPROC	= 64,	/* processes at once */
	NFD	= 32,	/* open files per process */
	NMOUNT	= 32,	/* mount points */
	NUNION	= 8,	/* directories in one union */
	ARGMAX	= 4096,	/* bytes of them */
	PATHMAX	= 256,	/* longest path */
	MAXMACH	= 8,	/* processors at most */
	Never	= 0x7FFFFFFF,	/* ticks ahead: as far as comparisons of ticks reach */
	Nprofpc	= 4,	/* the pcs a process notes of the ticks it owes its profilers (kern/prof.c) */
};

/*
 * What the trap entry code (kern/trapasm.asm) pushes: the general
 * registers, the segment registers, the trap number and error code,
 * then what the processor pushed.  esp and ss are there only for a trap
 * from user mode.
 */
struct Ureg {
	uint	di;
	uint	si;
	uint	bp;
	uint	ksp;		/* esp as pusha saw it: unused */
	uint	bx;
	uint	dx;
	uint	cx;
	uint	ax;
	uint	gs;
	uint	fs;
	uint	es;
	uint	ds;
	uint	trap;		/* vector number */
	uint	ecode;		/* error code, or 0 */
	uint	pc;		/* eip */
	uint	cs;
	uint	flags;
	uint	sp;		/* user esp */
	uint	ss;
};

#define UREGUSER(u)	(((u)->cs & 3) == 3)

/*
 * What kprof's NMI entry (kern/trapasm.asm, nmientry) pushes, for
 * kprofnmi: the scratch registers, the time-stamp counter and the
 * frame pointer it interrupted, then what the processor pushed.
 */
struct Nmiframe {
	uint	gs;
	uint	ds;
	uint	bp;		/* the interrupted frame pointer */
	uint	t0;		/* the counter's low half at nmientry's fourth instruction */
	uint	dx;
	uint	cx;
	uint	ax;
	uint	pc;		/* eip: the processor's frame from here */
	uint	cs;
	uint	flags;
	uint	sp;		/* user esp, from user mode only */
	uint	ss;
};

/* The registers swtch saves: the callee-saved ones, then its return pc. */
struct Context {
	uint	di;
	uint	si;
	uint	bx;
	uint	bp;
	uint	pc;
};

/*
 * A spinlock (kern/lock.c).  Taken with ilock, interrupts are off on
 * the holder's processor until unlock.
 */
struct Lock {
	uint	locked;		/* 1 while held */
	char	*name;		/* for panics */
	Mach	*m;		/* the holder */
	uint	pc;		/* where it took the lock */
	int	intr;		/* taken by ilock: unlock turns interrupts back on */
};

/*
 * A lock that a process holds across sleeps (Plan 9's QLock,
 * kern/lock.c): those who want it meanwhile sleep.
 */
struct QLock {
	Lock	lk;		/* held, nwait, and sleeping on the QLock */
	int	held;		/* by some process */
	int	nwait;		/* processes asleep for it: qunlock wakes them */
};

/*
 * A channel: one file of one device, walked to and maybe open.
 * Open files in the fd table, the current directory and mount
 * points are all channels, shared by counting references.
 */
#define QDIR	0x8000000000000000ULL	/* qid bit: the file is a directory */

struct Chan {
	int	ref;		/* references to this channel */
	int	type;		/* index into devtab */
	uvlong	qid;		/* file within the device; QDIR for a directory */
	int	mode;		/* O_RDONLY etc. once open, -1 before */
	QLock	offlk;		/* offset, and a read, write or seek's use of it: one at a time */
	uvlong	offset;		/* next byte read or written; with O_APPEND the device's write sets it to the end first */
	void	*aux;		/* the device's own state */
	Mount	*mnt;		/* union to read through, if a mount point */
};

/*
 * One bind: a directory, and what now stands in its place.  Channels
 * opened through the union hold references to it, so an unmount takes
 * it out of the mount table but leaves it to them until they close.
 */
struct Mount {
	int	ref;		/* the mount table's, and each channel's */
	Chan	*from;		/* the directory bound over */
	Chan	*to[NUNION];	/* the union, searched in order */
	int	n;		/* entries in to */
};

/* A file in a simple device's directory. */
struct Dirtab {
	char	name[NAMELEN];
	uint	qid;
	uint	length;		/* what stat reports */
	uint	perm;
};

/*
 * A kernel command-line word NAME=ARG that a configuration adds: main
 * runs fn(ARG) once the processors are up.
 */
struct Bootopt {
	char	*name;
	void	(*fn)(char*);
	char	*arg;		/* from the command line; nil if it has none */
};

/*
 * A control message, copied in and split into its words (parsecmd,
 * kern/parse.c), and an entry of a control file's table of the
 * messages it takes (lookupcmd).
 */
struct Cmdbuf {
	char	buf[64];	/* the message, its words ended in place */
	char	*f[8];		/* the words */
	int	nf;		/* of f in use */
};

struct Cmdtab {
	int	index;		/* the device's number for the message */
	char	*cmd;		/* its first word */
	int	narg;		/* its words, the first included; 0 for any number */
};

/*
 * A device: its letter, its files and its operations, filled by name
 * (.read = consread).  An operation a device leaves out is the
 * default of kern/dev.c (devwalk and the like), which serve a flat
 * directory of the files in tab.  Operations that fail call seterr
 * and return -1.
 */
struct Dev {
	int	dc;		/* letter after '#' */
	Dirtab	*tab;		/* the files of a flat directory, or nil */
	int	ntab;		/* entries in tab */
	void	(*reset)(void);	/* at the start of main, before memory */
	void	(*init)(void);	/* once memory and traps are up */
	int	(*attach)(Chan*);	/* set up c, new at the device's root */
	int	(*walk)(Chan*, char *name);	/* move c to name within it */
	int	(*stat)(Chan*, Dir*);
	int	(*open)(Chan*, int omode);
	int	(*create)(Chan*, char *name, int omode, uint perm);
	long	(*read)(Chan*, void*, long, uvlong);
	long	(*write)(Chan*, void*, long, uvlong);
	void	(*close)(Chan*);	/* c was open */
	int	(*remove)(Chan*);
};

/*
 * One processor's own data, Plan 9's Mach: found through its gs
 * segment (thismach), whose base is the Mach itself.  Its own GDT and
 * TSS, so that its kernel stack for traps from user mode is its own.
 */
enum { NSEG = 7 };
/*
 * Mach's kpmore: kprof's NMI records stacks (dev/devkprof.c, kpctl's
 * stacks), and rearms kprof's clock (kern/apic.c, nmiclock): one word,
 * so that an NMI that does neither looks once.
 */
enum {
	Kpstacks	= 1,
	Kprearm	= 2,
};

struct Mach {
	Mach	*self;		/* at gs:0, for thismach */
	Arcs	*arcs;		/* at gs:4, for fentry: the table its call graph's recorder counts in (kern/arcs.c) */
	int	id;		/* 0 to nmach-1: 0 is the one that booted */
	int	apicid;		/* its local APIC's id */
	Proc	*proc;		/* up: the process running here, or nil */
	Context	*sched;		/* the scheduler's, for sched to go back to */
	int	ncli;		/* depth of pushcli */
	int	nlock;		/* locks it holds */
	int	intena;		/* were interrupts on before the first pushcli? */
	uint	ticks;		/* of its own clock */
	volatile int	online;		/* it has started and runs the scheduler */
	volatile int	idling;		/* it has no process and waits for one: ready wakes it */
	volatile int	spinning;	/* the spins for a lock it is in, nested: its ticks are left out under -d (kern/fns.h, thintick) */
	Kpcount	*kp;		/* the kprof counts its NMIs add to (dev/devkprof.c) */
	volatile uint	kpbusy;		/* in kprofnmi: kpctl waits for it */
	volatile uint	kpdrain;	/* set by whoever drains its kprof samples (dev/kpstack.c) */
	uint	kpmore;		/* what its kprof NMI does beyond counting, Kpstacks|Kprearm: set and cleared by locked instructions, as kpctl and profil both change it */
	char	*stack;		/* bottom of its scheduler's stack, KSTACK bytes */
	volatile uint	flushreq;	/* TLB flushes asked of it (shootdown) */
	volatile uint	flushdone;	/* flushreq as its last flush found it */
	Image	*volatile profimg;	/* the image whose owed ticks it is counting, or nil (profdrain) */
	uvlong	gdt[NSEG];
	uint	tss[26];	/* the 104-byte TSS: only esp0, ss0 and the I/O map base matter */
	uint	profseed;	/* the generator of its profiled ticks' thinning, under -d: its NMI's alone (kern/prof.c, profnmi) */
};

enum { Unused, Embryo, Sleeping, Runnable, Running, Zombie };

/* profil(2) settings of a memory image: changed under its mem, in kern/prof.c's order */
typedef struct Profil {
	uintptr	buf;		/* user address of the counters */
	uint	size;		/* bytes of counters */
	uint	offset;		/* lowest pc counted */
	uint	mult;		/* scale << 15: a counter's index is the high word of (pc - offset) * mult */
	uint	span;		/* pcs from offset that have a counter; 0 when off */
} Profil;

/* pcsample(2) state of a memory image: as Profil */
typedef struct Pcsample {
	uintptr	buf;		/* user address of the samples; 0 when off */
	uint	max;		/* room in buf, in samples; down to a slot that could not be written */
	uint	n;		/* slots taken in this invocation: profapply's lock xadd */
	int	called;		/* pcsample has been called since exec */
} Pcsample;

/*
 * A memory image (kern/image.c): what the threads of a process share,
 * a process made by rfork(RFPROC|RFMEM) being a thread of its parent's
 * image.  They share the user page tables below USHARED (text, data,
 * bss, heap); each thread has a page directory of its own, whose
 * entries below USHARED are the same in all, and its own stack above.
 * The profilers' settings are the image's: every thread's ticks count
 * into the one buffer.
 */
struct Image {
	QLock	mem;		/* its memory and profilers' settings: one change at a time (sbrk, fork's copy, rfork, a thread leaving) */
	Lock	lk;		/* ref, threads, ticks, profticks */
	int	ref;		/* threads in it */
	Proc	*threads;	/* them, linked through inext */
	uintptr	hbase;		/* start of the heap: the end of bss */
	uintptr	brk;		/* end of the heap */
	uintptr	top;		/* the pages below USTACK lie under it: the highest end exec or sbrk mapped (kern/mmu.c) */
	uint	ticks;		/* clock ticks of the threads that left it */
	uint	profticks;	/* of those, ticks counted by a profiler */
	Profil	prof;
	Pcsample	pcs;
	int	profclk;	/* counted in the NMI clock's images that profile (kern/prof.c, profclock): under mem */
};

/*
 * A process's x87 and SSE registers, as fxsave stores them.  Only the
 * fields the kernel sets (kern/fpu.c) have names.
 */
struct FPsave {
	ushort	fcw;		/* x87 control word */
	uchar	pad0[22];
	uint	mxcsr;		/* SSE control and status */
	uchar	pad1[484];
} __attribute__((aligned(16)));

struct Proc {
	int	pid;
	int	state;
	char	name[NAMELEN];	/* the program's name, for ps and faults */
	pte_t	*pgdir;		/* page directory: the image's below USHARED, its own stack above */
	Image	*img;		/* its memory image; nil once it has left it */
	Proc	*inext;		/* next thread of img */
	uint	ticks;		/* clock ticks it has run, in user mode or in the kernel for it */
	uint	profticks;	/* of those, ticks counted by one of img's profilers */
	volatile uint	profowed;	/* ticks the NMI found img's profilers on for, less those thinned under -d, not yet counted (kern/prof.c) */
	uint	profpc[Nprofpc];	/* the user pcs of the first of them, the last slot the rest's (kern/prof.c, profnmi) */
	uint	kpin;		/* in kprof's scope: kpctl's pid sets it, fork adds the parent's (under procs) */
	uint	kpticks[2];	/* its user and kernel ticks in kprof's run: the NMI of its processor alone writes them */
	char	*kstack;	/* bottom of the kernel stack */
	Ureg	*ureg;		/* the trap frame of the last entry from user mode */
	Context	*context;	/* where swtch left it */
	Proc	*parent;
	int	status;		/* exit status, for wait */
	int	killed;		/* die on the way back to user mode */
	uint	turn;		/* ticks when the scheduler last ran it */
	uint	ran;		/* the first processor's ticks then (ready) */
	int	noteid;		/* note group, for ^C: inherited on fork */
	void	*wchan;		/* what it sleeps on */
	uint	wakeat;		/* in tsleep, the tick its time comes at: under kern/clock.c's tickslk */
	Proc	*rnext;		/* next on the run queue, if Runnable */
	Chan	*fd[NFD];
	char	dot[PATHMAX];	/* current directory, a clean absolute path */
	int	errno;		/* of the system call in progress */
	char	err[ERRMAX];	/* its text */
	char	errstr[ERRMAX];	/* the text of the last call that failed: what errstr reads */
	FPsave	fpsave;		/* its FPU registers while it is not running */
};

extern Mach	mach[MAXMACH];
extern int	nmach;		/* processors running */

/* This processor's Mach.  volatile: a process that slept may wake on another. */
static inline Mach*
thismach(void)
{
	Mach *m;

	asm volatile("movl %%gs:0, %0" : "=r"(m));
	return m;
}

#define up	(thismach()->proc)	/* the process running on this processor, or nil */
extern Dev	*devtab[];	/* the configuration's devices (conf/NAME, made by tools/mkconf) */
extern Bootopt	bootopt[];	/* and its kernel command-line words */
extern uint	ticks;		/* the first processor's clock ticks since boot */
extern int	hz;
extern char	text[], etext[], end[];
extern char	ktextsize[];	/* its address is etext - text (boot/kernel.ld) */
extern char	vec0[], alltraps[];	/* the vectors' entries lie between (kern/trapasm.asm) */
extern char	kvecsize[];	/* its address is alltraps - vec0 (boot/kernel.ld) */
extern uint	vectors[];	/* each one's entry */
extern FPsave	fpclean;	/* the FPU registers a new program starts with */
