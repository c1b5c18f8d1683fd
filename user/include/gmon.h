/*
 * A program's profile of itself (user/lib/gmon.c), written at exit to
 * gmon.out in GNU gprof's format, which prof reads too:
 *
 *	header	"gmon", version 1 (4 bytes), 12 zero bytes
 *	record	tag GMON_TAG_TIME_HIST (1 byte), then
 *		low_pc, high_pc (4 bytes each), hist_size (4: the number of
 *		counters), prof_rate (4: HZ), dimen (15: "seconds",
 *		NUL-padded), dimen_abbrev (1: 's'),
 *		then hist_size 16-bit counts
 *	records	for a program built with -pg, one for each arc of the
 *		call graph: tag GMON_TAG_CG_ARC (1 byte), then from_pc
 *		(the return address into the caller), self_pc (an
 *		address in the callee, just after its call of mcount)
 *		and count (calls along the arc), 4 bytes each
 *
 * every number little-endian.  Counter i covers the text from
 * low_pc + i*(high_pc-low_pc)/hist_size, as gprof reads it.
 *
 * An arc's count stops at GMON_MAXCOUNT: it never wraps.  The table of
 * arcs holds GMON_NARCS; calls along arcs that found it full are
 * counted in one more record, an arc from mcountoverflow to itself.
 */
#ifndef GMON_H
#define GMON_H
#include <stdint.h>

enum {
	GMON_VERSION		= 1,
	GMON_HDRSIZE		= 20,	/* bytes in the file header */
	GMON_TAG_TIME_HIST	= 0,
	GMON_TAG_CG_ARC		= 1,
	GMON_HISTSIZE		= 32,	/* bytes of a histogram record after its tag */
	GMON_ARCSIZE		= 12,	/* bytes of an arc record after its tag */
	GMON_DIMENLEN		= 15,	/* bytes in dimen */
	GMON_NARCS		= 2048,	/* arcs mcount has room for */
};

#define GMON_MAXCOUNT	0xffffffffu	/* where an arc's count stops */

typedef struct Gmon Gmon;

/* A gmon.out read by gmonread.c: its histogram record, decoded. */
struct Gmon {
	uint32_t	lowpc;		/* the address the first counter starts at */
	uint32_t	highpc;		/* the end of the last counter's range */
	uint32_t	n;		/* counters */
	uint32_t	hz;		/* clock ticks a second */
	const uint8_t	*count;		/* n 16-bit little-endian counts, in buf; NULL until read */
	uint64_t	total;		/* the counters' sum: ticks */
	uint64_t	lost;		/* calls along arcs that mcount had no room for */
	uint8_t	*buf;		/* the file */
};

/* gmon.c: the profile, gcrt0's calls. */
void	monstartup(uintptr_t lowpc, uintptr_t highpc);
void	moncontrol(int on);
void	_mcleanup(void);

/* arcs.c: mcount's table of arcs. */
void	_mcount(uint32_t frompc, uint32_t selfpc);	/* from mcount.asm */
void	mcountoverflow(void);
void	mcountctl(int on);
uint32_t	mcountarcs(void);
void	mcountarc(uint32_t i, uint32_t *frompc, uint32_t *selfpc, uint32_t *count);
uint32_t	mcountlost(void);

/* gmonread.c: a gmon.out read, for prof, its ticks and calls credited to the program's functions. */
struct Symtab;
void	gmonload(Gmon *g, struct Symtab *t, const char *path);
void	gmonfree(Gmon *g);
uint32_t	gmonaddr(Gmon *g, uint32_t i);

#endif
