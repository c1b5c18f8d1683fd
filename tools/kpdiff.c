/*
 * kprof -D, on the host only: two profiles of one kernel, before and
 * after a change, function by function, as perf diff shows them.
 *
 *	before: 5230 kernel ticks	after: 5100 kernel ticks
 *	before	after	change	z	sym
 *	 5.51%	 4.20%	-1.31	-4.1	lock
 *
 * A function's share is of the kernel ticks of its profile, its bins
 * credited as the flat profile credits them.  Rows come by the size of
 * the change, largest first.  z is the change in standard errors of
 * sampling: a profile of n ticks gives a function whose true share is
 * p the share p, give or take sqrt(p(1-p)/n) (as kprof -c has it), and
 * the two profiles are drawn apart, so the change's error is
 * sqrt(p1(1-p1)/n1 + p2(1-p2)/n2).  A |z| under 2 is what sampling
 * alone gives one time in twenty; `-' is a change of no error (a share
 * of 0 or 1 in both).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsym.h"
#include "kpdata.h"
#include "pprof.h"

typedef struct Row Row;

/* A function in the two profiles. */
struct Row {
	const char	*name;
	double	p1;		/* share before, 0 to 1 */
	double	p2;		/* share after */
};

/* Largest change first, then by name. */
static int
bychange(const void *va, const void *vb)
{
	const Row *a = va, *b = vb;
	double x, y;

	x = fabs(a->p2 - a->p1);
	y = fabs(b->p2 - b->p1);
	if(x != y)
		return x > y ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The ticks of each of k's symbols in the bins of cell. */
static uint64_t*
credit(Symtab *k, const uint32_t *cell, uint64_t nbins)
{
	uint64_t *t, i;

	t = calloc(k->nsym + 1, sizeof t[0]);
	if(t == NULL)
		fatal("out of memory");
	for(i = 0; i < nbins; i++)
		if(cell[2+i] != 0)
			t[symfind(k, k->textbase + i*KPBINSIZE)] += cell[2+i];
	return t;
}

/* Print the difference between the profiles before and after, of the kernel whose symbols are k. */
void
kpdiff(Symtab *k, const uint32_t *before, const uint32_t *after, uint64_t nbins)
{
	uint64_t *t1, *t2, n1, n2;
	double se, d;
	Row *r;
	int i, n;

	t1 = credit(k, before, nbins);
	t2 = credit(k, after, nbins);
	n1 = n2 = 0;
	for(i = 0; i < k->nsym; i++){
		n1 += t1[i];
		n2 += t2[i];
	}
	if(n1 == 0 || n2 == 0)
		fatal("-D: the %s profile has no kernel ticks", n1 == 0 ? "first" : "second");
	r = malloc((k->nsym + 1) * sizeof r[0]);
	if(r == NULL)
		fatal("out of memory");
	n = 0;
	for(i = 0; i < k->nsym; i++){
		if(t1[i] == 0 && t2[i] == 0)
			continue;
		r[n].name = k->sym[i].name;
		r[n].p1 = (double)t1[i] / n1;
		r[n].p2 = (double)t2[i] / n2;
		n++;
	}
	qsort(r, n, sizeof r[0], bychange);
	printf("before: %llu kernel ticks\tafter: %llu kernel ticks\n",
		(unsigned long long)n1, (unsigned long long)n2);
	printf("before\tafter\tchange\tz\tsym\n");
	for(i = 0; i < n; i++){
		d = r[i].p2 - r[i].p1;
		se = sqrt(r[i].p1*(1 - r[i].p1)/n1 + r[i].p2*(1 - r[i].p2)/n2);
		printf("%6.2f%%\t%6.2f%%\t%+.2f\t", 100*r[i].p1, 100*r[i].p2, 100*d);
		if(se > 0)
			printf("%+.1f\t%s\n", d/se, r[i].name);
		else
			printf("-\t%s\n", r[i].name);
	}
	free(r);
	free(t1);
	free(t2);
}
