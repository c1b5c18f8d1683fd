/*
 * A program's profile of itself, for gprof and prof: where its time
 * went (a histogram of the pc) and, for a program built with -pg, who
 * called whom how often (the arcs of its call graph).
 *
 * monstartup has profil(2) count the pc into 16-bit counters, one for
 * each BINBYTES bytes of text: scale 0x8000, which makes the index
 * ((pc - lowpc) * 0x8000) >> 17 = (pc - lowpc) / 4.  The range is
 * rounded out to whole counters, so high_pc - low_pc is exactly
 * 4 * hist_size and gprof's bin, (pc - low_pc) * hist_size /
 * (high_pc - low_pc), is the same counter.
 *
 * A program built with -pg calls mcount at the start of each function,
 * which counts the call along its arc in the table of arcs.c.
 *
 * At exit _mcleanup writes the counters and the arcs to gmon.out in the
 * current directory (see gmon.h).  Profiled programs (/bin/NAME.prof)
 * start with gcrt0.asm, which calls monstartup(0x1000, etext) before
 * main and registers _mcleanup with atexit.  Only the process that
 * called monstartup writes gmon.out: a forked child that exits does not
 * overwrite it with its own copy, and a thread that exits leaves the
 * profiling on for the others.
 */
#include "stdint.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "fcntl.h"
#include "unistd.h"
#include "gmon.h"
#include "clock.h"

enum {
	BINBYTES	= 4,		/* bytes of text per counter */
	SCALE		= 0x8000,	/* profil's scale for that: 0x20000 / BINBYTES */
	DEFHZ		= 100,		/* the rate if /dev/time can't be read */
	ARCREC		= 1 + GMON_ARCSIZE,	/* bytes of an arc record, with its tag */
	NREC		= 64,		/* arc records written at a time */
};

static struct {
	uint16_t	*buf;		/* the counters; NULL if not profiling */
	uint32_t	lowpc;		/* first address counted, in buf[0] */
	uint32_t	highpc;		/* lowpc + BINBYTES * n */
	uint32_t	n;		/* counters in buf */
	int	pid;		/* the process that called monstartup */
} mon;

void
monstartup(uintptr_t lowpc, uintptr_t highpc)
{
	if(mon.buf != NULL || highpc <= lowpc)
		return;
	mon.lowpc = lowpc / BINBYTES * BINBYTES;
	mon.highpc = (highpc + BINBYTES - 1) / BINBYTES * BINBYTES;
	mon.n = (mon.highpc - mon.lowpc) / BINBYTES;
	mon.buf = calloc(mon.n, sizeof mon.buf[0]);
	if(mon.buf == NULL){
		fprintf(stderr, "monstartup: no memory for %u counters\n", (unsigned)mon.n);
		return;
	}
	mon.pid = getpid();
	moncontrol(1);
}

/* Turn the counting of ticks and calls on or off, keeping the counts. */
void
moncontrol(int on)
{
	if(mon.buf == NULL)
		return;
	if(on)
		profil(mon.buf, mon.n * sizeof mon.buf[0], mon.lowpc, SCALE);
	else
		profil(NULL, 0, 0, 0);
	mcountctl(on);
}

/* Store v at p as 4 little-endian bytes. */
static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Put the arc record from frompc to selfpc, count calls, at p. */
static void
putarc(uint8_t *p, uint32_t frompc, uint32_t selfpc, uint32_t count)
{
	p[0] = GMON_TAG_CG_ARC;
	put32(p + 1, frompc);
	put32(p + 5, selfpc);
	put32(p + 9, count);
}

/*
 * Write the arc records to fd, NREC at a time, and the count of calls
 * lost to a full table last; 0, or -1 if a write failed.
 */
static int
writearcs(int fd)
{
	uint8_t rec[NREC * ARCREC];
	uint32_t i, narcs, from, self, count;
	int n;

	narcs = mcountarcs();
	n = 0;
	for(i = 0; i < narcs; i++){
		mcountarc(i, &from, &self, &count);
		putarc(rec + n*ARCREC, from, self, count);
		if(++n == NREC){
			if(write(fd, rec, sizeof rec) != sizeof rec)
				return -1;
			n = 0;
		}
	}
	if((count = mcountlost()) != 0)
		putarc(rec + n++*ARCREC, (uintptr_t)mcountoverflow, (uintptr_t)mcountoverflow, count);
	if(n > 0 && write(fd, rec, n*ARCREC) != n*ARCREC)
		return -1;
	return 0;
}

/*
 * Stop counting and write gmon.out: the header, the histogram record,
 * then the arcs.  The i386 is little-endian, so the counters go out as
 * they are in memory.
 */
void
_mcleanup(void)
{
	uint8_t hdr[GMON_HDRSIZE + 1 + GMON_HISTSIZE], *h;
	unsigned int hz;
	long len;
	int fd;

	if(mon.buf == NULL || getpid() != mon.pid)
		return;
	moncontrol(0);
	if(mcountlost() != 0)
		fprintf(stderr, "gmon.out: %u calls on arcs that found the arc table full are counted as mcountoverflow's\n", (unsigned)mcountlost());
	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, "gmon", 4);
	put32(hdr + 4, GMON_VERSION);
	h = hdr + GMON_HDRSIZE;
	h[0] = GMON_TAG_TIME_HIST;
	put32(h + 1, mon.lowpc);
	put32(h + 5, mon.highpc);
	put32(h + 9, mon.n);
	clockticks(&hz);
	put32(h + 13, hz != 0 ? hz : DEFHZ);
	strcpy((char*)h + 17, "seconds");
	h[17 + GMON_DIMENLEN] = 's';

	fd = open("gmon.out", O_WRONLY|O_CREAT|O_TRUNC);
	if(fd < 0){
		perror("gmon.out");
		return;
	}
	len = mon.n * sizeof mon.buf[0];
	if(write(fd, hdr, sizeof hdr) != (long)sizeof hdr || write(fd, mon.buf, len) != len
	|| writearcs(fd) < 0)
		perror("gmon.out");
	close(fd);
}
