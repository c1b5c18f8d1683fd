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
 *	bench -u N		the same, the loop called through five
 *				more frames: a user stack of 8 pcs for
 *				kprof to walk (work, deep 5 times, main,
 *				_start)
 *	bench -k N		the same for a loop of N rounds in the
 *				kernel: "a N" written to /dev/spinctl
 *				(bind -a '#S' /dev first)
 *	bench mem		memset and memmove of a 4 KB page
 *	bench kpdata		reading /dev/kpdata, per byte
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
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

/* work(n) called through d more frames of deep's own. */
static void __attribute__((noinline))
deep(int d, long n)
{
	if(d == 0)
		work(n);
	else
		deep(d - 1, n);
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench now | bench mem | bench kpdata | bench [-p|-s|-k|-u] rounds\n");
	exit(1);
}

static char page[3*4096] __attribute__((aligned(4096)));

/* Instructions of one call of f(d, s, n), less those of timing nothing. */
static unsigned long long
timemove(void *(*f)(void*, const void*, size_t), void *d, void *s)
{
	unsigned long long t0, t1, t2;

	t0 = rdtsc();
	t1 = rdtsc();
	f(d, s, 4096);
	t2 = rdtsc();
	return (t2 - t1) - (t1 - t0);
}

static void*
set(void *d, const void *s, size_t n)
{
	(void)s;
	return memset(d, 0x5A, n);
}

static void
printmove(char *what, unsigned long long n)
{
	printf("bench: %s of 4096 bytes: %llu instructions, %llu.%02llu bytes per instruction\n",
		what, n, 4096/n, 4096*100/n%100);
}

/* memset and memmove of a page: aligned, misaligned, and overlapping both ways. */
static void
benchmem(void)
{
	timemove(memmove, page, page + 4096);	/* touch the pages first */
	printmove("memset", timemove(set, page, NULL));
	printmove("memmove", timemove(memmove, page, page + 4096));
	printmove("memmove, source misaligned", timemove(memmove, page, page + 4097));
	printmove("memmove, overlap, forward", timemove(memmove, page, page + 1000));
	printmove("memmove, overlap, backward", timemove(memmove, page + 1000, page));
}

/* Reading all of /dev/kpdata less reading 4 bytes of it, per byte more. */
static int
benchkpdata(void)
{
	static char buf[256*1024];
	unsigned long long t0, t1, t2, t3;
	long n;
	int fd;

	if((fd = open("/dev/kpdata", O_RDONLY)) < 0){
		perror("bench: /dev/kpdata");
		return 1;
	}
	read(fd, buf, 4);
	t0 = rdtsc();
	read(fd, buf, 4);
	t1 = rdtsc();
	seek(fd, 0, 0);
	t2 = rdtsc();
	n = read(fd, buf, sizeof buf);
	t3 = rdtsc();
	close(fd);
	if(n <= 4){
		fprintf(stderr, "bench: /dev/kpdata: short read\n");
		return 1;
	}
	n -= 4;
	printf("bench: kpdata: %ld bytes more: %llu instructions more, %llu.%02llu instructions per byte\n",
		n, (t3 - t2) - (t1 - t0), ((t3 - t2) - (t1 - t0))/n, ((t3 - t2) - (t1 - t0))*100/n%100);
	return 0;
}

int
main(int argc, char *argv[])
{
	unsigned long long t0, t1;
	unsigned int hz, k0, k1;
	unsigned short *counts = NULL;
	uintptr_t *samples = NULL;
	long rounds, r;
	char *mode = "", msg[32];
	int fd = -1;

	if(argc == 2 && strcmp(argv[1], "now") == 0){
		printf("bench: %llu instructions since power-on\n", rdtsc());
		return 0;
	}
	if(argc == 2 && strcmp(argv[1], "mem") == 0){
		benchmem();
		return 0;
	}
	if(argc == 2 && strcmp(argv[1], "kpdata") == 0)
		return benchkpdata();
	if(argc == 3 && (strcmp(argv[1], "-p") == 0 || strcmp(argv[1], "-s") == 0
	|| strcmp(argv[1], "-k") == 0 || strcmp(argv[1], "-u") == 0)){
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
	if(strcmp(mode, "-k") == 0){
		if((fd = open("/dev/spinctl", O_WRONLY)) < 0){
			perror("bench: /dev/spinctl");
			return 1;
		}
		snprintf(msg, sizeof msg, "a %ld", rounds);
	}
	k0 = clockticks(&hz);
	t0 = rdtsc();
	if(fd >= 0)
		write(fd, msg, strlen(msg));
	else if(strcmp(mode, "-u") == 0)
		for(r = 0; r < rounds; r++)
			deep(4, 1000);
	else
		for(r = 0; r < rounds; r++)
			work(1000);
	t1 = rdtsc();
	k1 = clockticks(&hz);
	printf("bench%s: %ld rounds: %llu instructions, %u ticks at %u hz\n",
		mode, rounds, t1 - t0, k1 - k0, hz);
	return 0;
}
