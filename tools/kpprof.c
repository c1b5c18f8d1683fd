/*
 * kprof -p, on the host only: the kernel profile in pprof's format
 * (tools/pprof.c), for `go tool pprof'.
 *
 * With kpstack, a sample for each folded stack (user/lib/kpstack.c),
 * its frames the functions kprof -s names, each at its first byte;
 * else a sample for each busy bin of kpdata, at the bin's first byte,
 * so that pprof's source and disassembly views show where in each
 * function the ticks fell.  Either way the counts are kprof's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfsym.h"
#include "kpdata.h"
#include "kpstack.h"
#include "pprof.h"

static Symtab	*cmpk;	/* the symbols bynameptr sorts the numbers of */

/* Symbol numbers by where their names are in memory. */
static int
bynameptr(const void *va, const void *vb)
{
	const char *a = cmpk->sym[*(const int*)va].name, *b = cmpk->sym[*(const int*)vb].name;

	return a < b ? -1 : a > b;
}

/*
 * Where the function that a frame of the stacks names starts: kpstack.c
 * names a frame by its symbol's own name, or by the frame's pc in hex
 * if no symbol holds it.  by is k's symbol numbers sorted by bynameptr.
 */
static uint32_t
nameaddr(Symtab *k, const int *by, const char *name)
{
	int lo, hi, mid;

	lo = 0;
	hi = k->nsym;
	while(lo < hi){
		mid = (lo + hi) / 2;
		if(k->sym[by[mid]].name == name)
			return k->sym[by[mid]].addr;
		if(k->sym[by[mid]].name < name)
			lo = mid + 1;
		else
			hi = mid;
	}
	return strtoul(name, NULL, 16);
}

/*
 * Write the pprof profile of the kernel whose symbols are k, from
 * kpdata's cells (nbins bins at hz) and, if st is not NULL, the
 * stacks of kpstack; clock names the clock that took it.
 */
void
kpprof(Symtab *k, const uint32_t *cell, uint64_t nbins, unsigned long hz, Stacks *st, const char *clock)
{
	Pprof *p;
	Path *path;
	uint64_t loc[KPMAXFRAMES], i;
	int *by, j, n;

	if(isatty(1))
		fatal("-p: the profile is gzipped: send it to a file, as kprof -p %s kpdata >kernel.pb.gz",
			k->path);
	p = ppopen(k, hz);
	ppcomment(p, "kprof: the kernel %s", k->path);
	ppcomment(p, "clock: %s, HZ %lu", clock, hz);
	ppcomment(p, "ticks: %u, in kernel text %u, outside kernel text %lld",
		(unsigned)cell[0], (unsigned)cell[1], (long long)cell[0] - (long long)cell[1]);
	if(st == NULL){
		for(i = 0; i < nbins; i++){
			if(cell[2+i] != 0){
				loc[0] = ppat(p, k->textbase + i*KPBINSIZE);
				ppsample(p, loc, 1, cell[2+i]);
			}
		}
		ppwrite(p);
		return;
	}
	by = malloc((k->nsym + 1) * sizeof by[0]);
	if(by == NULL)
		fatal("out of memory");
	for(j = 0; j < k->nsym; j++)
		by[j] = j;
	cmpk = k;
	qsort(by, k->nsym, sizeof by[0], bynameptr);
	for(j = 0; j < st->npath; j++){
		path = &st->path[j];
		for(n = 0; n < path->n; n++)
			loc[path->n-1-n] = ppfunc(p, st->name[path->f[n]],
				nameaddr(k, by, st->name[path->f[n]]));
		ppsample(p, loc, path->n, path->count);
	}
	free(by);
	ppwrite(p);
}
