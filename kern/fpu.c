/*
 * The FPU: each process has its own x87 and SSE registers.  The
 * scheduler loads a process's registers before it runs and saves them
 * when it stops (kern/proc.c), so the FPU holds the running process's
 * registers the whole time it runs, in the kernel too: the kernel is
 * built to use none of them (-mgeneral-regs-only in the mkfile).
 * Saving every time is simpler than saving only when another process
 * wants the FPU, and costs two instructions a switch.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	CPUfxsr		= 1<<24,	/* CPUID: fxsave and fxrstor */
	CPUsse		= 1<<25,	/* CPUID: SSE */
	CR0mp		= 1<<1,		/* wait and fwait honour TS */
	CR0em		= 1<<2,		/* no FPU: emulate it */
	CR0ts		= 1<<3,		/* task switched: the next FPU instruction traps */
	CR0ne		= 1<<5,		/* x87 errors are trap 16, not an interrupt */
	CR4osfxsr	= 1<<9,		/* fxsave saves SSE too; SSE instructions allowed */
	CR4osxmmexcpt	= 1<<10,	/* SSE errors are trap 19, not invalid opcode */
};

FPsave	fpclean;

void
fpuinit(void)
{
	uint cpu = cpuidfeatures();

	if((cpu & CPUfxsr) == 0)
		panic("fpuinit: no fxsave and fxrstor (CPUID FXSR): a Pentium II or later is needed");
	lcr0((rcr0() | CR0mp | CR0ne) & ~(CR0em | CR0ts));
	lcr4(rcr4() | CR4osfxsr | ((cpu & CPUsse) ? CR4osxmmexcpt : 0));

	/*
	 * What fninit leaves (all exceptions masked, round to nearest, 64-bit
	 * precision, every register empty), and SSE as it is after reset.
	 */
	fpclean.fcw = 0x37F;
	fpclean.mxcsr = 0x1F80;
}
