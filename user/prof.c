/*
 * prof: format a program's profile of itself.
 *
 *	prof program [gmon.out]
 *	prof -p program [gmon.out] >prof.pb.gz	(on the host)
 *
 * gmon.out (default ./gmon.out), written when a program built with
 * gcrt0 (/bin/NAME.prof) exits, holds a histogram of the program's pc
 * in GNU gprof's format (see gmon.h) and, if the program was compiled
 * with -pg, the arcs of its call graph with their calls.  prof reads
 * the program's ELF symbol table, credits each counter to the function
 * whose text holds the counter's first address and each arc's calls to
 * the function called, and prints one line per function, busiest
 * first, in the layout of kprof:
 *
 *	total: 2000
 *	TEXT 00001000	HZ 1000
 *	ms	  %	calls	sym
 *	1500	 75.0	30016	spin3
 *	500	 25.0	30016	spin1
 *
 * total is the sum of the counters, in clock ticks; % is of that.
 * calls, the calls to the function from all its callers, is there only
 * if the file has arcs.  The symbols, the crediting and the rows are
 * user/lib/elfsym.c's, shared with kprof.  The same source builds for
 * the guest and for the host, so it uses only standard names and no
 * floating point.
 *
 * -p, on the host only, writes the histogram in pprof's format instead
 * (tools/pprof.c): a sample for each busy counter, at its first address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "elfsym.h"
#include "gmon.h"
#if __STDC_HOSTED__
#include <unistd.h>
#include "pprof.h"
#endif

typedef struct Hist Hist;

/* The histogram record of a gmon.out, decoded. */
struct Hist {
	uint32_t	lowpc;		/* the address the first counter starts at */
	uint32_t	highpc;		/* the end of the last counter's range */
	uint32_t	n;		/* counters */
	uint32_t	hz;		/* clock ticks a second */
	const uint8_t	*count;		/* n 16-bit little-endian counts; NULL until read */
};

static void
usage(void)
{
	fprintf(stderr, "usage: prof program [gmon.out]\n"
		"       prof -p program [gmon.out] >prof.pb.gz\n");
	exit(1);
}

/* The histogram record at r, off bytes into path, which holds left bytes from r on. */
static void
gethist(const char *path, const uint8_t *r, size_t left, size_t off, Hist *h)
{
	if(h->count != NULL)
		fatal("%s: a second histogram at offset %lu", path, (unsigned long)off);
	if(left < 1 + GMON_HISTSIZE)
		fatal("%s: truncated histogram", path);
	h->lowpc = le32(r+1);
	h->highpc = le32(r+5);
	h->n = le32(r+9);
	h->hz = le32(r+13);
	h->count = r + 1 + GMON_HISTSIZE;
	if(left - (1 + GMON_HISTSIZE) < 2*(uint64_t)h->n)
		fatal("%s: truncated histogram", path);
	if(h->hz == 0)
		fatal("%s: clock rate 0", path);
}

/*
 * The arc record at r, off bytes into path: check that its caller's
 * return address and its callee lie in t's text (a return address may
 * be the end of text, after a call that ends it) and that its count did
 * not stop at its limit, and credit its calls to the callee.  Returns
 * the calls, if they are the ones mcount could not fit in its table.
 */
static uint32_t
getarc(const char *path, const uint8_t *r, size_t left, size_t off, Symtab *t)
{
	uint32_t from, self, count;
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
	return strcmp(s->name, "mcountoverflow") == 0 ? count : 0;
}

/*
 * Check the gmon.out of len bytes at buf, from path, and decode it: the
 * header, then records in any order, one of them the histogram, which
 * goes in h, the others arcs, whose calls go to the functions of t.
 * Returns the calls that mcount found no room for.
 */
static uint64_t
getgmon(const char *path, const uint8_t *buf, size_t len, Hist *h, Symtab *t)
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
			gethist(path, buf+off, len-off, off, h);
			off += 1 + GMON_HISTSIZE + 2*(size_t)h->n;
			break;
		case GMON_TAG_CG_ARC:
			lost += getarc(path, buf+off, len-off, off, t);
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

/* Counter i's first address. */
static uint32_t
binaddr(Hist *h, uint32_t i)
{
	return h->lowpc + (uint64_t)i * (h->highpc - h->lowpc) / h->n;
}

#if __STDC_HOSTED__
/* Write the histogram h of the program whose symbols are t in pprof's format. */
static void
gmonpprof(Symtab *t, Hist *h)
{
	Pprof *p;
	uint64_t loc, total;
	uint32_t i, c;

	if(isatty(1))
		fatal("-p: the profile is gzipped: send it to a file, as prof -p %s gmon.out >prof.pb.gz",
			t->path);
	p = ppopen(t, h->hz);
	total = 0;
	for(i = 0; i < h->n; i++)
		total += le16(h->count + 2*i);
	ppcomment(p, "prof: the program %s", t->path);
	ppcomment(p, "clock: profil(2)'s, HZ %u", (unsigned)h->hz);
	ppcomment(p, "ticks: %llu", (unsigned long long)total);
	for(i = 0; i < h->n; i++){
		c = le16(h->count + 2*i);
		if(c != 0){
			loc = ppat(p, binaddr(h, i));
			ppsample(p, &loc, 1, c);
		}
	}
	ppwrite(p);
}
#endif

int
main(int argc, char *argv[])
{
	Symtab t;
	Hist h;
	uint8_t *buf;
	uint64_t total, lost;
	const char *gmon, *err;
	size_t len;
	uint32_t i, c;
	int pb;

	argv0 = "prof";
	pb = argc > 1 && strcmp(argv[1], "-p") == 0;
	if(pb){
		argc--;
		argv++;
	}
	if(argc < 2 || argc > 3 || argv[1][0] == '-')
		usage();
#if !__STDC_HOSTED__
	if(pb)
		fatal("-p: pprof's format needs protobuf-c, which only the host's prof has");
#endif
	gmon = argc == 3 ? argv[2] : "gmon.out";
	if((err = symload(&t, argv[1])) != NULL)
		fatal("%s", err);
	buf = readfile(gmon, 0, &len);
	if(buf == NULL)
		fatal("%s: %s", gmon, strerror(errno));
	lost = getgmon(gmon, buf, len, &h, &t);
	if(h.n == 0 || h.highpc <= h.lowpc || h.lowpc < t.textbase
	|| binaddr(&h, h.n - 1) - t.textbase >= t.textsize)
		fatal("%s: histogram %08x-%08x does not fit %s's text %08x-%08x",
			gmon, (unsigned)h.lowpc, (unsigned)h.highpc, argv[1],
			(unsigned)t.textbase, (unsigned)(t.textbase + t.textsize));

#if __STDC_HOSTED__
	if(pb){
		gmonpprof(&t, &h);
		free(buf);
		symfree(&t);
		return 0;
	}
#endif
	total = 0;
	for(i = 0; i < h.n; i++){
		c = le16(h.count + 2*i);
		if(c != 0)
			symcredit(&t, binaddr(&h, i), c);
		total += c;
	}
	printf("total: %llu\n", (unsigned long long)total);
	printf("TEXT %08x\tHZ %u\n", (unsigned)h.lowpc, (unsigned)h.hz);
	symprint(&t, total, h.hz);
	if(lost != 0)
		fprintf(stderr, "%s: %s: the arc table was full: %llu calls along arcs it had no room for are counted as mcountoverflow's\n",
			argv0, gmon, (unsigned long long)lost);
	free(buf);
	symfree(&t);
	return 0;
}
