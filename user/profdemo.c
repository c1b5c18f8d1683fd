/*
 * profdemo: a program whose profile is known, to try the profilers on.
 *
 *	profdemo [-s] [seconds]
 *
 * spin3 and spin1 run the same loop, spin3 three times as many rounds
 * of it.  main calls them in turn, a small chunk of work each, so that
 * at any moment about three quarters of the time so far has gone to
 * spin3 and one quarter to spin1.  It stops after the given seconds
 * (default 2) on the clock of /dev/time.  So
 *
 *	profdemo.prof 2; prof /bin/profdemo.prof
 *
 * shows spin3 at about 75% and spin1 at about 25%.  With -s it samples
 * its own pc with pcsample(2) as it runs and prints the samples' profile
 * itself, in prof's layout, from the symbols of /bin/profdemo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"
#include "elfsym.h"

enum {
	DEFSECS	= 2,		/* seconds to run without an argument */
	CHUNK	= 1000,		/* rounds of spin1's loop in a call */
	NPAIR	= 64,		/* calls of each between looks at the clock */
};

static volatile unsigned int	sink;	/* what the loops add to, so they are not optimized away */

static void
usage(void)
{
	fprintf(stderr, "usage: profdemo [-s] [seconds]\n");
	exit(1);
}

static __attribute__((noinline)) void
spin3(void)
{
	int i;

	for(i = 0; i < 3*CHUNK; i++)
		sink += i;
}

static __attribute__((noinline)) void
spin1(void)
{
	int i;

	for(i = 0; i < CHUNK; i++)
		sink += i;
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

int
main(int argc, char *argv[])
{
	unsigned int start, hz;
	unsigned long calls;
	uintptr_t *samples = NULL;
	long secs, nsamples = 0;
	int i, sample = 0;

	argv0 = "profdemo";
	if(argc > 1 && strcmp(argv[1], "-s") == 0){
		sample = 1;
		argc--;
		argv++;
	}
	secs = DEFSECS;
	if(argc > 2)
		usage();
	if(argc == 2){
		if((secs = parsenum(argv[1])) < 0)
			usage();
	}
	start = clockticks(&hz);
	if(hz == 0)
		fatal("can't read /dev/time");
	if(sample){
		nsamples = (secs + 1) * hz;
		if((samples = malloc(nsamples * sizeof samples[0])) == NULL)
			fatal("out of memory");
		pcsample(samples, nsamples);
	}
	calls = 0;
	while(clockticks(&hz) - start < secs*hz){
		for(i = 0; i < NPAIR; i++){
			spin3();
			spin1();
		}
		calls += NPAIR;
	}
	printf("profdemo: %lu calls each of spin3 and spin1 in %ld s\n", calls, secs);
	if(sample)
		report(samples, pcsample(NULL, 0), hz);
	return 0;
}
