/*
 * sleepers: do the sleepers whose time is not up stay asleep?
 *
 *	sleepers [-n sleepers] [-g greedy] [-t ticks] [-m percent]
 *
 * Forks n children (default 60), the i-th of which sleeps i ms again
 * and again, so that their times fall due apart, then spins for ticks
 * clock ticks (default 2000), counting its rounds, against as many
 * ticks spun alone before the fork (which ticks alone cannot tell: the
 * sleepers run between them).  The clock readies a sleeper only when
 * its time is up:
 * at hz=10000 the 60 wake about once in two ticks between them, and
 * each wake is a few thousand instructions of a tick's hundred
 * thousand: under run-qemu.sh -d, on one processor or two, the spinner
 * keeps 98 percent of its rounds.  A clock that readied every sleeper
 * at each one's time, to find its own not up and sleep again, left it
 * 88.
 *
 * With -g, greedy children instead (at most 1000 Hz): each sleeps a
 * tick and spins nine tenths of the next, again and again, so that it
 * is asleep at every tick, and the spinner should keep its part of the
 * processor with them, 1/(greedy+1).  A scheduler that ran whatever a
 * wakeup readied first left it 3 percent beside 3 of them.
 *
 * Prints the spinner's share, "ok sleepers-share" or "FAIL
 * sleepers-share: ...", then "sleepers: ok" and exits 0 if it spun at
 * least percent (default 95) of the rounds it spun alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/check.h"

enum {
	Maxsleepers	= 60,	/* and the default: NPROC is 64 */
	Chunk	= 1000,	/* spinloop's rounds between looks at the clock */
	Cal	= 100000,	/* the same, to time a tick's rounds: few looks, which cost */
};

static void
usage(void)
{
	fprintf(stderr, "usage: sleepers [-n sleepers] [-g greedy] [-t ticks] [-m percent]\n");
	exit(2);
}

/* Sleep a tick, then spin loops, for ever. */
static void
greedy(unsigned long loops)
{
	for(;;){
		sleep(1000 / hz);
		spinloop(loops);
	}
}

int
main(int argc, char *argv[])
{
	long n = Maxsleepers, g = 0, t = 2000, most = 95, i, r;
	unsigned long alone, beside, cal;
	int pids[Maxsleepers];

	for(i = 1; i < argc; i += 2){
		if(argv[i][0] != '-' || i + 1 >= argc || (r = parsenum(argv[i + 1])) < 0)
			usage();
		if(strcmp(argv[i], "-n") == 0 && r >= 1 && r <= Maxsleepers)
			n = r;
		else if(strcmp(argv[i], "-g") == 0 && r >= 1 && r <= Maxsleepers)
			n = g = r;
		else if(strcmp(argv[i], "-t") == 0 && r >= 1)
			t = r;
		else if(strcmp(argv[i], "-m") == 0 && r <= 100)
			most = r;
		else
			usage();
	}
	alone = spinticks(t, Chunk);
	if(g > 0 && hz > 1000)
		usage();
	cal = g > 0 ? spinticks(100, Cal) : 0;
	for(i = 0; i < n; i++){
		if((pids[i] = fork()) < 0)
			fatal("fork");
		if(pids[i] == 0 && g > 0)
			greedy(cal * Cal / 100 * 9 / 10);
		if(pids[i] == 0)
			for(;;)
				sleep(i + 1);
	}
	beside = spinticks(t, Chunk);
	for(i = 0; i < n; i++){
		kill(pids[i]);
		wait(NULL);
	}
	r = beside * 100 / alone;
	printf("sleepers: in %ld ticks, %lu rounds alone, %lu beside %ld %s (%ld%%)\n",
		t, alone, beside, n, g > 0 ? "greedy" : "sleepers", r);
	if(r < most)
		fail("sleepers-share", "%ld%% of the ticks, under %ld%%", r, most);
	else
		ok("sleepers-share");
	printf("sleepers: %s\n", nfail ? "failed" : "ok");
	return nfail != 0;
}
