/*
 * #T/kpgmon: the kernel's profile as a gmon.out (kern/gmon.h) for
 * o/kernel, which GNU gprof and kprof -q read: kpdata's bins as the
 * histogram, at the profiling clock's rate, and the call graph's arcs
 * (kern/arcs.c).  The file is made whole at open, so that however it
 * is read it is one moment's profile, and freed at close.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "kprof.h"
#include "kpcount.h"
#include "gmon.h"

enum { Chunk = 64*1024 };	/* bytes a read copies between scheduling points */

typedef struct Gmonbuf Gmonbuf;

/* An open kpgmon's file. */
struct Gmonbuf {
	uint	len;		/* bytes in b */
	uint	max;		/* room in b */
	uchar	b[];
};

static uchar*
le32(uchar *p, uint v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
	return p + 4;
}

/*
 * An arc record, if there is room: arcswalk's fn.  Only arcs whose
 * caller is in kernel text, as gprof and gmonread take them.
 */
static void
putarc(void *arg, uint from, uint self, uint count)
{
	Gmonbuf *g = arg;
	uchar *p;

	if(g->len + 1 + GMON_ARCSIZE > g->max || from - (uint)text - 1 >= (uint)(etext - text))
		return;
	p = g->b + g->len;
	*p++ = GMON_TAG_CG_ARC;
	p = le32(p, from);
	p = le32(p, self);
	le32(p, count);
	g->len += 1 + GMON_ARCSIZE;
}

/*
 * Make the file, for c, an open kpgmon.  The histogram's counters are
 * 16 bits: bins with more ticks are spread over as many records of the
 * same range as the busiest needs, each holding up to GMON_MAXHIST of
 * every bin's ticks beyond the records before.
 */
int
kpgmonopen(Chan *c)
{
	uint nbin = ncell - KPBIN - KPSELF, narc = arcsmax(), nrec, top, i, r, v;
	uint *bin;
	Gmonbuf *g;
	uchar *p;

	if((bin = kmallocdata(nbin * sizeof bin[0])) == nil)
		return seterr(ENOMEM, nil);
	if(kpcells(bin, KPBIN, nbin) < 0){
		kfree(bin);
		return -1;
	}
	for(i = 0, top = 0; i < nbin; i++)
		if(bin[i] > top)
			top = bin[i];
	nrec = top == 0 ? 1 : (top + GMON_MAXHIST - 1) / GMON_MAXHIST;
	g = kmallocdata(sizeof *g + GMON_HDRSIZE + nrec*(1 + GMON_HISTSIZE + 2*nbin) + narc*(1 + GMON_ARCSIZE));
	if(g == nil){
		kfree(bin);
		return seterr(ENOMEM, nil);
	}
	p = g->b;
	memset(p, 0, GMON_HDRSIZE);
	memmove(p, "gmon", 4);
	le32(p + 4, GMON_VERSION);
	p += GMON_HDRSIZE;
	for(r = 0; r < nrec; r++){
		/*
		 * A point at each record: a bin of 20 million ticks makes
		 * 300 of them, 5.6 MB, which held the processor 22 ms.
		 * The bins are this open's copy; kproflk, held, is a QLock.
		 */
		if(schedpoint() < 0){
			kfree(g);
			kfree(bin);
			return -1;
		}
		*p++ = GMON_TAG_TIME_HIST;
		p = le32(p, (uint)text);
		p = le32(p, (uint)text + (nbin << KPBINSHIFT));
		p = le32(p, nbin);
		p = le32(p, hz);
		memset(p, 0, GMON_DIMENLEN);
		memmove(p, "seconds", 7);
		p += GMON_DIMENLEN;
		*p++ = 's';
		for(i = 0; i < nbin; i++){
			v = bin[i] > r*GMON_MAXHIST ? bin[i] - r*GMON_MAXHIST : 0;
			if(v > GMON_MAXHIST)
				v = GMON_MAXHIST;
			*p++ = v;
			*p++ = v >> 8;
		}
	}
	kfree(bin);
	g->len = p - g->b;
	g->max = g->len + narc*(1 + GMON_ARCSIZE);
	arcswalk(putarc, g, narc);
	if(up->killed){		/* the walk stopped short */
		kfree(g);
		return seterr(EINTR, nil);
	}
	c->aux = g;
	return 0;
}

/*
 * A read copies 64 KB at a time, with a scheduling point between, as
 * the root file system's do: a read of 13 MB at once kept the
 * processor 1.9 ms.  A killed reader has what was copied.
 */
long
kpgmonread(Chan *c, void *buf, long n, uvlong off)
{
	Gmonbuf *g = c->aux;
	long r, m;

	if(off >= g->len)
		return 0;
	if(n > (long)(g->len - off))
		n = g->len - off;
	for(r = 0; r < n; r += m){
		if(r > 0 && schedpoint() < 0)
			break;
		m = n - r < Chunk ? n - r : Chunk;
		memmove((char*)buf + r, g->b + off + r, m);
	}
	return r;
}
