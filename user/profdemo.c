/*
 * profdemo: a program whose profile is known, to try the profilers on.
 *
 *	profdemo [-s | -p] [-t threads] [seconds]
 *
 * spin3 and spin1 run the same loop, spin3 three times as many rounds
 * of it.  main calls them in turn, a small chunk of work each, so that
 * at any moment about three quarters of the time so far has gone to
 * spin3 and one quarter to spin1.  It stops after the given seconds
 * (default 2) on the clock of /dev/time.  So
 *
 *	profdemo.prof 2; prof /bin/profdemo.prof
 *
 * shows spin3 at about 75% and spin1 at about 25%.  With -t the work is
 * done by that many threads (rfork(RFPROC|RFMEM)), each calling spin3
 * and spin1 in turn, on every processor there is, while main waits for
 * them: the profile, counted by all of them into the one buffer, is the
 * same 3 to 1.
 *
 * With -s it samples its own pc with pcsample(2) as it runs, with -p it
 * counts it with profil(2) (a counter for each 2 bytes of text), and
 * prints the profile itself, in prof's layout, from the symbols of
 * /bin/profdemo.  -p also prints the ticks counted and the ticks its
 * threads ran with profiling on (#c/proctime): the two are equal when
 * no tick is lost.  (One at a time: with both on, the ticks with
 * profiling on would count pcsample's too.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"
#include "elfsym.h"
#include "lock.h"

enum {
	DEFSECS	= 2,		/* seconds to run without an argument */
	CHUNK	= 1000,		/* rounds of spin1's loop in a call */
	NPAIR	= 64,		/* calls of each between looks at the clock */
	MAXTHREADS	= 32,	/* -t at most */
	UTEXT	= 0x1000,	/* where text starts (user/user.ld) */
};

extern char	etext[];
static volatile unsigned int	sink;	/* what the loops add to, so they are not optimized away */
static Lock	callslk;	/* calls */
static unsigned long	calls;	/* of each of spin3 and spin1, by all threads */
static volatile int	stop;	/* the time is up: set by the first thread */

static void
usage(void)
{
	fprintf(stderr, "usage: profdemo [-s | -p] [-t threads] [seconds]\n");
	exit(1);
}

static __attribute__((noinline)) void
spin3(int n)
{
	int i;

	for(i = 0; i < 3*n; i++)
		sink += i;
}

static __attribute__((noinline)) void
spin1(int n)
{
	int i;

	for(i = 0; i < n; i++)
		sink += i;
}

/*
 * Call spin3 and spin1 in turn until secs seconds from start have
 * passed; count the calls.  Each pair's chunk is CHUNK/2 to 3*CHUNK/2
 * rounds, drawn from a generator of the thread's own (seed): a fixed
 * chunk, with the clock's fixed period, can have every tick of a
 * deterministic run land at the same few places in the loops, where
 * the drawn ones spread them out.  Either way spin3 runs three times
 * the rounds of spin1.  Only the first thread (seed 1) reads the
 * clock, and tells the others to stop: the threads make no system
 * calls that could wait for each other in the kernel.  Inline, so that
 * in profdemo.prof's call graph main calls spin3 and spin1.
 */
static inline __attribute__((always_inline)) void
work(unsigned int start, long secs, unsigned int seed)
{
	unsigned int hz, r;
	unsigned long n;
	int i;

	n = 0;
	r = seed;
	for(;;){
		if(seed == 1 && clockticks(&hz) - start >= secs*hz)
			stop = 1;
		if(stop)
			break;
		for(i = 0; i < NPAIR; i++){
			r = r*1103515245 + 12345;
			spin3(CHUNK/2 + (r >> 16) % CHUNK);
			spin1(CHUNK/2 + (r >> 16) % CHUNK);
		}
		n += NPAIR;
	}
	lock(&callslk);
	calls += n;
	unlock(&callslk);
}

/* The ticks this process's threads have run with a profiler on, from #c/proctime. */
static unsigned long
profiled(void)
{
	unsigned long ticks, prof;

	if(proctime(&ticks, &prof) < 0)
		fatal("can't read /dev/proctime");
	return prof;
}

/* Credit the samples to the functions of this program, and print them as prof would. */
static void
report(uintptr_t *samples, long n, unsigned int hz)
{
	Symtab t;
	const char *err;
	long i;

	if((err = symload(&t, "/bin/profdemo")) != NULL)
		fatal("%s", err);
	for(i = 0; i < n; i++)
		symcredit(&t, samples[i], 1);
	printf("pcsample: %ld samples\n", n);
	symprint(&t, n, hz);
	symfree(&t);
}

/* Credit profil's counters, one for each 2 bytes of text from UTEXT, as report does samples. */
static void
histreport(unsigned short *hist, long n, unsigned int hz, unsigned long profticks)
{
	Symtab t;
	const char *err;
	unsigned long total;
	long i;

	if((err = symload(&t, "/bin/profdemo")) != NULL)
		fatal("%s", err);
	total = 0;
	for(i = 0; i < n; i++){
		symcredit(&t, UTEXT + 2*i, hist[i]);
		total += hist[i];
	}
	printf("profil: %lu ticks counted, %lu ticks profiled\n", total, profticks);
	symprint(&t, total, hz);
	symfree(&t);
}

int
main(int argc, char *argv[])
{
	unsigned int start, hz;
	uintptr_t *samples = NULL;
	unsigned short *hist = NULL;
	unsigned long prof0 = 0;
	long secs, nsamples = 0, nhist = 0, nthreads = 0;
	int i, pid, sample = 0, count = 0;

	argv0 = "profdemo";
	for(argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++){
		if(strcmp(argv[0], "-s") == 0)
			sample = 1;
		else if(strcmp(argv[0], "-p") == 0)
			count = 1;
		else if(strcmp(argv[0], "-t") == 0 && argc > 1){
			nthreads = parsenum(argv[1]);
			if(nthreads < 1 || nthreads > MAXTHREADS)
				usage();
			argc--;
			argv++;
		}else
			usage();
	}
	secs = DEFSECS;
	if(argc > 1 || (sample && count))
		usage();
	if(argc == 1){
		if((secs = parsenum(argv[0])) < 0)
			usage();
	}
	start = clockticks(&hz);
	if(hz == 0)
		fatal("can't read /dev/time");
	if(sample){
		nsamples = (secs + 1) * hz * (nthreads > 0 ? nthreads : 1);
		if((samples = malloc(nsamples * sizeof samples[0])) == NULL)
			fatal("out of memory");
		pcsample(samples, nsamples);
	}
	if(count){
		nhist = ((uintptr_t)etext - UTEXT + 1) / 2;
		if((hist = calloc(nhist, sizeof hist[0])) == NULL)
			fatal("out of memory");
		prof0 = profiled();
		if(profil(hist, nhist * sizeof hist[0], UTEXT, 0x10000) < 0)
			fatal("profil failed");
	}
	if(nthreads == 0)
		work(start, secs, 1);
	else{
		fflush(stdout);
		for(i = 0; i < nthreads; i++){
			pid = rfork(RFPROC|RFMEM);
			if(pid < 0)
				fatal("rfork failed");
			if(pid == 0){
				work(start, secs, i + 1);
				_exit(0);
			}
		}
		while(wait(NULL) > 0)
			;
	}
	if(count)
		profil(NULL, 0, 0, 0);
	if(nthreads > 0)
		printf("profdemo: %lu calls each of spin3 and spin1 in %ld s by %ld threads\n",
			calls, secs, nthreads);
	else
		printf("profdemo: %lu calls each of spin3 and spin1 in %ld s\n", calls, secs);
	if(sample)
		report(samples, pcsample(NULL, 0), hz);
	if(count)
		histreport(hist, nhist, hz, profiled() - prof0);
	return 0;
}
