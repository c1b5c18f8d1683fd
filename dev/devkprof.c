/*
 * Kernel profiling, #T, as Plan 9's devkprof, sampled by an NMI: while
 * kprof counts, every processor takes one HZ times a second
 * (kern/apic.c, nmiclock), interrupts off or on, and kprofnmi counts
 * the tick; if the pc it interrupted is in kernel text, also the 8-byte
 * bin the pc falls in; and the call stack there, kernel and user
 * (kern/kpwalk.c).  Every
 * processor counts in a Kpcount of its own, so no increment is lost
 * and the NMI takes no lock.  kpdata shows the cells' sums (kern/kprof.h),
 * kprof's own cost last (kpself); kpstack the stacks, merged over the
 * processors; kpcpu each one's ticks.  kpctl takes start, stop, startclr
 * interval random|fixed (kern/apic.c) and arcs on|off (the call graph,
 * kern/arcs.c), and reads back a status line.  kpproc and kpctl's pid,
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

	Kpoutside	= 36,	/* the NMI's instructions its rdtscs miss: 4 before, 24 + 8 after (objdump -d) */
	Kpnmicost	= 2048,	/* an NMI's cost, till a processor's own mean takes over (nmicost) */
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
	{ "kpcpu",	Qcpu,	0,	0444 },
	{ "kpstack",	Qstack,	0,	0444 },
	{ "kpproc",	Qproc,	0,	0444 },
	{ "kpgmon",	Qgmon,	0,	0444 },
};

volatile uint	kprofon;	/* counting */

static Kpcount	kpcount[MAXMACH][2];	/* each processor's counts and a spare */
uint	ncell;		/* of cell in use: KPBIN + the bins of kernel text + KPSELF */
/*
 * kpctl's commands, and kpstack's and kpgmon's snapshots
 * (dev/kpstack.c, dev/kpgmon.c): a QLock, as a read takes scheduling
 * points while it holds it (on 8 processors with full tables a
 * snapshot is some 50 ms of work), and the readers that wait for it
 * sleep rather than spin.
 */
static QLock	kproflk = { .lk.name = "kprof" };

/*
 * kprof's own cost in ticks.  A processor's ticks sample its time
 * outside its NMIs, as no NMI samples itself, so its NMIs' counts c,
 * of its time T, are c * ticks / (T - c) ticks, and the row is then
 * c/T of the whole.  Under -d (virtualclock) the clock counts all the
 * processors' instructions, and T is taken as 1/nmach of it: QEMU's
 * turns give them unequal parts, but equal ticks, so the row is still
 * all the NMIs' counts over all the instructions.
 */
static uint
kpself(void)
{
	uvlong t = nmiclocktime(0), c, n = 0;
	int k;

	if(virtualclock)
		t /= nmach;
	for(k = 0; k < nmach; k++)
		if((c = mach[k].kp->cycles) < t)
			n += c * mach[k].kp->cell[KPTOTAL] / (t - c);
	return n > 0xFFFFFFFF ? 0xFFFFFFFF : n;
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
 * Wait until no NMI that saw kprofon is still counting.  The fence
 * first: the Kpcount pointers startclr stored are seen everywhere
 * before any kpbusy is read, so an NMI that set kpbusy too late to be
 * waited for finds the new counts.
 */
static void
quiesce(void)
{
	int k;

	__sync_synchronize();
	for(k = 0; k < nmach; k++)
		while(mach[k].kpbusy)
			pause();
}

static int
intext(uint pc)
{
	return pc - (uint)text < (uint)ktextsize;
}

/*
 * One more tick for the stack pc[0..n-1], of hash h, in k's table, in
 * a new slot if it has none yet: open addressing, KPprobe slots at
 * most from the one its hash names.  -1 if it has no slot and there is
 * no room.
 */
static NOPROF int
stackadd(Kpcount *k, uint *pc, uint n, uint h)
{
	uint i, j;
	Kpstack *s;

	for(i = 0; i < KPprobe; i++){
		s = &k->stack[(h + i) % KPnstack];
		if(s->count == 0){
			if(k->npc + n > KPnpc)
				return -1;
			for(j = 0; j < n; j++)
				k->pc[k->npc + j] = pc[j];
			s->hash = h;
			s->off = k->npc;
			s->n = n;
			k->npc += n;
			asm volatile("" ::: "memory");	/* the count last: a reader sees the slot whole or free */
			s->count = 1;
			return 0;
		}
		if(s->hash == h && s->n == n && same(k->pc + s->off, pc, n)){
			satinc((uint*)&s->count);
			return 0;
		}
	}
	return -1;
}

/*
 * What an NMI cost, from d, the time-stamp counts it took.  Under -d
 * they are all the processors' instructions, which QEMU runs in turns,
 * and a turn that ends inside an NMI puts the others' turns in its d:
 * on 4 processors 1 NMI in 10, adding half again to the sum.  Those
 * turns are a hundred instructions to thousands, while an NMI's own
 * cost stays within 1.5 times its processor's mean (at most 1.31 times
 * in runtest, 1.23 in #S's tree of stacks, on 1 processor:
 * doc/benchmarks.md), so a d over 1.5 times the running mean spans a
 * turn, and counts at the mean.  The mean follows the d it takes by
 * 1/8; one it refuses still raises it by 1/256, so that a processor
 * whose NMIs do become dearer (a deeper stack) is followed after some
 * hundreds, and yet on 8 processors, where half the NMIs span turns,
 * the mean is not carried off by them (with 1/32 the row came out 1.6
 * times the exact count there).  It starts high (Kpnmicost), as one
 * too high comes down at 1/8 an NMI.  Without -d the counter is host
 * time, and such a d is the host thread descheduled: not the NMI's
 * cost either.
 */
static inline NOPROF uint
nmicost(Kpcount *k, uint d)
{
	uint mean = k->nmimean;

	if(d > mean + mean/2){
		k->nmimean = mean + mean/256;
		return mean;
	}
	k->nmimean = mean + ((int)(d - mean) >> 3);
	return d;
}

/*
 * The NMI's sample (kern/trapasm.asm, nmientry).  kpbusy, set with
 * xchg before kprofon is looked at again, tells kpctl when a sample
 * that saw it on is done.  A stack that finds no room is cut: a
 * kernel one kept as its leaf alone if that has room, else only in its
 * bin, where kpstack's reads find it, as they find a user one in cells
 * 0 and 1.  A tick out of scope counts nowhere, but the first
 * processor still rearms the clock; the rearming is part of the cost
 * counted.
 */
NOPROF void
kprofnmi(uint *f, uint bp, uint t0)
{
	Mach *m = thismach();
	uint pc[KPMAXFRAMES], n, h, kernel, counted;
	Kpcount *k;

	if(!kprofon)
		return;
	xchg(&m->kpbusy, 1);
	if(!kprofon)
		goto out;
	k = m->kp;
	if(f[0] >= (uint)vec0 && f[0] < (uint)alltraps)
		f = delivered(f);	/* kern/trap.c */
	kernel = intext(f[0]);	/* a user pc is below KZERO, so never */
	counted = kpproctick(m->proc, k->gen, kernel);
	if(counted){
		satinc(&k->cell[KPTOTAL]);
		if(kernel){
			satinc(&k->cell[KPKERNEL]);
			satinc(&k->cell[KPBIN + ((f[0] - (uint)text) >> KPBINSHIFT)]);
		}
		if((n = kpwalk(m, f, bp, pc, &h)) > 0 && stackadd(k, pc, n, h) < 0){
			satinc(&k->cut);
			if(kernel && n > 1)
				stackadd(k, pc, 1, (Fnvbasis ^ pc[0]) * Fnvprime);
		}
	}
	if(m == mach && nmirandom)
		nmiclocknext();
	if(counted)
		k->cycles += nmicost(k, (uint)rdtsc() - t0 + Kpoutside);
out:
	m->kpbusy = 0;
}

static void
kprofinit(void)
{
	uint size = etext - text;
	int k;

	if(size > KPmaxtext)
		panic("kprof: kernel text is %d bytes, over KPmaxtext", size);
	ncell = KPBIN + ((size + (1<<KPBINSHIFT) - 1) >> KPBINSHIFT) + KPSELF;
	kprofdir[1].length = ncell * sizeof(uint);
	for(k = 0; k < MAXMACH; k++){
		mach[k].kp = &kpcount[k][0];
		kpcount[k][0].nmimean = Kpnmicost;
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

static void
kprofclose(Chan *c)
{
	if(c->qid == Qgmon)
		kpgmonclose(c);
}

/*
 * Cells i to i+k-1, big-endian, into w: what kpcell gives for each, but
 * summed a processor at a time, each processor's cells an array in a
 * row, rather than cell by cell over the processors.  Reading all of
 * kpdata takes 1.7 instructions a byte so, against 32 cell by cell
 * (doc/benchmarks.md, "Speed tricks").
 */
static void
sumcells(uint *w, uint i, uint k)
{
	uint j, *c;
	int m;

	memmove(w, mach[0].kp->cell + i, 4*k);
	for(m = 1; m < nmach; m++)
		for(c = mach[m].kp->cell + i, j = 0; j < k; j++)
			w[j] = satadd(w[j], c[j]);
	if(k > 0 && i + k == ncell)
		w[k-1] = kpself();
	for(j = 0; j < k; j++)
		w[j] = __builtin_bswap32(w[j]);
}

/*
 * n bytes of the cells from byte off, big-endian: byte b is a byte of
 * kpcell(b/4), as the ends do; the whole cells between go by sumcells.
 */
static void
bigendian(uchar *p, uint off, uint n)
{
	uint k;

	for(; n > 0 && off % 4 != 0; n--, off++)
		*p++ = kpcell(off/4) >> (8 * (3 - off%4));
	k = n/4;
	sumcells((uint*)p, off/4, k);
	p += 4*k;
	off += 4*k;
	for(n %= 4; n > 0; n--, off++)
		*p++ = kpcell(off/4) >> (8 * (3 - off%4));
}

static long
kprofread(Chan *c, void *buf, long n, uvlong off)
{
	char status[MAXMACH*40], scope[12];
	uint len, cut;
	int k, l;

	switch(c->qid){
	case Qctl:
		for(k = 0, cut = 0; k < nmach; k++)
			cut = satadd(cut, mach[k].kp->cut);
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x cpus %d cut %u clock %s interval %s pid %s arcs %s drop %u\n",
			kprofon ? "on" : "off", hz, 1<<KPBINSHIFT, (uint)text, (uint)etext, nmach, cut,
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
		return kpprocread(buf, n, off);
	case Qgmon:
		return kpgmonread(c, buf, n, off);
	}
	len = ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	bigendian(buf, off, n);
	return n;
}

enum { CMstart, CMstop, CMstartclr, CMinterval, CMpid, CMarcs };

static Cmdtab kpctlmsg[] = {
	{ CMstart,	"start",	1 },
	{ CMstop,	"stop",		1 },
	{ CMstartclr,	"startclr",	1 },
	{ CMinterval,	"interval",	2 },	/* random or fixed */
	{ CMpid,	"pid",		2 },
	{ CMarcs,	"arcs",		2 },	/* on or off */
};

static long
kprofwrite(Chan *c, void *buf, long n, uvlong off)
{
	Cmdbuf cb;
	Cmdtab *ct;
	Kpcount *spare;
	int k;
	uint gen;

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
		if(xchg(&kprofon, 1) == 0)
			nmiclock(1);
		break;
	case CMstop:
		/* Stopped once no NMI that saw kprofon still counts: then the counts stay. */
		KPMARK("kpof");
		nmiclock(0);
		xchg(&kprofon, 0);
		quiesce();
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
		nmirandom = cb.f[1][0] == 'r';
		nmiclock(kprofon);
		break;
	case CMstartclr:
		/*
		 * Each processor's spare counts, zeroed, become its counts:
		 * an NMI counts in the old or the new, never both, and once
		 * the NMIs under way are done, only in the new.
		 */
		gen = kpprocclear();
		for(k = 0; k < nmach; k++){
			spare = &kpcount[k][mach[k].kp == &kpcount[k][0]];
			memset(spare->cell, 0, ncell * sizeof(uint));
			memset(spare->stack, 0, sizeof spare->stack);
			spare->npc = 0;
			spare->cut = 0;
			spare->cycles = 0;
			spare->nmimean = mach[k].kp->nmimean;
			spare->gen = gen;
			mach[k].kp = spare;
		}
		quiesce();
		arcsclear();
		KPMARK("kpcl");
		KPMARK("kpon");
		nmiclocktime(1);
		if(xchg(&kprofon, 1) == 0)
			nmiclock(1);
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
