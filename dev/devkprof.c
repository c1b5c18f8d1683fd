/*
 * Kernel profiling, #T, as Plan 9's devkprof: at each clock tick
 * kprofclock (kern/fns.h, inline in the clock) counts the tick, and if
 * the interrupted pc is in kernel text, the 8-byte bin it falls in.
 * kpdata shows the counts as big-endian 4-byte cells: all ticks, kernel
 * ticks, then one per bin.  kpctl takes start, stop and startclr, and
 * reads back a status line.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	Qctl = 1,
	Qdata,
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
};

int	kprofon;		/* counting */
uint	kprofcell[2 + (KPmaxtext >> KPbinshift)];	/* the counts, in host order */
static uint	ncell;		/* of them in use: 2 + the bins of kernel text */

static void
kprofinit(void)
{
	uint size = etext - text;

	if(size > KPmaxtext)
		panic("kprof: kernel text is %d bytes, over KPmaxtext", size);
	ncell = 2 + ((size + (1<<KPbinshift) - 1) >> KPbinshift);
	kprofdir[1].length = ncell * sizeof(uint);
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
		*p++ = kprofcell[off/4] >> (8 * (3 - off%4));
	for(i = off/4, k = n/4; k > 0; k--, i++, p += 4)
		*(uint*)p = __builtin_bswap32(kprofcell[i]);
	for(off = 4*i, n %= 4; n > 0; n--, off++)
		*p++ = kprofcell[off/4] >> (8 * (3 - off%4));
}

static long
kprofread(Chan *c, void *buf, long n, uvlong off)
{
	char status[96];
	uint len;
	int s;

	switch(c->qid){
	case Qctl:
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x\n",
			kprofon ? "on" : "off", hz, 1<<KPbinshift, (uint)text, (uint)etext);
		return readstr(off, buf, n, status);
	}
	len = ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	s = splhi();	/* one consistent snapshot, even while counting */
	bigendian(buf, off, n);
	splx(s);
	return n;
}

static long
kprofwrite(Chan *c, void *buf, long n, uvlong off)
{
	char msg[16];
	int s;

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
	if(iscmd(msg, n, "start"))
		kprofon = 1;
	else if(iscmd(msg, n, "stop"))
		kprofon = 0;
	else if(iscmd(msg, n, "startclr")){
		s = splhi();	/* no tick between the clearing and the start */
		memset(kprofcell, 0, ncell * sizeof(uint));
		kprofon = 1;
		splx(s);
	}else
		return seterr(EINVAL, "bad control message");
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
