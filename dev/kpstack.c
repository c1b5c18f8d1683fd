/*
 * #T/kpstack (kprof(3)): the call stacks that kprof's NMI recorded
 * (dev/devkprof.c), each with its ticks summed over the processors,
 * and the ticks of the stacks it had to cut, by bin, as lines of text
 * (kern/kprof.h).  The NMI only records a stack, raw, in its
 * processor's buffer of samples (Kpcount's ring); process context
 * drains the buffers into the processors' tables, each into its own:
 * the clock, on its own processor, at each tick while kprof counts
 * (kprofdrain), and kpctl's stop and kpstack's reads, all of them
 * first (stackdrainall), so that a read holds every tick before it.
 * All of the draining is NOPROF, as the clock's path.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"
#include "kprof.h"
#include "kpcount.h"

enum {
	Fnvbasis	= 2166136261U,	/* a stack's hash: FNV-1a, a word at a time */
	Fnvprime	= 16777619U,
};

static uint	left[KPncell];	/* kpstack: each bin's kernel ticks that no stack kept holds; at KPTOTAL, the user ticks */
static uint	total[MAXMACH][KPnstack];	/* and each kept stack's ticks, over the processors; 0 for a repeat */
/*
 * The cells less those of the ticks counted with stacks on: the cells'
 * sums at each stacks off taken away, at each stacks on added back, so
 * that a cell's ticks with stacks were (kpstacks ? kpcell(i) : 0) -
 * nostack[i].  Under devkprof's kproflk.
 */
static uint	nostack[KPncell];

/*
 * One more tick for the stack pc[0..n-1], of hash h, in k's table, in
 * a new slot if it has none yet: open addressing, KPprobe slots at
 * most from the one its hash names.  -1 if it has no slot and there is
 * no room.  The last KPnleaf slots and their pcs are left to the user
 * leaves that drain keeps of the user stacks it cuts, so that a full
 * table still says where the user ticks were: a kernel tick has its
 * bin whatever the table holds, a user one nothing else.  A quarter of
 * the table, so that KPprobe slots nearly always find one free.  The
 * count last, so that a reader on another processor finds a slot whole
 * or free.
 */
static NOPROF int
stackadd(Kpcount *k, uint *pc, uint n, uint h)
{
	uint i, j, spare;
	Kpstack *s;

	spare = n == KPleaf && pc[0] == KPUMARK ? 0 : KPnleaf;
	for(i = 0; i < KPprobe; i++){
		s = &k->stack[(h + i) % KPnstack];
		if(s->count == 0){
			if(k->npc + n > KPnpc - KPleaf*spare || k->nstack >= KPnstack - spare)
				return -1;
			for(j = 0; j < n; j++)
				k->pc[k->npc + j] = pc[j];
			s->hash = h;
			s->off = k->npc;
			s->n = n;
			k->npc += n;
			k->nstack++;
			asm volatile("" ::: "memory");
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
 * The number of pcs of the sample pc[0..n-1] to keep: the NMI's walk
 * takes in a user stack's return addresses as it finds them
 * (kern/kpwalk.c), and one that is not a user pc, 0 or in the kernel,
 * ends the stack here.  The first pc after the mark is where the
 * process was, which stays whatever it is.
 */
static NOPROF uint
userend(uint *pc, uint n)
{
	uint i;

	for(i = 0; i < n && pc[i] != KPUMARK; i++)
		;
	for(i += 2; i < n; i++)
		if(pc[i] - 1 >= USEREND - 1)
			return i;
	return n;
}

/* The hash of the stack pc[0..n-1]: FNV-1a, a word at a time. */
static NOPROF uint
stackhash(uint *pc, uint n)
{
	uint x, i;

	for(x = Fnvbasis, i = 0; i < n; i++)
		x = (x ^ pc[i]) * Fnvprime;
	return x;
}

/*
 * Add the samples in k's buffer to its table, under its processor's
 * kpdrain.  A stack that finds no room is cut to its leaf, if that has
 * room: a kernel one to its pc, a user one to the mark and its pc, in
 * room kept for it (stackadd), as a user profile needs its leaves as
 * the flat profile its bins.  Else it is only in its bin, where
 * kpstack's reads find it, as they find a user one in cells 0 and 1.
 */
static NOPROF void
drain(Kpcount *k)
{
	uint t, h = *(volatile uint*)&k->head, m, n, l, *r;

	asm volatile("" ::: "memory");	/* head before the samples it covers: kprofnmi writes them first */
	for(t = k->tail; t != h; t += 1 + m){
		r = k->ring + (t & kpmask);
		m = r[0];
		n = userend(r + 1, m);
		if(n > 0 && stackadd(k, r + 1, n, stackhash(r + 1, n)) < 0){
			satinc(&k->cut);
			l = r[1] == KPUMARK ? KPleaf : 1;
			if(n > l)
				stackadd(k, r + 1, l, stackhash(r + 1, l));
		}
	}
	asm volatile("" ::: "memory");	/* the samples read before tail lets the NMI write over them */
	k->tail = t;
}

/*
 * Take m's kpdrain, interrupts off so that this processor's clock
 * never finds it taken by what it interrupted.
 */
static NOPROF void
drainlock(Mach *m)
{
	pushcli();
	while(xchg(&m->kpdrain, 1) != 0)
		pause();
}

static NOPROF void
drainunlock(Mach *m)
{
	m->kpdrain = 0;
	popcli();
}

/* The clock's drain, of its own processor's samples: none if another drains them now. */
NOPROF void
kprofdrain(void)
{
	Mach *m = thismach();

	if(m->kp->head == m->kp->tail || xchg(&m->kpdrain, 1) != 0)
		return;
	drain(m->kp);
	m->kpdrain = 0;
}

/* Every processor's samples, waiting for a clock that drains them.  With kproflk held. */
NOPROF void
stackdrainall(void)
{
	int k;

	for(k = 0; k < nmach; k++){
		drainlock(&mach[k]);
		drain(mach[k].kp);
		drainunlock(&mach[k]);
	}
}

/* startclr's: m's counts zeroed, between two drains, while no NMI counts. */
void
stackreset(Mach *m)
{
	Kpcount *k = m->kp;

	drainlock(m);
	memset(k->cell, 0, ncell * sizeof(uint));
	memset(k->stack, 0, sizeof k->stack);
	k->npc = 0;
	k->nstack = 0;
	k->cut = 0;
	k->cycles = 0;
	k->skip = k->idle = k->allidle = k->thin = 0;
	k->thinseed = Thinseed + m->id;
	k->head = k->tail = 0;
	drainunlock(m);
}

/*
 * kpctl's stacks on (on) or off, with kproflk held and no NMI counting
 * meanwhile: in pieces of less than Kpchunk, so that kpcells never
 * yields with the clock stopped.
 */
void
stackswitch(int on)
{
	uint w[256], i, j, k;

	for(i = 0; i < ncell - KPSELF; i += k){
		k = ncell - KPSELF - i < nelem(w) ? ncell - KPSELF - i : nelem(w);
		kpcells(w, i, k);
		for(j = 0; j < k; j++)
			nostack[i + j] += on ? w[j] : -w[j];
	}
}

/* startclr's: the cells are zeroed, with kproflk held. */
void
stackclear(void)
{
	memset(nostack, 0, sizeof nostack);
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

/* Cell i's ticks counted with stacks on. */
static uint
withstacks(uint i)
{
	return (kpstacks ? kpcell(i) : 0) - nostack[i];
}

/*
 * kpstack's snapshot, with kproflk held, the samples drained: each
 * stack's ticks over all the processors, in total[] for the first
 * processor that has it; and what of each bin's ticks with stacks on
 * the stacks kept do not hold, in left[]: the stacks cut to nothing;
 * the user ticks' likewise.  Every tick with stacks on is in one or the
 * other, so, profiling stopped, the lines' counts sum to cell 0 if
 * stacks were on throughout.  A scheduling point every stack and every
 * 1024 cells: -1 if the reader is killed meanwhile.
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
		left[i] = withstacks(i);
	}
	left[KPTOTAL] = withstacks(KPTOTAL) > withstacks(KPKERNEL) ? withstacks(KPTOTAL) - withstacks(KPKERNEL) : 0;
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
 * as in snapshot.  The samples not yet drained are first.
 * kproflk is held.
 */
long
stackread(char *buf, long len, uvlong off)
{
	uvlong pos = 0;
	long n = 0;
	uint i, pc;
	int l;

	stackdrainall();
	if(snapshot() < 0)
		return -1;
	for(l = 0; l < nmach && pos < off + len; l++)
		for(i = 0; i < KPnstack && pos < off + len; i++){
			if(schedpoint() < 0)
				return -1;
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
	return n;
}
