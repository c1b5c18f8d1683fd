/*
 * Kernel profiling, #T, as Plan 9's devkprof: at each clock tick
 * kprofclock counts the tick, and if the interrupted pc is in kernel
 * text, the 8-byte bin it falls in.  kpdata shows the counts as
 * big-endian 4-byte cells: all ticks, kernel ticks, then one per bin.
 * kpctl takes start, stop and startclr, and reads back a status line.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	Qctl = 1,
	Qdata,
	Binshift = 3,		/* bins of 8 bytes */
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
};

static struct {
	int	on;		/* counting */
	uint	textsize;	/* etext - text */
	uint	ncell;		/* 2 + the number of bins */
	uint	*cell;		/* the counts, in host order */
} kprof;

static void
kprofinit(void)
{
	kprof.textsize = etext - text;
	kprof.ncell = 2 + ((kprof.textsize + (1<<Binshift) - 1) >> Binshift);
	if((kprof.cell = kmalloc(kprof.ncell * sizeof(uint))) == nil)
		panic("kprof: no memory");
	kprofdir[1].length = kprof.ncell * sizeof(uint);
}

/* Count one more, but stop at 0xFFFFFFFF rather than wrap. */
static inline void
inc(uint *c)
{
	if(++*c == 0)
		*c = ~0U;
}

/*
 * The clock's hook: a tick that interrupted pc.  No lock is needed:
 * it runs with interrupts off on the only processor.  A user pc is
 * below KZERO and so never inside kernel text.
 */
void
kprofclock(uint pc)
{
	if(!kprof.on)
		return;
	inc(&kprof.cell[0]);
	pc -= (uint)text;
	if(pc >= kprof.textsize)
		return;
	inc(&kprof.cell[1]);
	inc(&kprof.cell[2 + (pc >> Binshift)]);
}

static int
kprofopen(Chan *c, int omode)
{
	if(c->qid != Qctl && (omode & O_ACCMODE) != O_RDONLY)
		return seterr(EACCES, "permission denied");
	return 0;
}

static long
kprofread(Chan *c, void *buf, long n, uvlong off)
{
	char status[96];
	uchar *p = buf;
	uint i, len;
	int s;

	switch(c->qid){
	case Qctl:
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x\n",
			kprof.on ? "on" : "off", hz, 1<<Binshift, (uint)text, (uint)etext);
		return readstr(off, buf, n, status);
	}
	len = kprof.ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	s = splhi();	/* one consistent snapshot, even while counting */
	for(i = 0; i < (uint)n; i++, off++)
		p[i] = kprof.cell[off/4] >> (8 * (3 - off%4));
	splx(s);
	return n;
}

static long
kprofwrite(Chan *c, void *buf, long n, uvlong off)
{
	int s;

	USED(off);
	if(c->qid != Qctl)
		return seterr(EACCES, "permission denied");
	s = splhi();
	if(iscmd(buf, n, "start"))
		kprof.on = 1;
	else if(iscmd(buf, n, "stop"))
		kprof.on = 0;
	else if(iscmd(buf, n, "startclr")){
		memset(kprof.cell, 0, kprof.ncell * sizeof(uint));
		kprof.on = 1;
	}else{
		splx(s);
		return seterr(EINVAL, "bad control message");
	}
	splx(s);
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
