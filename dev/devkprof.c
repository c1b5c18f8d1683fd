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
 * and interval random|fixed (kern/apic.c), and reads back a status line.
 * kpproc and kpctl's pid, the scope, are kern/kpproc.c's.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"
#include "kprof.h"

enum {
	Qctl = 1, Qdata, Qcpu, Qstack, Qproc,

	KPmaxtext	= 128*1024,	/* kernel text at most */
	KPncell	= KPBIN + (KPmaxtext >> KPBINSHIFT) + KPSELF,
	KPnstack	= 1024,	/* distinct stacks a processor keeps: a power of 2 */
	KPnpc	= 16384,	/* their pcs, all together */
	KPprobe	= 16,		/* slots a stack may lie past the one its hash names */
	Kpoutside	= 25,	/* the NMI's instructions its rdtscs miss: 4 before, 13 + 8 after (objdump -d) */
};

static Dirtab kprofdir[] = {
	{ "kpctl",	Qctl,	0,	0664 },
	{ "kpdata",	Qdata,	0,	0444 },
	{ "kpcpu",	Qcpu,	0,	0444 },
	{ "kpstack",	Qstack,	0,	0444 },
	{ "kpproc",	Qproc,	0,	0444 },
};

/*
 * A distinct stack, in a processor's hash table of them: its pcs are
 * pc[off] to pc[off+n-1] of the same Kpcount, leaf first.  A slot is
 * free while its count is 0; the NMI fills the rest in first.
 */
typedef struct Kpstack {
	volatile uint	count;	/* ticks with this stack */
	uint	hash;		/* of its pcs */
	ushort	off;
	ushort	n;
} Kpstack;

/* One processor's counts: what its NMI adds to, and what startclr swaps. */
struct Kpcount {
	uint	cell[KPncell];	/* kpdata's cells, in host order; the last is kpself's, never counted in */
	uvlong	cycles;		/* time-stamp counts in the NMI, with Kpoutside for each */
	Kpstack	stack[KPnstack];
	uint	pc[KPnpc];	/* the stacks' pcs */
	uint	npc;		/* of pc in use */
	uint	cut;		/* stacks that found no room whole */
	uint	gen;		/* the run it counts, as Proc's kpgen */
};

volatile uint	kprofon;	/* counting */

static Kpcount	kpcount[MAXMACH][2];	/* each processor's counts and a spare */
static uint	ncell;		/* of cell in use: KPBIN + the bins of kernel text + KPSELF */
/*
 * kpctl's commands, and the snapshot that kpstack's reads make below:
 * a QLock, as a read takes scheduling points while it holds it (on 8
 * processors with full tables a snapshot is some 50 ms of work), and
 * the readers that wait for it sleep rather than spin.
 */
static QLock	kproflk = { .lk.name = "kprof" };
static uint	left[KPncell];	/* kpstack: each bin's kernel ticks that no stack kept holds; at KPTOTAL, the user ticks */
static uint	total[MAXMACH][KPnstack];	/* and each kept stack's ticks, over the processors; 0 for a repeat */

/* a + b, sticking at the largest value, as the cells do. */
static uint
satadd(uint a, uint b)
{
	return a + b < a ? 0xFFFFFFFF : a + b;
}

/* kprof's own cost in ticks: each processor's counts in its NMIs over those it had for
 * each tick; under -d (virtualclock) each has 1/nmach of one clock if all are busy. */
static uint
kpself(void)
{
	uvlong t = nmiclocktime(0) + 1, n = 0;	/* + 1: never 0 */
	int k;

	for(k = 0; k < nmach; k++)
		n += mach[k].kp->cycles * mach[k].kp->cell[KPTOTAL] / t;
	n *= virtualclock ? nmach : 1;
	return n > 0xFFFFFFFF ? 0xFFFFFFFF : n;
}

/* Cell i summed over the processors. */
static uint
cell(uint i)
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

static int
same(uint *a, uint *b, uint n)
{
	uint i;

	for(i = 0; i < n; i++)
		if(a[i] != b[i])
			return 0;
	return 1;
}

/*
 * One more tick for the stack pc[0..n-1], of hash h, in k's table, in
 * a new slot if it has none yet: open addressing, KPprobe slots at
 * most from the one its hash names.  -1 if it has no slot and there is
 * no room.
 */
static int
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
 * The NMI's sample (kern/trapasm.asm, nmientry).  kpbusy, set with
 * xchg before kprofon is looked at again, tells kpctl when a sample
 * that saw it on is done.  A stack that finds no room is cut: a
 * kernel one kept as its leaf alone if that has room, else only in its
 * bin, where kpstack's reads find it, as they find a user one in cells
 * 0 and 1.  A tick out of scope counts nowhere, but the first
 * processor still rearms the clock; the rearming is part of the cost
 * counted.
 */
void
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
		k->cycles += (uint)rdtsc() - t0 + Kpoutside;
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
	for(k = 0; k < MAXMACH; k++)
		mach[k].kp = &kpcount[k][0];
}

static int
kprofopen(Chan *c, int omode)
{
	if(c->qid != Qctl && (omode & O_ACCMODE) != O_RDONLY)
		return seterr(EACCES, "permission denied");
	return 0;
}

/*
 * Cells i to i+k-1, big-endian, into w: what cell gives for each, but
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
 * cell(b/4), as the ends do; the whole cells between go by sumcells.
 */
static void
bigendian(uchar *p, uint off, uint n)
{
	uint k;

	for(; n > 0 && off % 4 != 0; n--, off++)
		*p++ = cell(off/4) >> (8 * (3 - off%4));
	k = n/4;
	sumcells((uint*)p, off/4, k);
	p += 4*k;
	off += 4*k;
	for(n %= 4; n > 0; n--, off++)
		*p++ = cell(off/4) >> (8 * (3 - off%4));
}

/* Stack s of table k in table t, or nil. */
static Kpstack*
lookup(Kpcount *t, Kpcount *k, Kpstack *s)
{
	Kpstack *o;
	uint i;

	for(i = 0; i < KPprobe; i++){
		o = &t->stack[(s->hash + i) % KPnstack];
		if(o->count == 0)
			return nil;
		asm volatile("" ::: "memory");	/* the rest after the count: see stackadd */
		if(o->hash == s->hash && o->n == s->n && same(t->pc + o->off, k->pc + s->off, s->n))
			return o;
	}
	return nil;
}

/*
 * kpstack's snapshot, with kproflk held: each stack's ticks over all
 * the processors, in total[] for the first processor that has it;
 * and what of each bin's ticks the stacks kept do not hold, in left[]:
 * the stacks cut to nothing; the user ticks' likewise.  Every tick is in
 * one or the other, so, profiling stopped, the lines' counts sum to
 * cell 0.  A
 * scheduling point every stack and every 1024 cells: -1 if the reader
 * is killed meanwhile.
 */
static int
snapshot(void)
{
	Kpcount *k;
	Kpstack *s, *o;
	uint i, b, t;
	int j, l;

	for(i = KPBIN; i < ncell - KPSELF; i++){
		if(i % 1024 == 0 && schedpoint() < 0)
			return -1;
		left[i] = cell(i);
	}
	left[KPTOTAL] = cell(KPTOTAL) > cell(KPKERNEL) ? cell(KPTOTAL) - cell(KPKERNEL) : 0;
	for(l = 0; l < nmach; l++){
		k = mach[l].kp;
		for(i = 0; i < KPnstack; i++){
			if(schedpoint() < 0)
				return -1;
			s = &k->stack[i];
			total[l][i] = 0;
			if(s->count == 0)
				continue;
			asm volatile("" ::: "memory");
			for(j = 0; j < l && lookup(mach[j].kp, k, s) == nil; j++)
				;
			if(j < l)
				continue;
			for(t = 0; j < nmach; j++)
				if((o = lookup(mach[j].kp, k, s)) != nil)
					t = satadd(t, o->count);
			total[l][i] = t;
			b = k->pc[s->off] == KPUMARK ? KPTOTAL : KPBIN + ((k->pc[s->off] - (uint)text) >> KPBINSHIFT);
			left[b] = left[b] > t ? left[b] - t : 0;
		}
	}
	/* A stack kept as a bin's address alone takes that bin's cut ticks: one line for both. */
	for(l = 0; l < nmach; l++){
		k = mach[l].kp;
		for(i = 0; i < KPnstack; i++){
			s = &k->stack[i];
			if(total[l][i] == 0 || s->n != 1 || (k->pc[s->off] - (uint)text) % (1<<KPBINSHIFT) != 0)
				continue;
			b = KPBIN + ((k->pc[s->off] - (uint)text) >> KPBINSHIFT);
			total[l][i] = satadd(total[l][i], left[b]);
			left[b] = 0;
		}
	}
	return 0;
}

/* Decimal digits of n. */
static uint
digits(uint n)
{
	uint d;

	for(d = 1; n >= 10; n /= 10)
		d++;
	return d;
}

/*
 * Copy what of the line of count and pc[0..n-1] lies in [off, off+len)
 * of the file, the line starting at *pos, to buf; move *pos past it.
 * A kernel pc has KPPCDIGITS hex digits, so the line's length is known without
 * printing it, and lines before off cost no printing.
 */
static long
line(char *buf, long len, uvlong off, uvlong *pos, uint count, uint *pc, uint n)
{
	char s[12 + (1+KPPCDIGITS)*KPMAXFRAMES];
	uint l = digits(count) + (1+KPPCDIGITS)*n + 1, i, k;
	long m;

	if(*pos + l <= off || *pos >= off + len){
		*pos += l;
		return 0;
	}
	k = snprintf(s, sizeof s, "%u", count);
	for(i = 0; i < n; i++)
		k += snprintf(s + k, sizeof s - k, " %0*x", KPPCDIGITS, pc[i]);
	s[k++] = '\n';
	i = off > *pos ? off - *pos : 0;
	m = l - i;
	if(m > (long)(off + len - (*pos + i)))
		m = off + len - (*pos + i);
	memmove(buf + (*pos + i - off), s + i, m);
	*pos += l;
	return m;
}

/*
 * kpstack: the snapshot's lines from off, kept stacks first, then the
 * cut ones by bin, then the user ones; a scheduling point every stack,
 * as in snapshot.
 */
static long
stackread(char *buf, long len, uvlong off)
{
	uvlong pos = 0;
	long n = 0;
	uint i, pc;
	int l;

	if(qlockintr(&kproflk) < 0)
		return -1;
	if(snapshot() < 0){
		qunlock(&kproflk);
		return -1;
	}
	for(l = 0; l < nmach && pos < off + len; l++)
		for(i = 0; i < KPnstack && pos < off + len; i++){
			if(schedpoint() < 0){
				qunlock(&kproflk);
				return -1;
			}
			if(total[l][i] != 0)
				n += line(buf, len, off, &pos, total[l][i],
					mach[l].kp->pc + mach[l].kp->stack[i].off, mach[l].kp->stack[i].n);
		}
	for(i = KPBIN; i < ncell - KPSELF && pos < off + len; i++)
		if(left[i] != 0){
			pc = (uint)text + ((i - KPBIN) << KPBINSHIFT);
			n += line(buf, len, off, &pos, left[i], &pc, 1);
		}
	pc = KPUMARK;
	if(left[KPTOTAL] != 0)
		n += line(buf, len, off, &pos, left[KPTOTAL], &pc, 1);
	qunlock(&kproflk);
	return n;
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
		snprintf(status, sizeof status, "%s hz %d bin %d text %#x etext %#x cpus %d cut %u clock %s interval %s pid %s\n",
			kprofon ? "on" : "off", hz, 1<<KPBINSHIFT, (uint)text, (uint)etext, nmach, cut,
			virtualclock ? "virtual" : "host", nmirandom ? "random" : "fixed",
			kpscopename(scope, sizeof scope));
		return readstr(off, buf, n, status);
	case Qcpu:
		for(k = 0, l = 0; k < nmach; k++)
			l += snprintf(status + l, sizeof status - l, "cpu %d total %u kernel %u\n", k,
				mach[k].kp->cell[0], mach[k].kp->cell[1]);
		return readstr(off, buf, n, status);
	case Qstack:
		return stackread(buf, n, off);
	case Qproc:
		return kpprocread(buf, n, off);
	}
	len = ncell * sizeof(uint);
	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	bigendian(buf, off, n);
	return n;
}

enum { CMstart, CMstop, CMstartclr, CMinterval, CMpid };

static Cmdtab kpctlmsg[] = {
	{ CMstart,	"start",	1 },
	{ CMstop,	"stop",		1 },
	{ CMstartclr,	"startclr",	1 },
	{ CMinterval,	"interval",	2 },	/* random or fixed */
	{ CMpid,	"pid",		2 },
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
			spare->gen = gen;
			mach[k].kp = spare;
		}
		quiesce();
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
};
