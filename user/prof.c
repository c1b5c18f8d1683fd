/*
 * prof: format a program's profile of itself.
 *
 *	prof program [gmon.out]
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
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsym.h"
#include "gmon.h"

static void
usage(void)
{
	fprintf(stderr, "usage: prof program [gmon.out]\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	Symtab t;
	Gmon g;
	const char *gmon, *err;

	argv0 = "prof";
	if(argc < 2 || argc > 3 || argv[1][0] == '-')
		usage();
	gmon = argc == 3 ? argv[2] : "gmon.out";
	if((err = symload(&t, argv[1])) != NULL)
		fatal("%s", err);
	gmonload(&g, &t, gmon);
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
