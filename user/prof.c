/*
 * prof: format a program's profile of itself.
 *
 *	prof program [gmon.out]
 *
 * gmon.out (default ./gmon.out), written when a program built with
 * gcrt0 (/bin/NAME.prof) exits, holds a histogram of the program's pc
 * in GNU gprof's format (see gmon.h).  prof reads the program's ELF
 * symbol table, credits each counter to the function whose text holds
 * the counter's first address, and prints one line per function,
 * busiest first, in the layout of kprof:
 *
 *	total: 2000
 *	TEXT 00001000	HZ 1000
 *	ms	  %	sym
 *	1500	 75.0	spin3
 *	500	 25.0	spin1
 *
 * total is the sum of the counters, in clock ticks; % is of that.
 * The symbols, the crediting and the rows are user/lib/elfsym.c's,
 * shared with kprof.  The same source builds for the guest and for the
 * host, so it uses only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "elfsym.h"
#include "gmon.h"

typedef struct Hist Hist;

/* The histogram record of a gmon.out, decoded. */
struct Hist {
	uint32_t	lowpc;		/* the address the first counter starts at */
	uint32_t	highpc;		/* the end of the last counter's range */
	uint32_t	n;		/* counters */
	uint32_t	hz;		/* clock ticks a second */
	const uint8_t	*count;		/* n 16-bit little-endian counts */
};

static void
usage(void)
{
	fprintf(stderr, "usage: prof program [gmon.out]\n");
	exit(1);
}

/*
 * Check the gmon.out of len bytes at buf, from path, and decode its
 * histogram: the file must hold the header and exactly one histogram
 * record, all of it.
 */
static void
gethist(const char *path, const uint8_t *buf, size_t len, Hist *h)
{
	const uint8_t *r;
	size_t left;

	if(len < 4 || memcmp(buf, "gmon", 4) != 0)
		fatal("%s: not a gmon.out file", path);
	if(len < GMON_HDRSIZE)
		fatal("%s: truncated header", path);
	if(le32(buf+4) != GMON_VERSION)
		fatal("%s: unsupported version %u", path, (unsigned)le32(buf+4));
	r = buf + GMON_HDRSIZE;
	left = len - GMON_HDRSIZE;
	if(left == 0)
		fatal("%s: no histogram", path);
	if(r[0] != GMON_TAG_TIME_HIST)
		fatal("%s: unsupported record, tag %u", path, r[0]);
	if(left < 1 + GMON_HISTSIZE)
		fatal("%s: truncated histogram", path);
	h->lowpc = le32(r+1);
	h->highpc = le32(r+5);
	h->n = le32(r+9);
	h->hz = le32(r+13);
	h->count = r + 1 + GMON_HISTSIZE;
	left -= 1 + GMON_HISTSIZE;
	if(left < 2*(uint64_t)h->n)
		fatal("%s: truncated histogram", path);
	if(left > 2*(uint64_t)h->n)
		fatal("%s: data after the histogram", path);
	if(h->hz == 0)
		fatal("%s: clock rate 0", path);
}

/* Counter i's first address. */
static uint32_t
binaddr(Hist *h, uint32_t i)
{
	return h->lowpc + (uint64_t)i * (h->highpc - h->lowpc) / h->n;
}

int
main(int argc, char *argv[])
{
	Symtab t;
	Hist h;
	uint8_t *buf;
	uint64_t total;
	const char *gmon, *err;
	size_t len;
	uint32_t i, c;

	argv0 = "prof";
	if(argc < 2 || argc > 3 || argv[1][0] == '-')
		usage();
	gmon = argc == 3 ? argv[2] : "gmon.out";
	if((err = symload(&t, argv[1])) != NULL)
		fatal("%s", err);
	buf = readfile(gmon, 0, &len);
	if(buf == NULL)
		fatal("%s: %s", gmon, strerror(errno));
	gethist(gmon, buf, len, &h);
	if(h.n == 0 || h.highpc <= h.lowpc || h.lowpc < t.textbase
	|| binaddr(&h, h.n - 1) - t.textbase >= t.textsize)
		fatal("%s: histogram %08x-%08x does not fit %s's text %08x-%08x",
			gmon, (unsigned)h.lowpc, (unsigned)h.highpc, argv[1],
			(unsigned)t.textbase, (unsigned)(t.textbase + t.textsize));

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
	free(buf);
	symfree(&t);
	return 0;
}
