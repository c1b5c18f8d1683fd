/*
 * A program's profile of itself, for gprof and prof.  monstartup has
 * profil(2) count the pc into 16-bit counters, one for each BINBYTES
 * bytes of text: scale 0x8000, which makes the index
 * ((pc - lowpc) * 0x8000) >> 17 = (pc - lowpc) / 4.  The range is
 * rounded out to whole counters, so high_pc - low_pc is exactly
 * 4 * hist_size and gprof's bin, (pc - low_pc) * hist_size /
 * (high_pc - low_pc), is the same counter.  At exit _mcleanup writes
 * the counters to gmon.out in the current directory (see gmon.h).
 *
 * Profiled programs (/bin/NAME.prof) start with gcrt0.asm, which calls
 * monstartup(0x1000, etext) before main and registers _mcleanup with
 * atexit.  Only the process that called monstartup writes gmon.out: a
 * forked child that exits does not overwrite it with its own copy.
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

/* Turn the counting on or off, keeping the counts. */
void
moncontrol(int on)
{
	if(mon.buf == NULL)
		return;
	if(on)
		profil(mon.buf, mon.n * sizeof mon.buf[0], mon.lowpc, SCALE);
	else
		profil(NULL, 0, 0, 0);
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

/*
 * Stop counting and write gmon.out: the header, then the histogram
 * record.  The i386 is little-endian, so the counters go out as they
 * are in memory.
 */
void
_mcleanup(void)
{
	uint8_t hdr[GMON_HDRSIZE + 1 + GMON_HISTSIZE], *h;
	unsigned int hz;
	long len;
	int fd;

	moncontrol(0);
	if(mon.buf == NULL || getpid() != mon.pid)
		return;
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
	if(write(fd, hdr, sizeof hdr) != (long)sizeof hdr || write(fd, mon.buf, len) != len)
		perror("gmon.out");
	close(fd);
}
