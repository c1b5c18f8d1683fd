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
 * if the file has arcs.  This is a front end: the reading is the
 * formatters' library's (user/lib/gmonread.c), and the symbols, the
 * crediting and the rows are user/lib/elfsym.c's, shared with kprof.
 * The same source builds for the guest and for the host.
 *
 * -p, on the host only, writes the histogram in pprof's format instead
 * (tools/pprof.c): a sample for each busy counter, at its first address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsym.h"
#include "gmon.h"
#if __STDC_HOSTED__
#include <unistd.h>
#include "pprof.h"
#endif

static void
usage(void)
{
	fprintf(stderr, "usage: prof program [gmon.out]\n"
		"       prof -p program [gmon.out] >prof.pb.gz\n");
	exit(1);
}

#if __STDC_HOSTED__
/* Write the histogram of g, of the program whose symbols are t, in pprof's format. */
static void
gmonpprof(Symtab *t, Gmon *g)
{
	Pprof *p;
	uint64_t loc;
	uint32_t i, c;

	if(isatty(1))
		fatal("-p: the profile is gzipped: send it to a file, as prof -p %s gmon.out >prof.pb.gz",
			t->path);
	p = ppopen(t, g->hz);
	ppcomment(p, "prof: the program %s", t->path);
	ppcomment(p, "clock: profil(2)'s, HZ %u", (unsigned)g->hz);
	ppcomment(p, "ticks: %llu", (unsigned long long)g->total);
	for(i = 0; i < g->n; i++){
		c = g->count[i];
		if(c != 0){
			loc = ppat(p, gmonaddr(g, i));
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
	Gmon g;
	const char *gmon, *err;
	int pb;

	argv0 = "prof";
	pb = argc > 1 && strcmp(argv[1], "-p") == 0;
	if(pb){
		argc--;
		argv++;
	}
	if(argc < 2 || argc > 3 || argv[1][0] == '-')
		usage();
	gmon = argc == 3 ? argv[2] : "gmon.out";
	if((err = symload(&t, argv[1])) != NULL)
		fatal("%s", err);
	gmonload(&g, &t, gmon);
	if(pb){
#if __STDC_HOSTED__
		gmonpprof(&t, &g);
		gmonfree(&g);
		symfree(&t);
		return 0;
#else
		fatal("-p: pprof's format needs protobuf-c, which only the host's prof has");
#endif
	}
	printf("total: %llu\n", (unsigned long long)g.total);
	printf("TEXT %08x\tHZ %u\n", (unsigned)g.lowpc, (unsigned)g.hz);
	symprint(&t, g.total, g.hz);
	if(g.lost != 0)
		fprintf(stderr, "%s: %s: the arc table was full: %llu calls along arcs it had no room for are counted as mcountoverflow's\n",
			argv0, gmon, (unsigned long long)g.lost);
	gmonfree(&g);
	symfree(&t);
	return 0;
}
