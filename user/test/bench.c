/*
 * bench: measure in guest instructions.  Under QEMU's -icount shift=0
 * the time-stamp counter advances one per instruction executed, so
 * rdtsc counts the instructions of everything the processor did,
 * interrupt handlers included.
 *
 *	bench now		the counter: instructions since power-on
 *	bench [-p|-s] N		N rounds of a fixed loop; prints the
 *				instructions and clock ticks they took,
 *				with profil (-p) or pcsample (-s) on
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"

extern char etext[];

static unsigned long long
rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

/* The fixed workload: the same instructions every time. */
static void __attribute__((noinline))
work(long n)
{
	volatile long i;

	for(i = 0; i < n; i++)
		;
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench now | bench [-p|-s] rounds\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	unsigned long long t0, t1;
	unsigned int hz, k0, k1;
	unsigned short *counts = NULL;
	uintptr_t *samples = NULL;
	long rounds, r;
	char *mode = "";

	if(argc == 2 && strcmp(argv[1], "now") == 0){
		printf("bench: %llu instructions since power-on\n", rdtsc());
		return 0;
	}
	if(argc == 3 && (strcmp(argv[1], "-p") == 0 || strcmp(argv[1], "-s") == 0)){
		mode = argv[1];
		argc--;
		argv++;
	}
	if(argc != 2 || (rounds = parsenum(argv[1])) <= 0)
		usage();
	if(strcmp(mode, "-p") == 0){
		counts = calloc((unsigned long)etext / 2 + 1, sizeof counts[0]);
		if(counts == NULL || profil(counts, ((unsigned long)etext / 2 + 1) * 2, 0, 0x10000) < 0){
			perror("bench: profil");
			return 1;
		}
	}
	if(strcmp(mode, "-s") == 0){
		samples = malloc(100000 * sizeof samples[0]);
		if(samples == NULL || pcsample(samples, 100000) < 0){
			perror("bench: pcsample");
			return 1;
		}
	}
	k0 = clockticks(&hz);
	t0 = rdtsc();
	for(r = 0; r < rounds; r++)
		work(1000);
	t1 = rdtsc();
	k1 = clockticks(&hz);
	printf("bench%s: %ld rounds: %llu instructions, %u ticks at %u hz\n",
		mode, rounds, t1 - t0, k1 - k0, hz);
	return 0;
}
