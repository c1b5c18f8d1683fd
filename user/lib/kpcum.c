/*
 * What the folded stacks of user/lib/kpstack.c say of each function,
 * in text: kprof -i, every function's self and inclusive ticks (as
 * pprof's flat and cum, perf report --children), and kprof -t, one
 * function's callers and callees with their ticks (as pprof -peek).
 *
 * A function's self ticks are those of the paths it ends, its
 * inclusive ticks those of the paths it is in, once however often it
 * recurs.  Every tick has a path, its leaf kept even where kpstack cut
 * the rest (kern/kprof.h), so a kernel function's self ticks are the
 * flat profile's; the shares are of all the paths' ticks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kpstack.h"

typedef struct Cum Cum;

/* A function's ticks, in the order of s->name. */
struct Cum {
	uint64_t	self;
	uint64_t	incl;
	uint64_t	edge;		/* -t: as a caller, or a callee, of the function looked at */
	int	seen;		/* the last path counted in incl, + 1 */
	int	name;
};

static Cum*
cumnew(Stacks *s)
{
	Cum *c;
	int i;

	if((c = calloc(s->nname + 1, sizeof c[0])) == NULL)
		fatal("out of memory");
	for(i = 0; i < s->nname; i++)
		c[i].name = i;
	return c;
}

/* Ticks a share of total, in tenths of a percent, rounded. */
static unsigned
permille(uint64_t ticks, uint64_t total)
{
	return total == 0 ? 0 : (ticks * 1000 + total / 2) / total;
}

static int
byincl(const void *va, const void *vb)
{
	const Cum *a = va, *b = vb;

	if(a->incl != b->incl)
		return a->incl > b->incl ? -1 : 1;
	if(a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return a->name - b->name;
}

static int
byedge(const void *va, const void *vb)
{
	const Cum *a = va, *b = vb;

	if(a->edge != b->edge)
		return a->edge > b->edge ? -1 : 1;
	return a->name - b->name;
}

/* -i: every function with ticks, by inclusive ticks, most first. */
void
stackincl(Stacks *s)
{
	Cum *c;
	Path *p;
	int i, j;

	c = cumnew(s);
	for(i = 0; i < s->npath; i++){
		p = &s->path[i];
		c[p->f[p->n - 1]].self += p->count;
		for(j = 0; j < p->n; j++)
			if(c[p->f[j]].seen != i + 1){
				c[p->f[j]].seen = i + 1;
				c[p->f[j]].incl += p->count;
			}
	}
	qsort(c, s->nname, sizeof c[0], byincl);
	printf("total: %llu\n", (unsigned long long)s->total);
	printf("self\t  %%\tincl\t  %%\tsym\n");
	for(i = 0; i < s->nname && c[i].incl > 0; i++){
		printf("%llu\t%3u.%u\t%llu\t%3u.%u\t",
			(unsigned long long)c[i].self, permille(c[i].self, s->total) / 10, permille(c[i].self, s->total) % 10,
			(unsigned long long)c[i].incl, permille(c[i].incl, s->total) / 10, permille(c[i].incl, s->total) % 10);
		putname(s->name[c[i].name]);
		putchar('\n');
	}
	free(c);
}

/* The number of name fn in s, or -1. */
static int
lookname(Stacks *s, const char *fn)
{
	int lo = 0, hi = s->nname, mid, d;

	while(lo < hi){
		mid = (lo + hi) / 2;
		if((d = strcmp(s->name[mid], fn)) == 0)
			return mid;
		if(d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The lines of c with edge ticks, most first, each a share of incl. */
static void
edges(Stacks *s, Cum *c, uint64_t incl)
{
	int i;

	qsort(c, s->nname + 1, sizeof c[0], byedge);
	for(i = 0; i <= s->nname && c[i].edge > 0; i++){
		printf("\t%llu\t%3u.%u%%\t    ", (unsigned long long)c[i].edge,
			permille(c[i].edge, incl) / 10, permille(c[i].edge, incl) % 10);
		putname(c[i].name < s->nname ? s->name[c[i].name] : "(none)");
		putchar('\n');
	}
}

/*
 * -t fn: its callers, then fn itself, then its callees, with their
 * ticks and shares of fn's inclusive ticks.  A caller is the frame
 * below fn's outermost in a path, a callee the frame above its
 * innermost; a path that fn is the root of has the caller (none), and
 * one that it ends counts as fn's self.
 */
void
stackpeek(Stacks *s, const char *fn)
{
	Cum *up, *down;
	Path *p;
	uint64_t incl, self;
	int i, j, f, first, last;

	if((f = lookname(s, fn)) < 0)
		fatal("%s: in no stack", fn);
	up = cumnew(s);
	down = cumnew(s);
	up[s->nname].name = down[s->nname].name = s->nname;
	incl = self = 0;
	for(i = 0; i < s->npath; i++){
		p = &s->path[i];
		first = last = -1;
		for(j = 0; j < p->n; j++)
			if(p->f[j] == (uint32_t)f){
				if(first < 0)
					first = j;
				last = j;
			}
		if(first < 0)
			continue;
		incl += p->count;
		up[first > 0 ? (int)p->f[first - 1] : s->nname].edge += p->count;
		if(last == p->n - 1)
			self += p->count;
		else
			down[p->f[last + 1]].edge += p->count;
	}
	printf("ticks\t  %%\tcallers, %s, callees\n", fn);
	edges(s, up, incl);
	printf("%llu\t%3u.%u%%\t", (unsigned long long)incl, permille(incl, s->total) / 10, permille(incl, s->total) % 10);
	putname(fn);
	printf(" (self %llu, %u.%u%% of all)\n", (unsigned long long)self,
		permille(self, s->total) / 10, permille(self, s->total) % 10);
	edges(s, down, incl);
	free(up);
	free(down);
}
