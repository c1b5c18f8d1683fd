/*
 * The call graph of a gmon.out (kprof -q): for each function that was
 * called or called others, a block as gprof -q's, without its
 * estimates of time through children:
 *
 *	                234	pagealloc
 *	                178	rootread
 *	lock	1179 calls	280 ms
 *	                1179	pushcli
 *
 * the callers above, each with its calls of the function, then the
 * function with all its calls and its own time (ms at the file's
 * clock), then the callees below, each with the calls the function
 * made of it; callers and callees most calls first.  The blocks come
 * in order of calls, most first, or there is only the one asked for.  A caller is the function that holds
 * the call instruction, the byte before the return address.
 *
 * The same source builds for the guest and for the host, so it uses
 * only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsym.h"
#include "gmon.h"

typedef struct Edge Edge;

/* The calls from one function to another: the arcs between them summed. */
struct Edge {
	int	from;		/* caller, an index in the Symtab */
	int	to;		/* callee */
	uint64_t	n;		/* calls */
};

static Symtab	*tab;	/* for the comparisons' names */

static int
cmpu64(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;	/* most first */
}

/* By caller and callee, to add up the arcs between a pair. */
static int
bypair(const void *va, const void *vb)
{
	const Edge *a = va, *b = vb;

	if(a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* By callee and caller: each function's callers, a run. */
static int
bycallee(const void *va, const void *vb)
{
	const Edge *a = va, *b = vb;

	if(a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* Most calls first, then by the other end's name. */
static int
bycallsfrom(const void *va, const void *vb)
{
	const Edge *a = va, *b = vb;
	int c = cmpu64(a->n, b->n);

	return c != 0 ? c : strcmp(tab->sym[a->from].name, tab->sym[b->from].name);
}

static int
bycallsto(const void *va, const void *vb)
{
	const Edge *a = va, *b = vb;
	int c = cmpu64(a->n, b->n);

	return c != 0 ? c : strcmp(tab->sym[a->to].name, tab->sym[b->to].name);
}

/* Functions by their calls, most first, then by time, then name. */
static int
bysym(const void *va, const void *vb)
{
	const Sym *a = &tab->sym[*(const int*)va], *b = &tab->sym[*(const int*)vb];
	int c;

	if((c = cmpu64(a->calls, b->calls)) != 0 || (c = cmpu64(a->ticks, b->ticks)) != 0)
		return c;
	return strcmp(a->name, b->name);
}

/*
 * The runs of the n edges at e, sorted by caller, or by callee if
 * callee: function f's are e[run[f]] up to e[run[f+1]], so that its
 * block need not look at every edge (which made a graph of 30,000
 * functions take 90 times the time of 3,000).
 */
static int*
runs(Edge *e, int n, int nsym, int callee)
{
	int *run, i, f;
	size_t cap;

	cap = 0;
	run = grow(NULL, &cap, nsym + 1, sizeof run[0]);
	for(i = 0, f = 0; f <= nsym; f++){
		while(i < n && (callee ? e[i].to : e[i].from) < f)
			i++;
		run[f] = i;
	}
	return run;
}

/* Function f's block: its callers, itself, its callees. */
static void
block(int f, Edge *in, int nin, Edge *out, int nout, unsigned long hz)
{
	Sym *s = &tab->sym[f];
	int i;

	for(i = 0; i < nin; i++)
		printf("\t\t%llu\t%s\n", (unsigned long long)in[i].n, tab->sym[in[i].from].name);
	printf("%s\t%llu calls\t%llu ms\n", s->name, (unsigned long long)s->calls,
		(unsigned long long)(s->ticks * 1000 / hz));
	for(i = 0; i < nout; i++)
		printf("\t\t%llu\t%s\n", (unsigned long long)out[i].n, tab->sym[out[i].to].name);
	printf("\n");
}

/*
 * Print the call graph of g, whose functions are t's, with their calls
 * and ticks credited by gmonload: every block, or only the block of the
 * function named fn.
 */
void
callgraph(Symtab *t, Gmon *g, const char *fn)
{
	Edge *e, *in, *out;
	int *order, *mark, *outrun, *inrun, n, i, k, f, norder, nin, nout;
	size_t ecap, ocap, mcap, icap;

	if(g->narc == 0)
		fatal("no calls in the call graph: were its arcs on (echo arcs on > /dev/kpctl)?");
	tab = t;
	ecap = ocap = mcap = icap = 0;
	e = grow(NULL, &ecap, g->narc, sizeof e[0]);
	for(i = 0; i < (int)g->narc; i++){
		e[i].from = symfind(t, g->arc[i].from - 1);
		e[i].to = symfind(t, g->arc[i].self);
		e[i].n = g->arc[i].count;
	}
	qsort(e, g->narc, sizeof e[0], bypair);
	for(n = 0, i = 0; i < (int)g->narc; i++)
		if(n > 0 && e[n-1].from == e[i].from && e[n-1].to == e[i].to)
			e[n-1].n += e[i].n;
		else
			e[n++] = e[i];
	mark = grow(NULL, &mcap, t->nsym, sizeof mark[0]);
	order = grow(NULL, &ocap, t->nsym, sizeof order[0]);
	memset(mark, 0, t->nsym * sizeof mark[0]);
	for(i = 0; i < n; i++)
		mark[e[i].from] = mark[e[i].to] = 1;
	for(norder = 0, i = 0; i < t->nsym; i++)
		if(mark[i])
			order[norder++] = i;
	qsort(order, norder, sizeof order[0], bysym);
	/* e is by caller and callee; a copy by callee.  A run sorted by calls leaves the others be. */
	in = grow(NULL, &icap, n, sizeof in[0]);
	memcpy(in, e, n * sizeof in[0]);
	qsort(in, n, sizeof in[0], bycallee);
	outrun = runs(e, n, t->nsym, 0);
	inrun = runs(in, n, t->nsym, 1);
	for(k = 0; k < norder; k++){
		f = order[k];
		if(fn != NULL && strcmp(t->sym[f].name, fn) != 0)
			continue;
		nin = inrun[f+1] - inrun[f];
		nout = outrun[f+1] - outrun[f];
		qsort(in + inrun[f], nin, sizeof in[0], bycallsfrom);
		out = e + outrun[f];
		qsort(out, nout, sizeof out[0], bycallsto);
		block(f, in + inrun[f], nin, out, nout, g->hz);
		if(fn != NULL)
			break;
	}
	if(fn != NULL && k == norder)
		fatal("%s: no calls to or from it", fn);
	free(in);
	free(inrun);
	free(outrun);
	free(order);
	free(mark);
	free(e);
}
