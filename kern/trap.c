/*
 * Traps: the interrupt descriptor table, and trap(), which every
 * exception, interrupt and system call reaches through
 * kern/trapasm.asm.  Devices' interrupts come here too, and go on to
 * the handler each registered with intrenable.  A fault in a user
 * program kills it with a one-line message; a fault in the kernel is a
 * panic, but for the few instructions that write user memory at the
 * user's address and know how to fail (ufixup, kern/mmu.c).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

static uvlong	idt[256];
extern char	trapretload[], trapretend[], nmientry[];	/* kern/trapasm.asm */

/* What a device's interrupt calls, by IRQ (intrenable). */
static struct {
	void	(*f)(void*);
	void	*arg;
} intr[NIRQ];

static char *excname[] = {
	"divide error", "debug", "nmi", "breakpoint", "overflow",
	"bound range", "invalid opcode", "no coprocessor", "double fault",
	"coprocessor overrun", "invalid tss", "segment not present",
	"stack fault", "general protection", "page fault", "reserved",
	"floating point", "alignment check", "machine check", "simd",
};

/* An interrupt gate (interrupts off on entry) callable from ring dpl. */
static uvlong
gate(uint handler, int dpl)
{
	uint lo, hi;

	lo = (KCSEG << 16) | (handler & 0xFFFF);
	hi = (handler & 0xFFFF0000) | 0x8E00 | (dpl << 13);
	return (uvlong)hi << 32 | lo;
}

/* The table all processors share; each loads it with idtinit. */
void
trapinit(void)
{
	int i;

	/* DPL 0 but for the system call: int N from user mode faults. */
	for(i = 0; i < 256; i++)
		idt[i] = gate(vectors[i], i == T_SYSCALL ? 3 : 0);
	idt[2] = gate((uint)nmientry, 0);	/* the NMI: kprof's, not trap's (kern/trapasm.asm) */
	idtinit();
}

void
idtinit(void)
{
	struct { ushort limit; uint base; } __attribute__((packed)) idtr;

	idtr.limit = sizeof idt - 1;
	idtr.base = (uint)idt;
	asm volatile("lidt %0" : : "m"(idtr));
}

/* Have IRQ irq call f(arg), and let it through the I/O APIC. */
void
intrenable(int irq, void (*f)(void*), void *arg)
{
	intr[irq].f = f;
	intr[irq].arg = arg;
	ioapicenable(irq);
}

static char*
trapname(int n)
{
	if(n < (int)nelem(excname))
		return excname[n];
	return "unexpected trap";
}

/* A user program did something it must die for (trap n at pc): say so, and kill it. */
static void
userfault(int n, uint pc)
{
	uint addr = n == 14 ? rcr2() : 0;

	print("%s: pid %d: trap %d (%s) addr %#x pc %#x\n",
		up->name, up->pid, n, trapname(n), addr, pc);
	up->killed = 1;
}

/*
 * Is this a user page fault at an address whose page table entry
 * allows the access after all?  Another thread's sbrk showed the page
 * again (kern/mmu.c, mapuser) while this processor's TLB still held it
 * hidden from user mode: an entry that grants more needs no flush, so
 * mapuser sends none, and the stale one faults.  The processor drops
 * its translation of the address as it takes the fault, so going back
 * runs the instruction again, through the new entry.  (QEMU keeps no
 * translation that faulted, so only gdb can make one:
 * tools/test/stale.sh.)
 */
static int
spurious(Ureg *u)
{
	return u->trap == T_PGFLT && uaddr(up->pgdir, rcr2(), u->ecode & PFWRITE) != nil;
}

/*
 * Is this a fault in trapret loading what a user program left in its
 * frame: a data segment selector, or cs, ss and eflags in iretd?
 * Those are the user's, and so is the fault.
 */
static int
retfault(Ureg *u)
{
	return up != nil && u->pc >= (uint)trapretload && u->pc < (uint)trapretend;
}

void
trap(Ureg *u)
{
	int user = UREGUSER(u);

	if(user)
		up->ureg = u;
	switch(u->trap){
	case T_SYSCALL:
		sti();	/* so that the clock ticks, and schedules, while the kernel works */
		syscall(u);
		break;
	case Tclock:
		clock();
		break;
	case Tflush:
		flushintr();
		break;
	case Tstop:
		patchintr();
		break;
	case Twake:
		lapiceoi();	/* it has woken from idle's hlt: all it was for */
		break;
	case Tspurious:
		break;	/* the local APIC's: it wants no EOI */
	case 1:
		/*
		 * The kernel sets no breakpoints and never single-steps, but a
		 * debug trap that a user's mov ss held back can land on the
		 * kernel's first instruction; the gate has cleared TF.
		 */
		if(!user)
			break;
		userfault(u->trap, u->pc);
		break;
	default:
		if(u->trap > IRQ0 && u->trap < IRQ0 + NIRQ){
			if(intr[u->trap - IRQ0].f != nil)
				intr[u->trap - IRQ0].f(intr[u->trap - IRQ0].arg);
			lapiceoi();
			break;
		}
		if(user){
			if(spurious(u))
				break;
			userfault(u->trap, u->pc);
			break;
		}
		if(ufixup(u))
			break;	/* a profiler's write to user memory: it fails */
		if(retfault(u)){
			/* trapret cannot go on: the process dies here, at the pc it was going back to. */
			userfault(u->trap, up->ureg->pc);
			pexit(255);
		}
		panic("kernel trap %d (%s) addr %#x pc %#x", u->trap,
			trapname(u->trap), rcr2(), u->pc);
	}
	if(!user)
		return;
	if(up->killed)
		pexit(255);
	/*
	 * Every way back to user mode, not only the clock's trap: a
	 * process that lives in system calls (reading /dev/ps in a loop)
	 * takes nearly all its ticks in the kernel, where nothing yields,
	 * and would keep the processor from the others, sleepers whose
	 * time is up too, for as long as it liked.
	 */
	if(thismach()->ticks != up->turn)
		yield();
	if(up->killed)
		pexit(255);
	if(up->profowed){
		/*
		 * Interrupts off, as after the clock's trap (a system call
		 * turned them on), until user mode: sbrk's shootdown waits
		 * for this processor's flush (kern/mmu.c), which then cannot
		 * fall between profapply's look at a counter's page table
		 * entry and its write, so that once sbrk has taken the page
		 * away no tick writes there, nor into the zeroes it is
		 * given back with.
		 */
		cli();
		profapply();
	}
}

/*
 * The frame of the interrupt or trap whose entry f, an NMI frame at a
 * vector's entry (kern/trapasm.asm), interrupted at its first
 * instruction: the processor had run nothing there yet, so the tick is
 * the interrupted code's.  Under -d QEMU delivers the clock's interrupt
 * before an NMI that falls due at the same instant, where a processor
 * takes the NMI first.  An entry begins with push 0 then push v (6A vv,
 * or 68 and 4 bytes for v over 127), or with push v where the processor
 * pushes an error code, which lies above f's frame too.  f itself for
 * any later instruction.
 */
NOPROF uint*
delivered(uint *f)
{
	uchar *op = (uchar*)f[0];

	if(op[0] == 0x6A && op[1] == 0 && (op[2] == 0x6A || op[2] == 0x68) && vectors[op[3]] == f[0])
		return f + 3;
	if(op[0] == 0x6A && vectors[op[1]] == f[0])
		return f + 4;
	return f;
}
