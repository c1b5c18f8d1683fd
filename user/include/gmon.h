/*
 * A program's profile of itself (user/lib/gmon.c), written at exit to
 * gmon.out in GNU gprof's format (kern/gmon.h), which prof reads too,
 * and the reading of a gmon.out, the kernel's (#T/kpgmon) or a
 * program's (user/lib/gmonread.c).
 *
 * The table of arcs holds GMON_NARCS; calls along arcs that found it
 * full are counted in one more record, an arc from mcountoverflow to
 * itself.
 */
#ifndef GMON_H
#define GMON_H
#include <stdint.h>
#include "kern/gmon.h"

enum {
	GMON_NARCS		= 2048,	/* arcs mcount has room for */
};

typedef struct Gmon Gmon;
typedef struct Gmonarc Gmonarc;

/* An arc record. */
struct Gmonarc {
	uint32_t	from;		/* return address into the caller */
	uint32_t	self;		/* in the callee */
	uint32_t	count;		/* calls */
};

/* A gmon.out read by gmonread.c: its histogram, decoded, and its arcs. */
struct Gmon {
	uint32_t	lowpc;		/* the address the first counter starts at */
	uint32_t	highpc;		/* the end of the last counter's range */
	uint32_t	n;		/* counters */
	uint32_t	hz;		/* clock ticks a second */
	uint32_t	*count;		/* n counts, the records of the histogram added up; NULL until read */
	uint64_t	total;		/* the counters' sum: ticks */
	uint64_t	lost;		/* calls along arcs that mcount had no room for */
	Gmonarc	*arc;		/* the arc records, in the file's order */
	uint32_t	narc;		/* how many */
	size_t	arccap;		/* room in arc */
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

/* gmonread.c: a gmon.out read, for prof and kprof, its ticks and calls credited to the program's functions. */
struct Symtab;
void	gmonload(Gmon *g, struct Symtab *t, const char *path);
void	gmonfree(Gmon *g);
uint32_t	gmonaddr(Gmon *g, uint32_t i);

/* callgraph.c: kprof -q's call graph. */
void	callgraph(struct Symtab *t, Gmon *g, const char *fn);

#endif
