/*
 * Kernel profiling, #T, as Plan 9's devkprof: at each clock tick
 * kprofclock (kern/fns.h, inline in the clock) counts the tick, and if
 * the interrupted pc is in kernel text, the 8-byte bin it falls in.
 * Every processor counts in cells of its own; kpdata shows their sums
 * as big-endian 4-byte cells: all ticks, kernel ticks, then one per
 * bin.  kpcpu shows each processor's total and kernel ticks.  kpctl
 * takes start, stop and startclr, and reads back a status line.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	Qctl = 1,
	Qdata,
	Qcpu,
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
	{ "kpcpu",	Qcpu,	0,	0444 },
};

volatile uint	kprofon;	/* counting */
static uint	kprofcell[MAXMACH][2][KPncell];	/* each processor's counts and a spare, in host order */
static uint	ncell;		/* of them in use: 2 + the bins of kernel text */
static Lock	kproflk = { .name = "kprof" };	/* kpctl's commands, one at a time */

/* Cell i summed over the processors, sticking at the largest value. */
static uint
cell(uint i)
{
	uint n = 0, v;
	int k;

	for(k = 0; k < nmach; k++){
		v = mach[k].kpcell[i];
		n = n + v < n ? 0xFFFFFFFF : n + v;
	}
	return n;
}

/* Wait until no tick that saw kprofon is still counting. */
static void
quiesce(void)
{
	int k;

	for(k = 0; k < nmach; k++)
		while(mach[k].kpbusy)
			pause();
}

static void
kprofinit(void)
{
	uint size = etext - text;
	int k;

	if(size > KPmaxtext)
		panic("kprof: kernel text is %d bytes, over KPmaxtext", size);
	ncell = 2 + ((size + (1<<KPbinshift) - 1) >> KPbinshift);
	kprofdir[1].length = ncell * sizeof(uint);
	for(k = 0; k < MAXMACH; k++)
		mach[k].kpcell = kprofcell[k][0];
}

static int
kprofopen(Chan *c, int omode)
{
	if(c->qid != Qctl && (omode & O_ACCMODE) != O_RDONLY)
		return seterr(EACCES, "permission denied");
	return 0;
}

/* The cells from byte off, big-endian: whole cells a word at a time. */
static void
bigendian(uchar *p, uint off, uint n)
{
	uint i, k;

	for(; n > 0 && off % 4 != 0; n--, off++)
		*p++ = cell(off/4) >> (8 * (3 - off%4));
	for(i = off/4, k = n/4; k > 0; k--, i++, p += 4)
		*(uint*)p = __builtin_bswap32(cell(i));
	for(off = 4*i, n %= 4; n > 0; n--, off++)
		*p++ = cell(off/4) >> (8 * (3 - off%4));
}

static long
kprofread(Chan *c, void *buf, long n, uvlong off)
{
	char status[MAXMACH*40];
	uint len;
	int k, l;

	switch(c->qid){
	case Qctl:
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x cpus %d\n",
			kprofon ? "on" : "off", hz, 1<<KPbinshift, (uint)text, (uint)etext, nmach);
		return readstr(off, buf, n, status);
	case Qcpu:
		for(k = 0, l = 0; k < nmach; k++)
			l += snprintf(status + l, sizeof status - l, "cpu %d total %u kernel %u\n", k,
				mach[k].kpcell[0], mach[k].kpcell[1]);
		return readstr(off, buf, n, status);
	}
	len = ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	bigendian(buf, off, n);
	return n;
}

static long
kprofwrite(Chan *c, void *buf, long n, uvlong off)
{
	char msg[16];
	uint *spare;
	int k;

	USED(off);
	if(c->qid != Qctl)
		return seterr(EACCES, "permission denied");
	/*
	 * Copied in and parsed with interrupts on: however many blanks
	 * follow a message, the clock is never held off while they are read.
	 */
	if(n >= (long)sizeof msg)
		return seterr(EINVAL, "bad control message");
	memmove(msg, buf, n);
	lock(&kproflk);
	if(iscmd(msg, n, "start"))
		xchg(&kprofon, 1);
	else if(iscmd(msg, n, "stop")){
		/* Stopped once no tick that saw kprofon still counts: then the counts stay. */
		xchg(&kprofon, 0);
		quiesce();
	}else if(iscmd(msg, n, "startclr")){
		/*
		 * Each processor's spare cells, zeroed, become its counts:
		 * a tick counts in the old cells or the new, never both, and
		 * once the ticks under way are done, only in the new.
		 */
		for(k = 0; k < nmach; k++){
			spare = kprofcell[k][mach[k].kpcell == kprofcell[k][0]];
			memset(spare, 0, ncell * sizeof(uint));
			mach[k].kpcell = spare;
		}
		quiesce();
		xchg(&kprofon, 1);
	}else{
		unlock(&kproflk);
		return seterr(EINVAL, "bad control message");
	}
	unlock(&kproflk);
	return n;
}

Dev kprofdevtab = {
	.dc = 'T',
	.tab = kprofdir,
	.ntab = nelem(kprofdir),
	.init = kprofinit,
	.open = kprofopen,
	.read = kprofread,
	.write = kprofwrite,
};
