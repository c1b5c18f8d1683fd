/*
 * The formats of the kernel profiler's files, #T (kprof(3)): the one
 * definition that the kernel (dev/devkprof.c), the formatters and the
 * host's tools (user/include/kpdata.h, kpstack.h; tools/kpexact.c, the
 * exact count) include, and that tools/test/kpcheck.py reads.
 *
 * kpdata is an array of cells of KPCELL bytes, each a count, most
 * significant byte first (big-endian) whatever the machine:
 *	cell KPTOTAL	the ticks while profiling was on
 *	cell KPKERNEL	those that found the processor in kernel text
 *	cell KPBIN+i	those whose pc was in text + i*KPBINSIZE up to
 *			the next bin, for each bin of kernel text
 * A count stops at 2^32-1 rather than wrap.
 *
 * kpstack is text, a line for each distinct kernel call stack,
 *	count pc0 pc1 ... pcN
 * and a newline: the ticks in decimal, then 1 to KPMAXFRAMES pcs, each
 * a blank and KPPCDIGITS hex digits, leaf first.  pc0 is where the tick
 * found the processor; the others are return addresses.
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
	KPMAXFRAMES	= 32,	/* pcs in a line of kpstack, at most */
	KPPCDIGITS	= 8,	/* hex digits of a pc in kpstack */
};

#endif
