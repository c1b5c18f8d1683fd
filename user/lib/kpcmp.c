/*
 * kprof -c: a sampled profile held against an exact count of the same
 * run, function by function, with the error that sampling alone makes.
 *
 * Both files are kpdata (kpdata.h); the exact one counts instructions
 * at each bin, not ticks.  Each bin is credited to its function as the
 * flat profile credits it, and each function's share is of the counts
 * in kernel text (less the functions left out).  A function's sampled
 * share, for n ticks drawn from its exact share p, has the standard
 * error sqrt(p(1-p)/n); the distance between the two profiles is the
 * total variation, half the sum of the differences.
 *
 * What sampling alone would give is found by simulation: profiles of n
 * ticks each, every tick drawn at random from the exact shares (a
 * multinomial sample), by Walker's alias method, from a generator with
 * a fixed seed, so that the figures are the same every time.  Their
 * distances' median and 95th percentile are printed.  Past SIMTICKS
 * ticks the profiles drawn are of SIMTICKS, and their distances scaled
 * by the square root of SIMTICKS over the ticks, as sampling's error
 * shrinks: else a small file whose counts say billions of ticks would
 * take hours.
 *
 * Shares are integers, in billionths: the same source builds for the
 * guest, which has no floating point in its C library.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kpdata.h"

enum {
	NANO		= 1000000000,	/* a share of 1, in billionths */
	MAXTRIALS	= 1000,	/* simulated profiles, when ticks are few */
	MINTRIALS	= 100,	/* however many the ticks */
	DRAWS		= 1<<26,	/* ticks drawn in all, unless MINTRIALS take more */
	SIMTICKS	= 1<<19,	/* ticks of a simulated profile at most */
};

#define SEED	0x6b70726f66ull	/* the generator's, through splitmix: "kprof" */

typedef struct Row Row;
typedef struct Alias Alias;

/* A function's counts and shares in the two files. */
struct Row {
	const char	*name;
	uint64_t	exact;		/* what the exact file counted */
	uint64_t	sampled;	/* ticks */
	uint64_t	pe;		/* exact's share, in billionths */
	uint64_t	ps;		/* sampled's */
};

/* Walker's table: draw a column, then keep it or take its alias. */
struct Alias {
	int	n;		/* columns */
	uint32_t	*keep;		/* keep column i if a 32-bit draw is below keep[i] */
	int	*alias;		/* else take this one; a full column is its own */
};

static void*
emalloc(size_t n)
{
	void *p;

	p = calloc(n ? n : 1, 1);
	if(p == NULL)
		fatal("out of memory");
	return p;
}

static uint64_t
isqrt(uint64_t x)
{
	uint64_t r, b;

	r = 0;
	for(b = (uint64_t)1<<62; b > x; b >>= 2)
		;
	for(; b != 0; b >>= 2){
		if(x >= r + b){
			x -= r + b;
			r = (r >> 1) + b;
		}else
			r >>= 1;
	}
	return r;
}

/* SplitMix64, to seed the generator below. */
static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z;

	z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t
rotl(uint32_t x, int k)
{
	return x << k | x >> (32 - k);
}

/*
 * xoshiro128**, Blackman and Vigna's: a good generator in 32-bit
 * words, which the guest's processor does in a few instructions.
 */
static uint32_t
rnd(uint32_t *s)
{
	uint32_t r, t;

	r = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 9;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 11);
	return r;
}

/*
 * Credit the bins of the kpdata cells at path to the functions of k,
 * in fn, indexed as k->sym.  A bin whose count has stopped at 2^32-1
 * is no longer a count, and is an error.
 */
static void
credit(Symtab *k, const char *path, const uint32_t *cell, uint64_t nbins, uint64_t *fn)
{
	uint64_t i;

	for(i = 0; i < nbins; i++){
		if(cell[KPBIN+i] == 0)
			continue;
		if(cell[KPBIN+i] == 0xFFFFFFFF)
			fatal("%s: the count of bin %llu (%08x) has stopped at 2^32-1", path,
				(unsigned long long)i, (unsigned)(k->textbase + i*KPBINSIZE));
		fn[symfind(k, k->textbase + i*KPBINSIZE)] += cell[KPBIN+i];
	}
}

/*
 * Biggest exact share first, and any exact count before none (a share
 * may round to 0), then biggest sampled share, then by name.
 */
static int
byshare(const void *va, const void *vb)
{
	const Row *a = va, *b = vb;

	if(a->pe != b->pe)
		return a->pe > b->pe ? -1 : 1;
	if((a->exact != 0) != (b->exact != 0))
		return a->exact != 0 ? -1 : 1;
	if(a->ps != b->ps)
		return a->ps > b->ps ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int
bynum(const void *va, const void *vb)
{
	uint64_t a = *(const uint64_t*)va, b = *(const uint64_t*)vb;

	return a < b ? -1 : a > b;
}

static int
bystr(const void *va, const void *vb)
{
	return strcmp(*(char* const*)va, *(char* const*)vb);
}

/* Sort the names to leave out and drop repeats: how many are left. */
static int
omitsort(char **omit, int nomit)
{
	int i, n;

	qsort(omit, nomit, sizeof omit[0], bystr);
	n = 0;
	for(i = 0; i < nomit; i++)
		if(n == 0 || strcmp(omit[n-1], omit[i]) != 0)
			omit[n++] = omit[i];
	return n;
}

/* Where name is in the sorted omit[0..nomit), or -1. */
static int
omitted(char **omit, int nomit, const char *name)
{
	int lo, hi, mid, c;

	lo = 0;
	hi = nomit;
	while(lo < hi){
		mid = lo + (hi - lo) / 2;
		if((c = strcmp(name, omit[mid])) == 0)
			return mid;
		if(c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* A share or a difference of shares, in billionths, as points to two decimals. */
static char*
points(char *buf, int64_t v, int sign)
{
	uint64_t u;

	u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	u = (u + 50000) / 100000;
	snprintf(buf, 24, "%s%llu.%02llu", !sign || u == 0 ? "" : v < 0 ? "-" : "+",
		(unsigned long long)(u / 100), (unsigned long long)(u % 100));
	return buf;
}

/* The difference d, in billionths, in standard errors se, to one decimal; "-" if se is 0. */
static char*
errors(char *buf, int64_t d, uint64_t se)
{
	uint64_t u;

	if(se == 0){
		strcpy(buf, "-");
		return buf;
	}
	u = d < 0 ? -(uint64_t)d : (uint64_t)d;
	u = (u*10 + se/2) / se;
	snprintf(buf, 24, "%s%llu.%llu", u == 0 ? "" : d < 0 ? "-" : "+",
		(unsigned long long)(u / 10), (unsigned long long)(u % 10));
	return buf;
}

/*
 * Walker's table for the exact counts of the rows r[0..n), with total
 * counts.  Each column holds 2^32 of probability, n of them in all:
 * its own row's share and the rest from its alias.
 */
static void
mkalias(Alias *a, Row *r, int n, uint64_t total)
{
	const uint64_t col = (uint64_t)1 << 32;
	uint64_t *w;
	int *small, *large, ns, nl, i, s, l;

	a->n = n;
	a->keep = emalloc(n * sizeof a->keep[0]);
	a->alias = emalloc(n * sizeof a->alias[0]);
	w = emalloc(n * sizeof w[0]);
	small = emalloc(n * sizeof small[0]);
	large = emalloc(n * sizeof large[0]);
	ns = nl = 0;
	for(i = 0; i < n; i++){
		w[i] = muldiv(r[i].exact, 0xFFFFFFFF, total) * n;
		if(w[i] < col)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while(ns > 0 && nl > 0){
		s = small[--ns];
		l = large[nl-1];
		a->keep[s] = w[s];
		a->alias[s] = l;
		w[l] -= col - w[s];
		if(w[l] < col){
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left is a full column each, but for rounding: its own alias. */
	while(nl > 0){
		l = large[--nl];
		a->keep[l] = 0;
		a->alias[l] = l;
	}
	while(ns > 0){
		s = small[--ns];
		a->keep[s] = 0;
		a->alias[s] = s;
	}
	free(large);
	free(small);
	free(w);
}

/*
 * The total variation of ntrial profiles of n ticks each, drawn from
 * the exact shares of the rows r[0..nr), in tv[], sorted.
 */
static void
simulate(Row *r, int nr, uint64_t total, uint64_t n, uint64_t *tv, int ntrial)
{
	Alias a;
	uint64_t *count, seed, x, d, j;
	uint32_t st[4];
	int t, i;

	mkalias(&a, r, nr, total);
	count = emalloc(nr * sizeof count[0]);
	seed = SEED;
	x = splitmix(&seed);
	st[0] = x;
	st[1] = x >> 32;
	x = splitmix(&seed);
	st[2] = x;
	st[3] = x >> 32;
	for(t = 0; t < ntrial; t++){
		memset(count, 0, nr * sizeof count[0]);
		for(j = 0; j < n; j++){
			i = ((uint64_t)rnd(st) * (uint32_t)nr) >> 32;
			if(rnd(st) >= a.keep[i])
				i = a.alias[i];
			count[i]++;
		}
		d = 0;
		for(i = 0; i < nr; i++){
			x = muldiv(count[i], NANO, n);
			d += x > r[i].pe ? x - r[i].pe : r[i].pe - x;
		}
		tv[t] = d / 2;
	}
	qsort(tv, ntrial, sizeof tv[0], bynum);
	free(count);
	free(a.keep);
	free(a.alias);
}

/*
 * Print the profile of the kpdata at sampled against the exact count
 * at exact, both of the kernel k, leaving out the functions named in
 * omit[0..nomit) (sorted here, each name once).
 */
void
kpcompare(Symtab *k, const char *exact, const char *sampled, char **omit, int nomit)
{
	uint32_t *ce, *cs;
	uint64_t *fe, *fs, *tv, te, ts, nbins, se, d, sim, scale;
	Row *r;
	char b1[24], b2[24], b3[24], b4[24], *found;
	int i, j, n, ne, ntrial;

	nbins = kpnbins(k);
	ce = kpread(exact, nbins);
	cs = kpread(sampled, nbins);
	fe = emalloc(k->nsym * sizeof fe[0]);
	fs = emalloc(k->nsym * sizeof fs[0]);
	credit(k, exact, ce, nbins, fe);
	credit(k, sampled, cs, nbins, fs);
	nomit = omitsort(omit, nomit);
	found = emalloc(nomit ? nomit : 1);
	for(i = 0; i < k->nsym; i++)
		if((j = omitted(omit, nomit, k->sym[i].name)) >= 0){
			fe[i] = fs[i] = 0;
			found[j] = 1;
		}
	for(j = 0; j < nomit; j++)
		if(!found[j])
			fatal("-x %s: %s has no such function", omit[j], k->path);
	free(found);
	te = ts = 0;
	for(i = 0; i < k->nsym; i++){
		te += fe[i];
		ts += fs[i];
	}
	if(te == 0)
		fatal("%s: no counts in kernel text%s", exact, nomit ? " outside the functions left out" : "");
	if(ts == 0)
		fatal("%s: no ticks in kernel text%s", sampled, nomit ? " outside the functions left out" : "");

	r = emalloc(k->nsym * sizeof r[0]);
	n = 0;
	for(i = 0; i < k->nsym; i++){
		if(fe[i] == 0 && fs[i] == 0)
			continue;
		r[n].name = k->sym[i].name;
		r[n].exact = fe[i];
		r[n].sampled = fs[i];
		r[n].pe = muldiv(fe[i], NANO, te);
		r[n].ps = muldiv(fs[i], NANO, ts);
		n++;
	}
	qsort(r, n, sizeof r[0], byshare);

	printf("exact: %llu in kernel text (%s)\n", (unsigned long long)te, exact);
	printf("sampled: %llu ticks in kernel text (%s)\n", (unsigned long long)ts, sampled);
	if(nomit > 0){
		printf("left out:");
		for(j = 0; j < nomit; j++)
			printf(" %s", omit[j]);
		printf("\n");
	}
	printf("sampled\texact\tdiff\tSEs\tsym\n");
	d = 0;
	ne = 0;
	for(i = 0; i < n; i++){
		se = isqrt(r[i].pe * (NANO - r[i].pe) / ts);
		printf("%6s\t%6s\t%6s\t%6s\t%s\n", points(b1, r[i].ps, 0), points(b2, r[i].pe, 0),
			points(b3, (int64_t)(r[i].ps - r[i].pe), 1),
			errors(b4, (int64_t)(r[i].ps - r[i].pe), se), r[i].name);
		d += r[i].ps > r[i].pe ? r[i].ps - r[i].pe : r[i].pe - r[i].ps;
		if(r[i].exact != 0)
			ne++;
	}
	printf("total variation: %s points\n", points(b1, d/2, 0));

	/* Rows with exact counts sort first: they are what the draws are from. */
	sim = ts < SIMTICKS ? ts : SIMTICKS;
	ntrial = DRAWS / sim;
	if(ntrial > MAXTRIALS)
		ntrial = MAXTRIALS;
	if(ntrial < MINTRIALS)
		ntrial = MINTRIALS;
	tv = emalloc(ntrial * sizeof tv[0]);
	simulate(r, ne, te, sim, tv, ntrial);
	if(sim < ts){
		scale = isqrt(((uint64_t)sim << 32) / ts);	/* sqrt(sim/ts), times 2^16 */
		for(i = 0; i < ntrial; i++)
			tv[i] = tv[i] * scale >> 16;
	}
	printf("sampling alone: median %s, 95th percentile %s points"
		" (%d simulated profiles of %llu ticks drawn from the exact shares",
		points(b1, tv[(ntrial+1)/2 - 1], 0), points(b2, tv[(95*ntrial + 99)/100 - 1], 0),
		ntrial, (unsigned long long)sim);
	if(sim < ts)
		printf(", their distances scaled to %llu ticks", (unsigned long long)ts);
	printf(")\n");
	free(tv);
	free(r);
	free(fs);
	free(fe);
	free(cs);
	free(ce);
}
