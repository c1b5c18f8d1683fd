/*
 * The formats of the kernel profiler's files, #T (kprof(3)): the one
 * definition that the kernel (dev/devkprof.c, kern/kpproc.c), the
 * formatters and the host's tools (user/include/kpdata.h, kpstack.h,
 * kpproc.h; tools/kpexact.c, the exact count) include, and that tools/test/kprofh.py reads.
 *
 * kpdata is an array of cells of KPCELL bytes, each a count, most
 * significant byte first (big-endian) whatever the machine:
 *	cell KPTOTAL	the ticks while profiling was on
 *	cell KPKERNEL	those that found the processor in kernel text
 *	cell KPBIN+i	those whose pc was in text + i*KPBINSIZE up to
 *			the next bin, for each bin of kernel text
 *	the last	kprof's own cost, in ticks, which the cells
 *			above leave out: KPSELF cells after the bins
 *			(0 in a file of exact counts, which have none)
 * A count stops at 2^32-1 rather than wrap.
 *
 * kpstack is text, a line for each distinct call stack,
 *	count pc0 pc1 ... pcN
 * and a newline: the ticks in decimal, then 1 to KPMAXFRAMES pcs, each
 * a blank and KPPCDIGITS hex digits, leaf first.  pc0 is where the tick
 * found the processor; the others are return addresses.  The kernel's
 * stack comes first, up to KPKFRAMES pcs in kernel text; then, for a
 * tick in a process, KPUMARK and its user stack, up to KPUFRAMES pcs
 * below the kernel, where it was in user mode first.  A tick in user
 * mode has the mark and the user stack alone, and a last line of the
 * mark alone counts the user ticks that no other line holds.  So,
 * profiling stopped, the lines' counts sum to cell KPTOTAL.
 *
 * The kernel marks where kprof starts, clears and stops, for an exact
 * count taken outside the machine (tools/kpexact.c, a QEMU plugin that
 * counts instructions between the marks): KPMARK, a nop that no
 * compiler emits, nopl disp32(%eax), whose KPMARKLEN bytes are
 * KPMARKOP and a displacement that spells kpon, kpcl or kpof.  And
 * where a processor's work enters or leaves kprof's scope, so that the
 * count is of the scope's alone: kpsc, KPSCOPE, when the scheduler
 * takes up a process or comes back, and when kpctl's pid changes the
 * scope of the process that writes it, with KPSCIN and KPSCPROC in
 * eax and the process's page directory in edx.
 *
 * kpproc is text, a line for each process with ticks in the run,
 *	pid ppid name user kernel
 * in decimal but the name, which may hold blanks: the numbers are the
 * first two words and the last two.  If processes exited when the
 * table of those kept was full, a last line
 *	overflow n user kernel
 * sums their ticks.  A user tick's pc was outside kernel text.
 */
#ifndef KPROF_H
#define KPROF_H

enum {
	KPBINSHIFT	= 3,	/* log2 of KPBINSIZE */
	KPBINSIZE	= 1<<KPBINSHIFT,	/* bytes of kernel text a bin counts */
	KPCELL		= 4,	/* bytes in a cell of kpdata */
	KPTOTAL		= 0,	/* kpdata's cell of all ticks */
	KPKERNEL	= 1,	/* its cell of kernel ticks */
	KPBIN		= 2,	/* its first bin's cell */
	KPSELF		= 1,	/* cells after the bins in the kernel's kpdata: kprof's own cost */
	KPKFRAMES	= 32,	/* kernel pcs in a line of kpstack, at most */
	KPUFRAMES	= 16,	/* user pcs in it, at most */
	KPMAXFRAMES	= KPKFRAMES + 1 + KPUFRAMES,	/* pcs in it, the mark included */
	KPPCDIGITS	= 8,	/* hex digits of a pc in kpstack */
	KPMARKLEN	= 7,	/* bytes of a mark */
	KPSCIN		= 1,	/* KPSCOPE's word: in scope */
	KPSCPROC	= 2,	/* and a process's */
};

#define KPUMARK	0xFFFFFFFFU	/* kpstack's pc where the user stack starts: never a user or kernel text pc */
#define KPMARKOP	"\x0f\x1f\x80"
#define KPMARK(s)	asm volatile(".byte 0x0f, 0x1f, 0x80\n.ascii \"" s "\"")
/* The mark kpsc, with its word in eax: KPSCIN if what the processor runs from here is in kprof's scope, KPSCPROC if it is a process, whose page directory's physical address is in edx. */
#define KPSCOPE(w, pd)	asm volatile(".byte 0x0f, 0x1f, 0x80\n.ascii \"kpsc\"" : : "a"(w), "d"(pd))

#endif
