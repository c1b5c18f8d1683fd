/*
 * Host unit test of mcount's table of arcs, user/lib/arcs.c, as
 * threads use it: several at once calling _mcount along the same arcs,
 * adding them in races, filling the table.  Every call must be counted
 * exactly once, on its arc or as lost; no arc twice in the table.
 *
 *	mcounttest threads|full|saturate|off
 *
 * prints "ok", or a line for each thing wrong and exits 1.  The thread
 * sanitizer's build (o/host/mcounttest-tsan) checks the atomics.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../user/lib/arcs.c"

enum {
	NTHREAD	= 4,
};

static int	failed;
static uint32_t	narc;		/* arcs each thread calls along */
static int	rounds;		/* times each */
static pthread_barrier_t	start;	/* so that the threads race from the first call */

static void
fail(const char *fmt, uint64_t a, uint64_t b)
{
	printf(fmt, (unsigned long long)a, (unsigned long long)b);
	printf("\n");
	failed = 1;
}

/* Arc i: from one of 97 call sites to one of 53 functions, all pairs distinct. */
static uint32_t
from(uint32_t i)
{
	return 0x1000 + 16*(i / 53);
}

static uint32_t
self(uint32_t i)
{
	return 0x80000 + 64*(i % 53);
}

/*
 * Thread t: rounds passes over the arcs, threads 0 and 1 from the
 * first, 2 and 3 from the middle, so that two at a time race to add
 * the same arcs.
 */
static void*
caller(void *v)
{
	uint32_t t, i, j;
	int r;

	t = (uintptr_t)v;
	pthread_barrier_wait(&start);
	for(r = 0; r < rounds; r++)
		for(j = 0; j < narc; j++){
			i = j + t/2*narc/2;
			_mcount(from(i % narc), self(i % narc));
		}
	return NULL;
}

static void
run(uint32_t n, int r)
{
	pthread_t th[NTHREAD];
	uintptr_t t;

	narc = n;
	rounds = r;
	mcountctl(1);
	pthread_barrier_init(&start, NULL, NTHREAD);
	for(t = 0; t < NTHREAD; t++)
		if(pthread_create(&th[t], NULL, caller, (void*)t) != 0){
			perror("pthread_create");
			exit(2);
		}
	for(t = 0; t < NTHREAD; t++)
		pthread_join(th[t], NULL);
}

/*
 * The table after run: the arcs it holds are distinct ones of those
 * called, each with every call along it; the rest are lost.
 */
static void
check(uint32_t want)
{
	static uint8_t seen[97*53];
	uint32_t i, f, s, c, k;
	uint64_t sum;

	if(mcountarcs() != want)
		fail("%llu arcs in the table, want %llu", mcountarcs(), want);
	sum = 0;
	for(i = 0; i < mcountarcs(); i++){
		mcountarc(i, &f, &s, &c);
		k = (f - 0x1000)/16*53 + (s - 0x80000)/64;
		if(f < 0x1000 || s < 0x80000 || k >= narc || from(k) != f || self(k) != s){
			fail("arc %llu: not one called (%llx)", i, (uint64_t)f<<32 | s);
			continue;
		}
		if(seen[k]++)
			fail("arc %llu: twice in the table (arc %llu)", i, k);
		if(c != (uint32_t)NTHREAD*rounds)
			fail("arc %llu: count %llu", i, c);
		sum += c;
	}
	if(sum + mcountlost() != (uint64_t)NTHREAD*rounds*narc)
		fail("%llu calls counted and lost, want %llu", sum + mcountlost(), (uint64_t)NTHREAD*rounds*narc);
}

int
main(int argc, char *argv[])
{
	uint32_t f, s, c;
	int i;

	if(argc != 2){
		fprintf(stderr, "usage: mcounttest threads|full|saturate|off\n");
		return 2;
	}
	if(strcmp(argv[1], "threads") == 0){
		/* Fewer arcs than the table holds: all of them in it, none lost. */
		run(1000, 50);
		check(1000);
		if(mcountlost() != 0)
			fail("%llu calls lost, want %llu", mcountlost(), 0);
	}else if(strcmp(argv[1], "full") == 0){
		/* More: the table full, the rest lost (and mcountoverflow says so once). */
		run(97*53, 3);
		check(GMON_NARCS);
		if(mcountlost() != (uint64_t)NTHREAD*3*(97*53 - GMON_NARCS))
			fail("%llu calls lost, want %llu", mcountlost(), (uint64_t)NTHREAD*3*(97*53 - GMON_NARCS));
	}else if(strcmp(argv[1], "saturate") == 0){
		/* Counts stop at GMON_MAXCOUNT, the lost calls' too. */
		mcountctl(1);
		_mcount(0x1005, 0x2005);
		arcs.arc[0].count = GMON_MAXCOUNT - 2;
		for(i = 0; i < 5; i++)
			_mcount(0x1005, 0x2005);
		mcountarc(0, &f, &s, &c);
		if(c != GMON_MAXCOUNT)
			fail("count %llu, want %llu", c, GMON_MAXCOUNT);
		arcs.n = GMON_NARCS;
		arcs.lost = GMON_MAXCOUNT - 1;
		for(i = 0; i < 3; i++)
			_mcount(0x1009, 0x2009);
		if(mcountlost() != GMON_MAXCOUNT)
			fail("lost %llu, want %llu", mcountlost(), GMON_MAXCOUNT);
	}else if(strcmp(argv[1], "off") == 0){
		/* Off, before and after: nothing counted. */
		_mcount(0x1005, 0x2005);
		mcountctl(1);
		_mcount(0x1005, 0x2005);
		mcountctl(0);
		_mcount(0x1005, 0x2005);
		_mcount(0x1009, 0x2009);
		mcountarc(0, &f, &s, &c);
		if(mcountarcs() != 1 || c != 1)
			fail("%llu arcs, count %llu: want 1 and 1", mcountarcs(), c);
	}else{
		fprintf(stderr, "mcounttest: unknown group %s\n", argv[1]);
		return 2;
	}
	if(failed)
		return 1;
	printf("ok\n");
	return 0;
}
