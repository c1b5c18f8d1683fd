/*
 * gmon.out, GNU gprof's format: the one definition that the kernel's
 * (#T/kpgmon, dev/kpgmon.c) and a program's (user/lib/gmon.c) writers
 * and the formatters' reader (user/lib/gmonread.c, through
 * user/include/gmon.h) include.
 *
 *	header	"gmon", version 1 (4 bytes), 12 zero bytes
 *	record	tag GMON_TAG_TIME_HIST (1 byte), then
 *		low_pc, high_pc (4 bytes each), hist_size (4: the number of
 *		counters), prof_rate (4: HZ), dimen (15: "seconds",
 *		NUL-padded), dimen_abbrev (1: 's'),
 *		then hist_size 16-bit counts
 *	records	one for each arc of the call graph: tag GMON_TAG_CG_ARC
 *		(1 byte), then from_pc (the return address into the
 *		caller), self_pc (an address in the callee, just after
 *		its call of mcount, or the kernel's fentry) and count
 *		(calls along the arc), 4 bytes each
 *
 * every number little-endian.  Counter i covers the text from
 * low_pc + i*(high_pc-low_pc)/hist_size, as gprof reads it.  A
 * histogram with a count over 65535 is written as several records of
 * the same range, which gprof adds up.  An arc's count stops at
 * GMON_MAXCOUNT: it never wraps.
 */
#ifndef KERN_GMON_H
#define KERN_GMON_H

enum {
	GMON_VERSION		= 1,
	GMON_HDRSIZE		= 20,	/* bytes in the file header */
	GMON_TAG_TIME_HIST	= 0,
	GMON_TAG_CG_ARC		= 1,
	GMON_HISTSIZE		= 32,	/* bytes of a histogram record after its tag */
	GMON_ARCSIZE		= 12,	/* bytes of an arc record after its tag */
	GMON_DIMENLEN		= 15,	/* bytes in dimen */
	GMON_MAXHIST		= 0xFFFF,	/* a histogram counter's largest */
};

#define GMON_MAXCOUNT	0xffffffffu	/* where an arc's count stops */

#endif
