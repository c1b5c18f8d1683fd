/*
 * arctest: calls along arcs of the call graph in numbers known
 * beforehand, to test mcount and measure it.  mk builds it also as
 * /bin/arctest.prof, with -pg.
 *
 *	arctest arcs rounds	make calls along that many different arcs
 *				(0 to 2560), each rounds times
 *	arctest -b calls	call an empty function that many times and
 *				print the instructions it took (under
 *				QEMU's -icount the time-stamp counter
 *				counts instructions)
 *
 * The arcs go from SITES places in walk, each calling the NFN
 * functions f00 to f77 in turn through a pointer: arc j of a round is
 * from site j / NFN to function j % NFN.  Each function adds a
 * different number, so that the compiler cannot fold them into one,
 * and each site passes a different argument, so that it cannot fold
 * the sites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	NFN	= 64,		/* functions called */
	SITES	= 40,		/* places they are called from */
};

static volatile unsigned int	sink;	/* what the functions add to */

#define F(n)	static __attribute__((noipa)) void f##n(int k) { sink += k + 0##n; }
#define F8(a)	F(a##0) F(a##1) F(a##2) F(a##3) F(a##4) F(a##5) F(a##6) F(a##7)
F8(0) F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7)

#define T8(a)	f##a##0, f##a##1, f##a##2, f##a##3, f##a##4, f##a##5, f##a##6, f##a##7
static void	(*const fn[NFN])(int) = { T8(0), T8(1), T8(2), T8(3), T8(4), T8(5), T8(6), T8(7) };

/* Site k: calls along the next arcs, up to made == n. */
#define SITE(k)	for(j = 0; j < NFN && made < n; j++, made++) fn[j](k);
#define S8(a)	SITE(a##0) SITE(a##1) SITE(a##2) SITE(a##3) SITE(a##4) SITE(a##5) SITE(a##6) SITE(a##7)

/* One call along each of the first n arcs. */
static __attribute__((noipa)) void
walk(long n)
{
	long made;
	int j;

	made = 0;
	S8(1) S8(2) S8(3) S8(4) S8(5)
}

static __attribute__((noipa)) void
empty(void)
{
	asm volatile("");
}

static unsigned long long
rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static void
usage(void)
{
	fprintf(stderr, "usage: arctest arcs rounds | arctest -b calls\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	unsigned long long t;
	long n, rounds, i;

	if(argc != 3)
		usage();
	if(strcmp(argv[1], "-b") == 0){
		if((n = parsenum(argv[2])) < 0)
			usage();
		t = rdtsc();
		for(i = 0; i < n; i++)
			empty();
		t = rdtsc() - t;
		printf("arctest: %ld calls, %llu instructions\n", n, t);
		return 0;
	}
	n = parsenum(argv[1]);
	rounds = parsenum(argv[2]);
	if(n < 0 || n > SITES*NFN || rounds < 0)
		usage();
	for(i = 0; i < rounds; i++)
		walk(n);
	printf("arctest: %ld arcs, %ld calls each\n", n, rounds);
	return 0;
}
