/*
 * The test programs' verdicts: "ok NAME" for a check that passed,
 * "FAIL NAME: why" for one that did not (the suite looks for both),
 * failcall for a system call that failed, failcase for a check of the
 * case a program was asked to run, and fatal for a step without which
 * no check can go on.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "clock.h"
#include "check.h"

int	nfail;
const char	*testcase;
unsigned int	hz;

void
ok(const char *name)
{
	printf("ok %s\n", name);
}

void
fail(const char *name, const char *fmt, ...)
{
	va_list arg;

	printf("FAIL %s: ", name);
	va_start(arg, fmt);
	vfprintf(stdout, fmt, arg);
	va_end(arg);
	printf("\n");
	nfail++;
}

/*
 * A system call returned r where it should not have: "argv0: FAIL what
 * (returned r: its error string)", with the case first if one is set.
 */
void
failcall(const char *what, long r)
{
	char msg[ERRMAX];

	msg[0] = '\0';
	if(r == -1)
		errstr(msg, sizeof msg);
	if(testcase != NULL)
		printf("%s: %s: FAIL %s (returned %ld%s%s)\n", argv0, testcase, what, r, msg[0] ? ": " : "", msg);
	else
		printf("%s: FAIL %s (returned %ld%s%s)\n", argv0, what, r, msg[0] ? ": " : "", msg);
	nfail++;
}

/*
 * A check of the case testcase failed: "argv0: testcase: FAIL" and
 * fmt's message, which takes at most the two longs a and b.
 */
void
failcase(const char *fmt, long a, long b)
{
	printf("%s: %s: FAIL ", argv0, testcase);
	printf(fmt, a, b);
	printf("\n");
	nfail++;
}

/*
 * Whether pid, fork's return, is *next, the pid the test's other thread
 * waits to see made (failcall if not); *next then moves past it.
 */
int
forkednext(int pid, int *next)
{
	if(pid != *next){
		failcall("fork: pid not the next", pid);
		return 0;
	}
	*next = pid + 1;
	return 1;
}

/* Something the test needs failed, errno says what: give up. */
/*
 * The count a program was given as argument s: a decimal number
 * (parsenum), or else "argv0: s: not a count" and the usage line,
 * exit status 2.  atoi would take "1O" as 1 and "x" as 0, and run a
 * test other than the one asked for.
 */
long
argcount(const char *s, const char *usage)
{
	long n;

	if((n = parsenum(s)) < 0){
		fprintf(stderr, "%s: %s: not a count\nusage: %s\n", argv0, s, usage);
		exit(2);
	}
	return n;
}

void
fatal(const char *what)
{
	printf("FAIL %s: %s\n", what, strerror(errno));
	printf("%s: failed\n", argv0);
	exit(1);
}

/* The clock, in ticks; hz is set too.  No check can go on without it. */
unsigned long
now(void)
{
	unsigned long t;

	t = clockticks(&hz);
	if(hz == 0)
		fatal("/dev/time");
	return t;
}

/* The time-stamp counter: under run-qemu.sh -d, the instructions all the processors ran. */
unsigned long long
tsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

/*
 * Spin for n ticks of the clock, chunk rounds of spinloop between
 * looks at it; the looks made, so that a caller can weigh how much of
 * the processor it had.
 */
unsigned long
spinticks(unsigned long n, unsigned int chunk)
{
	unsigned long t0, looks = 0;

	t0 = now();
	while(now() - t0 < n){
		spinloop(chunk);
		looks++;
	}
	return looks;
}

/* The sum of profil's counters h[lo, hi). */
unsigned long
histsum(const unsigned short *h, unsigned long lo, unsigned long hi)
{
	unsigned long s;

	for(s = 0; lo < hi; lo++)
		s += h[lo];
	return s;
}

/* Is [p, p+n) all zero bytes? */
int
allzero(const void *p, unsigned long n)
{
	const unsigned char *s;

	for(s = p; n > 0; n--)
		if(*s++ != 0)
			return 0;
	return 1;
}

asm(
	".text\n"
	".p2align 4\n"
	".globl spinloop\n"
	".type spinloop, @function\n"
	"spinloop:\n"
	"	movl 4(%esp), %ecx\n"
	"1:	decl %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl spinend\n"
	"spinend:\n"
);

/* Start a thread running fn(arg), which then exits 0; its pid. */
int
thread(void (*fn)(int), int arg)
{
	int pid;

	if((pid = rfork(RFPROC|RFMEM)) < 0)
		fatal("rfork");
	if(pid == 0){
		fn(arg);
		_exit(0);
	}
	return pid;
}

/* Wait for n children; how many exited with a status other than 0. */
int
waitn(int n)
{
	int bad, status;

	for(bad = 0; n > 0; n--){
		if(wait(&status) < 0)
			fatal("wait");
		bad += status != 0;
	}
	return bad;
}

volatile int	tickstop;	/* the tickers are to stop */
volatile int	tickstarted;	/* threads that have begun, of startn's */

/*
 * A thread body for the profilers' attacks: tick until tickstop, in
 * user mode and in system calls, or (odd i) nearly all in system
 * calls, whose ticks are counted on the way back from the call.
 */
void
ticker(int i)
{
	__atomic_add_fetch(&tickstarted, 1, __ATOMIC_SEQ_CST);
	while(!tickstop){
		if((i & 1) == 0)
			spinloop(1<<12);
		getpid();
	}
}

/* Start n threads of fn (fn(0) to fn(n-1)), each adding to tickstarted as it begins, and wait until all run. */
void
startn(void (*fn)(int), int n)
{
	int i;

	tickstop = 0;
	tickstarted = 0;
	for(i = 0; i < n; i++)
		thread(fn, i);
	while(tickstarted < n)
		getpid();
}

/* The heap up to a multiple of align, then n more bytes: where they start. */
char*
heapat(unsigned long align, long n)
{
	char *p;

	p = sbrk(0);
	if(sbrk((align - (unsigned long)p % align) % align) == (void*)-1 || (p = sbrk(n)) == (void*)-1)
		fatal("sbrk");
	return p;
}
