/*
 * #T/kpstack (kprof(3)): the kernel call stacks that kprof's NMI kept
 * (dev/devkprof.c), each with its ticks summed over the processors,
 * and the ticks of the stacks it had to cut, by bin, as lines of text
 * (kern/kprof.h).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "kprof.h"
#include "kpcount.h"

static uint	left[KPncell];	/* kpstack: each bin's kernel ticks that no stack kept holds; at KPTOTAL, the user ticks */
static uint	total[MAXMACH][KPnstack];	/* and each kept stack's ticks, over the processors; 0 for a repeat */

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
		left[i] = kpcell(i);
	}
	left[KPTOTAL] = kpcell(KPTOTAL) > kpcell(KPKERNEL) ? kpcell(KPTOTAL) - kpcell(KPKERNEL) : 0;
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
 * kproflk is held.
 */
long
stackread(char *buf, long len, uvlong off)
{
	uvlong pos = 0;
	long n = 0;
	uint i, pc;
	int l;

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
