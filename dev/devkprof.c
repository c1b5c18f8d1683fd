/*
 * Kernel profiling, #T, as Plan 9's devkprof, sampled by an NMI: while
 * kprof counts, every processor takes one HZ times a second
 * (kern/apic.c, nmiclock), interrupts off or on, and kprofnmi counts
 * the tick; if the pc it interrupted is in kernel text, also the 8-byte
 * bin the pc falls in; and, with stacks on, records the call stack
 * there, kernel and user (kern/kpwalk.c), which process context adds
 * to kpstack's table later (dev/kpstack.c).  Every
 * processor counts in a Kpcount of its own, so no increment is lost
 * and the NMI takes no lock.  kpdata shows the cells' sums (kern/kprof.h),
 * kprof's own cost last (kpself); kpstack the stacks, merged over the
 * processors; kpcpu each one's ticks.  kpctl takes start, stop, startclr,
 * interval random|fixed (kern/apic.c), stacks on|off and arcs on|off
 * (the call graph, kern/arcs.c), and reads back a status line.  kpproc and kpctl's pid,
 * the scope, are kern/kpproc.c's; kpgmon, all as a gmon.out, dev/kpgmon.c's.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"
#include "kprof.h"
#include "kpcount.h"

enum {
	Qctl = 1, Qdata, Qcpu, Qstack, Qproc, Qgmon,

	Kpoutside	= 23,	/* the NMI's instructions its rdtscs miss at a user tick: 3 before, 13 + 7 after (objdump -d: usertick's; kprofnmi's own, with stacks off, 1 fewer) */
	Kpoutkernel	= 1,	/* and the more at a kernel tick (kerneltick's) */
	Kpnmicost	= 2048,	/* an NMI's cost, till a processor's own mean takes over (dev/kpnmi.c, nmicost) */
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
	{ "kpcpu",	Qcpu,	0,	0444 },
	{ "kpstack",	Qstack,	0,	0444 },
	{ "kpproc",	Qproc,	0,	0444 },
	{ "kpgmon",	Qgmon,	0,	0444 },
};

uint	kprofon;	/* counting */
uint	kpstacks = 1;	/* recording stacks */

static Kpcount	kpcount[MAXMACH];	/* each processor's counts */
uint	ncell;		/* of cell in use: KPBIN + the bins of kernel text + KPSELF */
uint	kpmask = KPnring - 1;	/* the rings' words in use, less 1 (dev/kpring.c) */
uint	kproom = KPnring - KPrec;	/* and the most in use that leave room for a sample */
/*
 * kpctl's commands, and kpstack's and kpgmon's snapshots
 * (dev/kpstack.c, dev/kpgmon.c): a QLock, as a read takes scheduling
 * points while it holds it (on 8 processors with full tables a
 * snapshot is some 50 ms of work), and the readers that wait for it
 * sleep rather than spin.
 */
static QLock	kproflk = { .lk.name = "kprof" };

/*
 * kprof's own cost in ticks.  Ticks sample the time outside the NMIs,
 * as no NMI samples itself, so NMIs that counted c of time T that took
 * n ticks, in scope or not, are worth c * n / (T - c) ticks, to the
 * nearest (cut short, a row of a few ticks was most of one low): the
 * row is then c/T of the time that the profile's ticks sample,
 * whatever share of it the scope took.  c is the cost of the ticks
 * counted, what each NMI counted with the Kpoutside, and Kpoutkernel,
 * it misses: a tick out of scope costs the scope nothing.
 *
 * On the host's clock each processor's T is the whole time.  Under -d
 * (virtualclock) the clock counts all the processors' instructions,
 * and QEMU's turns share each tick's among those that run, not those
 * halted in idle: so T is the instructions of the ticks at which some
 * processor ran (the clock's time less the ticks that found them all
 * idle), and n the ticks counted that found a processor busy.  A
 * process alone on two processors, the other idle, has all of a tick's
 * instructions; two side by side half each, and a tick of each in two
 * counts (kern/fns.h, thintick).
 */
static uint
kpself(void)
{
	uvlong t = nmiclocktime(0), c, cs = 0, n, all = 0, busy = 0, allidle = 0, r = 0;
	Kpcount *p;
	int k;

	for(k = 0; k < nmach; k++){
		p = mach[k].kp;
		c = p->cycles + (uvlong)Kpoutside * (p->cell[KPTOTAL] + p->thin) + Kpoutkernel * p->cell[KPKERNEL];
		n = (uvlong)p->cell[KPTOTAL] + p->skip;
		if(!virtualclock && c < t)
			r += (c * n + (t - c) / 2) / (t - c);
		cs += c;
		all += n + p->thin;
		busy += n - p->idle;
		allidle += p->allidle;
	}
	if(virtualclock && all > 0){
		t = t / all * (all - allidle);
		if(cs < t)
			r = (cs * busy + (t - cs) / 2) / (t - cs);
	}
	return r > 0xFFFFFFFF ? 0xFFFFFFFF : r;
}

/* Cell i summed over the processors. */
uint
kpcell(uint i)
{
	uint n = 0;
	int k;

	if(i == ncell - KPSELF)
		return kpself();
	for(k = 0; k < nmach; k++)
		n = satadd(n, mach[k].kp->cell[i]);
	return n;
}

/*
 * Stop counting: once no NMI that saw kprofon still counts, the counts
 * stay.  The clock first, then kprofon, whose locked store is seen
 * everywhere before any kpbusy is read, so that an NMI that set kpbusy
 * too late to be waited for finds kprofon off.  Whether it counted.
 */
static uint
kpstop(void)
{
	uint was = kprofon;
	int k;

	nmiclock(0);
	xchg(&kprofon, 0);
	for(k = 0; k < nmach; k++)
		while(mach[k].kpbusy)
			pause();
	return was;
}

/* Count again, if was: the clock starts again too. */
static void
kpresume(uint was)
{
	if(was && xchg(&kprofon, 1) == 0)
		nmiclock(1);
}

static void
kprofinit(void)
{
	uint size = etext - text;
	int k, i;

	if(size > KPmaxtext)
		panic("kprof: kernel text is %d bytes, over KPmaxtext", size);
	ncell = KPBIN + ((size + (1<<KPBINSHIFT) - 1) >> KPBINSHIFT) + KPSELF;
	kprofdir[1].length = ncell * sizeof(uint);
	for(k = 0; k < MAXMACH; k++){
		mach[k].kp = &kpcount[k];
		mach[k].kpmore = Kpstacks;
		for(i = 0; i < Kpnkind; i++){
			kpcount[k].nmimean[i] = Kpnmicost;
			kpcount[k].nmicap[i] = Kpnmicost + Kpnmicost/2;
		}
	}
}

static int
kprofopen(Chan *c, int omode)
{
	int r;

	if(c->qid != Qctl && (omode & O_ACCMODE) != O_RDONLY)
		return seterr(EACCES, "permission denied");
	if(c->qid != Qgmon)
		return 0;
	if(qlockintr(&kproflk) < 0)
		return -1;
	r = kpgmonopen(c);
	qunlock(&kproflk);
	return r;
}

/* kpgmon's copy, or kpproc's text, kept for the open's reads. */
static void
kprofclose(Chan *c)
{
	kfree(c->aux);
	c->aux = nil;
}

/*
 * Cells i to i+k-1 into w: what kpcell gives for each, but summed a
 * processor at a time, each processor's cells an array in a row,
 * rather than cell by cell over the processors: 7 instructions a cell
 * against 128 (doc/benchmarks.md, "Speed tricks"), which made a long
 * stretch without a scheduling point of kpgmon's open and of stacks on.
 * A scheduling point every Kpchunk cells after the first: all the
 * cells of 8 processors, a read of kpdata, took 7 ticks at 10000 Hz.
 * Returns -1 if the process was killed there.  stackswitch, whose
 * clock is stopped, asks for less at a time, and so never yields.
 */
int
kpcells(uint *w, uint i, uint k)
{
	uint j, n, s, *c;
	int m;

	for(s = 0; s < k; s += n){
		if(s > 0 && schedpoint() < 0)
			return -1;
		n = k - s < Kpchunk ? k - s : Kpchunk;
		memmove(w + s, mach[0].kp->cell + i + s, 4*n);
		for(m = 1; m < nmach; m++)
			for(c = mach[m].kp->cell + i + s, j = 0; j < n; j++)
				w[s + j] = satadd(w[s + j], c[j]);
	}
	if(k > 0 && i + k == ncell)
		w[k-1] = kpself();
	return 0;
}

/*
 * n bytes of the cells from byte off, big-endian: byte b is a byte of
 * kpcell(b/4), as the ends do; the whole cells between go by kpcells.
 */
static int
bigendian(uchar *p, uint off, uint n)
{
	uint k, j, *w;

	for(; n > 0 && off % 4 != 0; n--, off++)
		*p++ = kpcell(off/4) >> (8 * (3 - off%4));
	k = n/4;
	w = (uint*)p;
	if(kpcells(w, off/4, k) < 0)
		return -1;
	for(j = 0; j < k; j++)
		w[j] = __builtin_bswap32(w[j]);
	p += 4*k;
	off += 4*k;
	for(n %= 4; n > 0; n--, off++)
		*p++ = kpcell(off/4) >> (8 * (3 - off%4));
	return 0;
}

static long
kprofread(Chan *c, void *buf, long n, uvlong off)
{
	/* A kpcpu line is 41 bytes at most, its counts at 2^32-1: 40 cut the last of 8 short. */
	char status[MAXMACH*48], scope[12];
	uint len, cut;
	int k, l;

	switch(c->qid){
	case Qctl:
		for(k = 0, cut = 0; k < nmach; k++)
			cut = satadd(cut, mach[k].kp->cut);
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x cpus %d cut %u stacks %s clock %s interval %s pid %s arcs %s drop %u\n",
			kprofon ? "on" : "off", hz, 1<<KPBINSHIFT, (uint)text, (uint)etext, nmach, cut, kpstacks ? "on" : "off",
			virtualclock ? "virtual" : "host", nmirandom ? "random" : "fixed",
			kpscopename(scope, sizeof scope), arcson ? "on" : "off", arcsdrops());
		return readstr(off, buf, n, status);
	case Qcpu:
		for(k = 0, l = 0; k < nmach; k++)
			l += snprintf(status + l, sizeof status - l, "cpu %d total %u kernel %u\n", k,
				mach[k].kp->cell[0], mach[k].kp->cell[1]);
		return readstr(off, buf, n, status);
	case Qstack:
		if(qlockintr(&kproflk) < 0)
			return -1;
		n = stackread(buf, n, off);
		qunlock(&kproflk);
		return n;
	case Qproc:
		return kpprocread(c, buf, n, off);
	case Qgmon:
		return kpgmonread(c, buf, n, off);
	}
	len = ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	if(bigendian(buf, off, n) < 0)
		return -1;
	return n;
}

enum { CMstart, CMstop, CMstartclr, CMinterval, CMpid, CMarcs, CMstacks };

static Cmdtab kpctlmsg[] = {
	{ CMstart,	"start",	1 },
	{ CMstop,	"stop",		1 },
	{ CMstartclr,	"startclr",	1 },
	{ CMinterval,	"interval",	2 },	/* random or fixed */
	{ CMpid,	"pid",		2 },
	{ CMarcs,	"arcs",		2 },	/* on or off */
	{ CMstacks,	"stacks",	2 },	/* on or off */
};

/*
 * kpctl's stacks: on or off from the next tick.  No NMI counts while
 * it changes, so that kpstack knows each cell's ticks with stacks to
 * the tick (stackswitch); the clock stops a moment for it, as for
 * interval.
 */
static int
stacks(char *arg)
{
	uint on, was;
	int k;

	if(strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
		return seterr(EINVAL, "bad control message");
	on = arg[1] == 'n';
	if(on == kpstacks)
		return 0;
	was = kpstop();
	stackswitch(on);
	kpstacks = on;
	for(k = 0; k < MAXMACH; k++)
		if(on)	/* locked: the profilers may change the first's Kprearm meanwhile (kern/apic.c, nmiset) */
			__sync_fetch_and_or(&mach[k].kpmore, Kpstacks);
		else
			__sync_fetch_and_and(&mach[k].kpmore, ~Kpstacks);
	kpresume(was);
	return 0;
}

static long
kprofwrite(Chan *c, void *buf, long n, uvlong off)
{
	Cmdbuf cb;
	Cmdtab *ct;
	uint was;
	int k;

	USED(off);
	if(c->qid != Qctl)
		return seterr(EACCES, "permission denied");
	/*
	 * Copied in and parsed before kproflk: however many blanks follow
	 * a message, no other kpctl command waits while they are read.
	 */
	if(parsecmd(&cb, buf, n) < 0 || (ct = lookupcmd(&cb, kpctlmsg, nelem(kpctlmsg))) == nil)
		return -1;
	if(qlockintr(&kproflk) < 0)
		return -1;
	switch(ct->index){
	case CMstart:
		KPMARK("kpon");
		kpresume(1);
		break;
	case CMstop:
		/* Stopped once no NMI that saw kprofon still counts: then the counts stay. */
		KPMARK("kpof");
		kpstop();
		stackdrainall();
		break;
	case CMarcs:
		if(strcmp(cb.f[1], "on") != 0 && strcmp(cb.f[1], "off") != 0){
			qunlock(&kproflk);
			return seterr(EINVAL, "bad control message");
		}
		if(arcsctl(cb.f[1][1] == 'n') < 0){
			qunlock(&kproflk);
			return -1;
		}
		break;
	case CMinterval:
		if(strcmp(cb.f[1], "random") != 0 && strcmp(cb.f[1], "fixed") != 0){
			qunlock(&kproflk);
			return seterr(EINVAL, "bad control message");
		}
		/*
		 * The first processor's NMI writes the 8254's count at
		 * its ticks, a byte at a time: written here meanwhile,
		 * the bytes went in out of step, and the clock ran at
		 * counts of tens of milliseconds until the next change.
		 */
		was = kpstop();
		nmirandom = cb.f[1][0] == 'r';
		kpresume(was);
		break;
	case CMstartclr:
		/*
		 * Zeroed while no NMI counts: no tick is lost or counted
		 * into the old counts in between.
		 */
		kpstop();
		for(k = 0; k < nmach; k++)
			stackreset(&mach[k]);
		kpprocclear();
		stackclear();
		arcsclear();
		KPMARK("kpcl");
		KPMARK("kpon");
		nmiclocktime(1);
		kpresume(1);
		break;
	case CMstacks:
		if(stacks(cb.f[1]) < 0){
			qunlock(&kproflk);
			return -1;
		}
		break;
	case CMpid:
		if(kpscope(cb.f[1]) < 0){
			qunlock(&kproflk);
			return -1;
		}
		break;
	}
	qunlock(&kproflk);
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
	.close = kprofclose,
};
