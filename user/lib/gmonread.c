/*
 * Read a gmon.out (kern/gmon.h), a program's or the kernel's
 * (#T/kpgmon), for prof, kprof -q and the host's tools: check it,
 * credit its histogram's ticks and its arcs' calls to the functions of
 * the program (user/lib/elfsym.c), and keep the arcs.  Every record is
 * read a byte at a time, so that alignment and the host's order do not
 * matter; anything wrong is an error that says where.
 *
 * The same source builds for the guest and for the host, so it uses
 * only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "elfsym.h"
#include "gmon.h"

/*
 * The histogram record at r, off bytes into path, which holds left
 * bytes from r on: the first, or one more of the same range, whose
 * counts add to the first's (the kernel's, whose counts are too large
 * for 16 bits); a sum past 2^32-1 is an error.  Its length.
 */
static size_t
gethist(const char *path, const uint8_t *r, size_t left, size_t off, Gmon *h)
{
	uint32_t lowpc, highpc, n, hz, i, c;

	if(left < 1 + GMON_HISTSIZE)
		fatal("%s: truncated histogram", path);
	lowpc = le32(r+1);
	highpc = le32(r+5);
	n = le32(r+9);
	hz = le32(r+13);
	if(left - (1 + GMON_HISTSIZE) < 2*(uint64_t)n)
		fatal("%s: truncated histogram", path);
	if(hz == 0)
		fatal("%s: clock rate 0", path);
	if(h->count == NULL){
		h->lowpc = lowpc;
		h->highpc = highpc;
		h->n = n;
		h->hz = hz;
		h->count = calloc(n > 0 ? n : 1, sizeof h->count[0]);
		if(h->count == NULL)
			fatal("out of memory");
	}else if(lowpc != h->lowpc || highpc != h->highpc || n != h->n || hz != h->hz)
		fatal("%s: a second histogram, at offset %lu, of another range or rate", path, (unsigned long)off);
	/* 65,538 records of 0xffff would wrap a counter to a few ticks. */
	for(i = 0; i < n; i++){
		c = h->count[i] + le16(r + 1 + GMON_HISTSIZE + 2*i);
		if(c < h->count[i])
			fatal("%s: histogram record at offset %lu: counter %u passes 2^32-1",
				path, (unsigned long)off, (unsigned)i);
		h->count[i] = c;
	}
	return 1 + GMON_HISTSIZE + 2*(size_t)n;
}

/*
 * The arc record at r, off bytes into path: check that its caller's
 * return address and its callee lie in t's text (a return address may
 * be the end of text, after a call that ends it) and that its count did
 * not stop at its limit, and credit its calls to the callee.  Returns
 * the calls, if they are the ones mcount could not fit in its table.
 */
static uint32_t
getarc(const char *path, const uint8_t *r, size_t left, size_t off, Symtab *t, Gmon *h)
{
	uint32_t from, self, count;
	Gmonarc *a;
	Sym *s;

	if(left < 1 + GMON_ARCSIZE)
		fatal("%s: truncated arc record at offset %lu", path, (unsigned long)off);
	from = le32(r+1);
	self = le32(r+5);
	count = le32(r+9);
	if(from - t->textbase - 1 >= t->textsize)
		fatal("%s: arc at offset %lu: caller %08x is outside %s's text %08x-%08x", path,
			(unsigned long)off, (unsigned)from, t->path, (unsigned)t->textbase, (unsigned)(t->textbase + t->textsize));
	if(self - t->textbase >= t->textsize)
		fatal("%s: arc at offset %lu: callee %08x is outside %s's text %08x-%08x", path,
			(unsigned long)off, (unsigned)self, t->path, (unsigned)t->textbase, (unsigned)(t->textbase + t->textsize));
	if(count == GMON_MAXCOUNT)
		fatal("%s: arc at offset %lu: count overflow: it stopped at %u calls", path,
			(unsigned long)off, (unsigned)count);
	s = &t->sym[symfind(t, self)];
	s->calls += count;
	t->withcalls = 1;
	h->arc = grow(h->arc, &h->arccap, h->narc + 1, sizeof h->arc[0]);
	a = &h->arc[h->narc++];
	a->from = from;
	a->self = self;
	a->count = count;
	return strcmp(s->name, "mcountoverflow") == 0 ? count : 0;
}

/*
 * Check the gmon.out of len bytes at buf, from path, and decode it: the
 * header, then records in any order: the histogram, in one record or
 * several, which goes in h, and arcs, whose calls go to the functions
 * of t and which h keeps.
 * Returns the calls that mcount found no room for.
 */
static uint64_t
getgmon(const char *path, const uint8_t *buf, size_t len, Gmon *h, Symtab *t)
{
	uint64_t lost;
	size_t off;

	if(len < 4 || memcmp(buf, "gmon", 4) != 0)
		fatal("%s: not a gmon.out file", path);
	if(len < GMON_HDRSIZE)
		fatal("%s: truncated header", path);
	if(le32(buf+4) != GMON_VERSION)
		fatal("%s: unsupported version %u", path, (unsigned)le32(buf+4));
	memset(h, 0, sizeof *h);
	lost = 0;
	for(off = GMON_HDRSIZE; off < len; ){
		switch(buf[off]){
		case GMON_TAG_TIME_HIST:
			off += gethist(path, buf+off, len-off, off, h);
			break;
		case GMON_TAG_CG_ARC:
			lost += getarc(path, buf+off, len-off, off, t, h);
			off += 1 + GMON_ARCSIZE;
			break;
		default:
			fatal("%s: unknown record, tag %u at offset %lu", path, buf[off], (unsigned long)off);
		}
	}
	if(h->count == NULL)
		fatal("%s: no histogram", path);
	return lost;
}

/* Counter i's first address (prof -p's too). */
uint32_t
gmonaddr(Gmon *h, uint32_t i)
{
	return h->lowpc + (uint64_t)i * (h->highpc - h->lowpc) / h->n;
}

/*
 * Read the gmon.out at path, of the program whose symbols are t, into
 * g, and credit its ticks and calls to t's functions.  Exits with a
 * message if the file is bad or does not fit the program.
 */
void
gmonload(Gmon *g, Symtab *t, const char *path)
{
	uint8_t *buf;
	size_t len;
	uint32_t i, c;

	buf = readfile(path, 0, &len);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	g->lost = getgmon(path, buf, len, g, t);
	free(buf);
	if(g->n == 0 || g->highpc <= g->lowpc || g->lowpc < t->textbase
	|| gmonaddr(g, g->n - 1) - t->textbase >= t->textsize)
		fatal("%s: histogram %08x-%08x does not fit %s's text %08x-%08x",
			path, (unsigned)g->lowpc, (unsigned)g->highpc, t->path,
			(unsigned)t->textbase, (unsigned)(t->textbase + t->textsize));
	g->total = 0;
	for(i = 0; i < g->n; i++){
		c = g->count[i];
		if(c != 0)
			symcredit(t, gmonaddr(g, i), c);
		g->total += c;
	}
}

/* Free what gmonload allocated. */
void
gmonfree(Gmon *g)
{
	free(g->count);
	free(g->arc);
	g->count = NULL;
	g->arc = NULL;
}
