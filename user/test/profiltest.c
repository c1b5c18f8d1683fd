/*
 * profiltest: check profil(2) and pcsample(2) against the rules their
 * man pages give.
 *
 *	profiltest [-t ticks]
 *
 * Each check spins in spinloop, a function whose text is known to the
 * byte, for some ticks of the clock of /dev/time (20, or those of -t,
 * 10 or more), and looks at where the ticks went.  Prints "ok NAME" or
 * "FAIL NAME: why" for each check, then "profiltest: ok" and exits 0 if
 * all passed.
 *
 * The exec checks run `profiltest -exec-child TICKS' in a child that
 * has both profilers on: the new image is the same program, so its bss
 * arrays hist and samples are where the old image's were, and stay zero
 * only if exec turned the profilers off.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"
#include "lib/check.h"

enum {
	UTEXT	= 0x1000,	/* where user text starts (user/user.ld) */
	PGSIZE	= 4096,
	NHIST	= 32768,	/* counters in hist: 64 KB of text at 2 bytes each */
	NSAMP	= 8192,		/* room in samples */
	SLACK	= 8,		/* counters past the end of text, which must stay 0 */
	CHUNK	= 1<<20,	/* rounds of spinloop between looks at the clock */
};

extern char	etext[];

static unsigned short	hist[NHIST];	/* profil's counters */
static uintptr_t	samples[NSAMP];	/* pcsample's samples */
static unsigned long	T = 20;	/* ticks each check spins for (-t) */
static unsigned long	slack;	/* ticks a system call or two may take */

/*
 * Spin in spinloop for n ticks; returns the ticks that passed.  The
 * rounds between looks at the clock vary, from CHUNK/2 to 3*CHUNK/2:
 * under -d a loop of fixed length can lock its phase to the clock's,
 * and its few ticks then land in the clock reads again and again.
 */
static unsigned long
spin(unsigned long n)
{
	static unsigned int seed = 1;
	unsigned long t0, t;

	t0 = now();
	while((t = now()) - t0 < n){
		seed = seed*1103515245 + 12345;
		spinloop(CHUNK/2 + (seed >> 8) % CHUNK);
	}
	return t - t0;
}

/* The counter for pc, by profil(2)'s formula; pc >= off. */
static unsigned long
idx(uintptr_t pc, uintptr_t off, unsigned int scale)
{
	return ((unsigned long long)(pc - off) * scale) >> 17;
}

/* How many of samples[lo, hi) are not 0. */
static long
nonzero(long lo, long hi)
{
	long n;

	for(n = 0; lo < hi; lo++)
		n += samples[lo] != 0;
	return n;
}

static void
profoff(void)
{
	profil(NULL, 0, 0, 0);
}

/* Counters that cover all of text at scale, with SLACK more. */
static unsigned long
ncounters(unsigned int scale)
{
	return idx((uintptr_t)etext - 1, UTEXT, scale) + 1 + SLACK;
}

/*
 * Count the text from UTEXT at scale while spinning: spinloop's ticks
 * must be in the counters that cover it, and the loop around it (the
 * clock reads) may take only a few elsewhere.
 */
static void
testscale(unsigned int scale)
{
	char name[32];
	unsigned long n, lo, hi, el, in, all;

	snprintf(name, sizeof name, "scale-%#x", scale);
	n = ncounters(scale);
	memset(hist, 0, sizeof hist);
	if(profil(hist, 2*n, UTEXT, scale) < 0){
		fail(name, "profil: %s", strerror(errno));
		return;
	}
	el = spin(T);
	profoff();
	lo = idx((uintptr_t)spinloop, UTEXT, scale);
	hi = idx((uintptr_t)spinend - 1, UTEXT, scale) + 1;
	in = histsum(hist, lo, hi);
	all = histsum(hist, 0, NHIST);
	if(histsum(hist, n - SLACK, NHIST) != 0)
		fail(name, "%lu ticks past the end of text", histsum(hist, n - SLACK, NHIST));
	else if(in < el/2)
		fail(name, "%lu of %lu ticks in counters %lu-%lu", in, el, lo, hi-1);
	else if(in > el + slack)
		fail(name, "%lu ticks counted in %lu", in, el);
	else if(all - in > 2 + in/20)
		fail(name, "%lu ticks in counters %lu-%lu, %lu elsewhere", in, lo, hi-1, all - in);
	else
		ok(name);
}

/*
 * The clock's ticks, by the time-stamp counter at each change of
 * /dev/time's count, NPHASE of them: on a fixed grid, every interval
 * within a fifth of the mean, with profil off and on alike.  profil's
 * samples are the NMI clock's, at random phases (kern/prof.c); the
 * ticks, which schedule, stay on the grid (kern/clock.c).
 * The first ticks after a change are left out.  Under -d, where the
 * counter counts instructions, 10^9 a second, and no host stops the
 * guest between the reads; and at hz=1000 or less: at 10000 a look at
 * /dev/time is a fifth of a tick.
 */
enum { NPHASE = 32, NSETTLE = 3 };

static void
phases(unsigned long long *mean, unsigned long long *lo, unsigned long long *hi)
{
	unsigned long long t[NPHASE+1], d;
	unsigned long k;
	int i;

	for(i = 0; i < NSETTLE; i++){
		k = now();
		while(now() == k)
			;
	}
	for(i = 0; i <= NPHASE; i++){
		t[i] = tsc();
		k = now();
		while(now() == k)
			;
	}
	*lo = ~0ULL;
	*hi = 0;
	for(i = 0; i < NPHASE; i++){
		d = t[i+1] - t[i];
		*lo = d < *lo ? d : *lo;
		*hi = d > *hi ? d : *hi;
	}
	*mean = (t[NPHASE] - t[0]) / NPHASE;
}

static void
testphase(void)
{
	unsigned long long grid, mean, lo, hi;

	grid = 1000000000ULL / hz;
	phases(&mean, &lo, &hi);
	if(lo < grid - grid/5 || hi > grid + grid/5)
		fail("phase-fixed", "intervals %llu to %llu, of a grid of %llu", lo, hi, grid);
	else
		ok("phase-fixed");
	memset(hist, 0, sizeof hist);
	if(profil(hist, 2*ncounters(0x10000), UTEXT, 0x10000) < 0){
		fail("phase-fixed-profil", "profil: %s", strerror(errno));
		return;
	}
	phases(&mean, &lo, &hi);
	profoff();
	if(lo < grid - grid/5 || hi > grid + grid/5)
		fail("phase-fixed-profil", "intervals %llu to %llu, of a grid of %llu", lo, hi, grid);
	else
		ok("phase-fixed-profil");
}

/*
 * Profiling on, then a second call that should count nothing; clear
 * the counters, spin, and check that nothing was counted.
 */
static void
testnocount(const char *name, unsigned short *buf, size_t size, size_t off, unsigned int scale)
{
	unsigned long n;

	n = ncounters(0x10000);
	if(profil(hist, 2*n, UTEXT, 0x10000) < 0 || profil(buf, size, off, scale) < 0){
		fail(name, "profil: %s", strerror(errno));
		profoff();
		return;
	}
	memset(hist, 0, sizeof hist);
	spin(T);
	profoff();
	if(histsum(hist, 0, NHIST) != 0)
		fail(name, "%lu ticks counted", histsum(hist, 0, NHIST));
	else
		ok(name);
}

/* A call that must fail with errno err. */
static void
testerr(const char *name, int r, int err)
{
	if(r != -1)
		fail(name, "returned %d, not -1", r);
	else if(errno != err)
		fail(name, "errno %d, not %d", errno, err);
	else
		ok(name);
	profoff();
}

/* A buffer too small for spinloop's counter: nothing counts beyond it. */
static void
testbound(void)
{
	unsigned long lo;

	lo = idx((uintptr_t)spinloop, UTEXT, 0x10000);
	memset(hist, 0, sizeof hist);
	if(profil(hist, 2*lo, UTEXT, 0x10000) < 0){
		fail("bufsiz-bound", "profil: %s", strerror(errno));
		return;
	}
	spin(T);
	profoff();
	if(histsum(hist, lo, NHIST) != 0)
		fail("bufsiz-bound", "%lu ticks at or past counter %lu", histsum(hist, lo, NHIST), lo);
	else if(histsum(hist, 0, lo) > 2 + T/20)
		fail("bufsiz-bound", "%lu ticks below spinloop", histsum(hist, 0, lo));
	else
		ok("bufsiz-bound");
}

/* A second call replaces the first's settings and does not clear. */
static void
testreplace(void)
{
	unsigned long n, c1, c2, c3;

	n = ncounters(0x4000);
	memset(hist, 0, sizeof hist);
	profil(hist, 2*n, UTEXT, 0x4000);
	spin(T/2);
	c1 = histsum(hist, 0, n);
	profil(hist, 2*n, UTEXT, 0x4000);
	c2 = histsum(hist, 0, n);
	spin(T/2);
	profil(hist + NHIST/2, 2*n, UTEXT, 0x4000);
	c3 = histsum(hist, 0, n);
	spin(T/2);
	profoff();
	if(c1 == 0 || c2 < c1)
		fail("replace", "%lu ticks before the second call, %lu after", c1, c2);
	else if(c3 <= c2)
		fail("replace", "no ticks after the second call");
	else if(histsum(hist, 0, n) != c3)
		fail("replace", "old buffer counted after a third call with a new one");
	else if(histsum(hist, NHIST/2, NHIST/2 + n) == 0)
		fail("replace", "new buffer counted nothing");
	else
		ok("replace");
}

/* Counters stop at 65535. */
static void
testsaturate(void)
{
	unsigned long n, c;

	n = ncounters(0x4000);
	c = idx((uintptr_t)spinloop, UTEXT, 0x4000);
	if(idx((uintptr_t)spinend - 1, UTEXT, 0x4000) != c){
		fail("saturate", "spinloop is not in one counter");
		return;
	}
	memset(hist, 0, sizeof hist);
	hist[c] = 65530;
	profil(hist, 2*n, UTEXT, 0x4000);
	spin(T < 30 ? 30 : T);
	profoff();
	if(hist[c] != 65535)
		fail("saturate", "counter is %u, not 65535", hist[c]);
	else
		ok("saturate");
}

/*
 * fork: both count, each into its own copy.  The child reports through
 * a pipe what it counted; the parent, blocked in wait meanwhile, must
 * not see the child's ticks, and counts its own afterwards.
 */
static void
testfork(void)
{
	unsigned long n, c0, p0, p1, p2;
	int fd[2], pid, status;

	n = ncounters(0x4000);
	if(pipe(fd) < 0)
		fatal("pipe");
	memset(hist, 0, sizeof hist);
	profil(hist, 2*n, UTEXT, 0x4000);
	fflush(stdout);
	pid = fork();
	if(pid < 0)
		fatal("fork");
	if(pid == 0){
		c0 = histsum(hist, 0, n);
		spin(T);
		c0 = histsum(hist, 0, n) - c0;
		write(fd[1], &c0, sizeof c0);
		_exit(0);
	}
	p0 = histsum(hist, 0, n);
	wait(&status);
	p1 = histsum(hist, 0, n);
	c0 = 0;
	read(fd[0], &c0, sizeof c0);
	close(fd[0]);
	close(fd[1]);
	spin(T);
	p2 = histsum(hist, 0, n);
	profoff();
	if(c0 < T/2)
		fail("fork-profil", "child counted %lu ticks in %lu", c0, T);
	else if(p1 - p0 > slack)
		fail("fork-profil", "parent's counters grew by %lu while the child ran", p1 - p0);
	else if(p2 - p1 < T/2)
		fail("fork-profil", "parent counted %lu ticks in %lu after fork", p2 - p1, T);
	else
		ok("fork-profil");
}

/*
 * exec: a child turns both profilers on and execs `profiltest
 * -exec-child', which checks they are off.  Its exit status is the
 * number of its checks that failed.
 */
static void
testexec(void)
{
	char ticks[16], *argv[] = { "profiltest", "-exec-child", ticks, NULL };
	int pid, status;

	snprintf(ticks, sizeof ticks, "%lu", T);
	fflush(stdout);
	pid = fork();
	if(pid < 0)
		fatal("fork");
	if(pid == 0){
		memset(hist, 0, sizeof hist);
		memset(samples, 0, sizeof samples);
		profil(hist, sizeof hist, UTEXT, 0x4000);
		pcsample(samples, NSAMP);
		spin(2);
		exec("/bin/profiltest", argv);
		printf("FAIL exec: /bin/profiltest: %s\n", strerror(errno));
		exit(1);
	}
	if(wait(&status) != pid)
		fatal("wait");
	nfail += status;
}

/* The exec'd side of testexec. */
static int
execchild(void)
{
	long r;

	spin(T);
	if(!allzero(hist, sizeof hist))
		fail("exec-profil", "%lu ticks counted after exec", histsum(hist, 0, NHIST));
	else
		ok("exec-profil");
	if(!allzero(samples, sizeof samples))
		fail("exec-pcsample", "%ld samples stored after exec", nonzero(0, NSAMP));
	else
		ok("exec-pcsample");
	r = pcsample(samples, 0);
	if(r != 0)
		fail("exec-pcsample-first", "first call after exec returned %ld", r);
	else
		ok("exec-pcsample-first");
	return nfail;
}

/*
 * Two pages of heap at a page boundary, for a buffer to take away
 * with sbrk; if table, at the start of the 4 MB of a page table of
 * their own, so that the table goes with them and the kernel's look
 * at the counter's page table entry faults.
 */
static char*
heappages(int table)
{
	uintptr_t align = table ? 4*1024*1024 : PGSIZE;
	char *p;

	p = sbrk(0);
	if(sbrk((align - (uintptr_t)p % align) % align) == (void*)-1
	|| (p = sbrk(2*PGSIZE)) == (void*)-1)
		fatal("sbrk");
	return p;
}

/*
 * Take the heap pages at p away and spin (the process goes on), give
 * them back (zeroed), spin again: they must stay zero, the profiler
 * having been turned off.  Returns NULL, or a complaint.
 */
static const char*
takeaway(char *p)
{
	if(sbrk(-2*PGSIZE) == (void*)-1)
		fatal("sbrk");
	spin(T);
	if(sbrk(2*PGSIZE) != p)
		fatal("sbrk");
	if(!allzero(p, 2*PGSIZE))
		return "pages not zero when the heap grew again";
	spin(T);
	if(!allzero(p, 2*PGSIZE))
		return "still on after the fault";
	return NULL;
}

/* The fault rule for profil: counters in heap that sbrk takes away. */
static void
testproffault(const char *name, int table)
{
	unsigned short *buf;
	const char *why;

	buf = (unsigned short*)heappages(table);
	if(profil(buf, 2*PGSIZE, (uintptr_t)spinloop, 0x4000) < 0){
		fail(name, "profil: %s", strerror(errno));
		return;
	}
	spin(T/4 + 1);
	if(buf[0] == 0)
		fail(name, "no ticks in the heap buffer");
	else if((why = takeaway((char*)buf)) != NULL)
		fail(name, "%s", why);
	else
		ok(name);
	profoff();
	sbrk(-2*PGSIZE);
}

/* The fault rule for pcsample: samples in heap that sbrk takes away. */
static void
testpcsfault(const char *name, int table)
{
	uintptr_t *buf;
	const char *why;
	unsigned long el;
	long r, n;

	buf = (uintptr_t*)heappages(table);
	if(pcsample(buf, 2*PGSIZE/sizeof buf[0]) < 0){
		fail(name, "pcsample: %s", strerror(errno));
		return;
	}
	el = spin(T/4 + 1);
	n = 0;
	while(n < 2*PGSIZE/(long)sizeof buf[0] && buf[n] != 0)
		n++;
	why = takeaway((char*)buf);
	r = pcsample(NULL, 0);
	if(n == 0)
		fail(name, "no samples in the heap buffer");
	else if(why != NULL)
		fail(name, "%s", why);
	else if(r < n || r > (long)(el + slack))
		fail(name, "%ld samples stored, %ld before the fault", r, n);
	else
		ok(name);
	sbrk(-2*PGSIZE);
}

/* Basic pcsample: the first call, the count, where the samples are. */
static void
testpcsample(void)
{
	unsigned long el;
	long r, i, in;

	memset(samples, 0, sizeof samples);
	r = pcsample(samples, NSAMP);
	if(r != 0)
		fail("pcsample-first", "first call returned %ld", r);
	else
		ok("pcsample-first");
	el = spin(T);
	r = pcsample(samples, 0);
	if(r != nonzero(0, NSAMP))
		fail("pcsample-count", "returned %ld, %ld samples stored", r, nonzero(0, NSAMP));
	else if(r < (long)el/2 || r > (long)(el + slack))
		fail("pcsample-count", "%ld samples in %lu ticks", r, el);
	else
		ok("pcsample-count");
	in = 0;
	for(i = 0; i < r; i++){
		if(samples[i] < UTEXT || samples[i] >= (uintptr_t)etext){
			fail("pcsample-text", "sample %ld is %#x, not in text %#x-%#x",
				i, samples[i], UTEXT, (uintptr_t)etext);
			break;
		}
		in += samples[i] >= (uintptr_t)spinloop && samples[i] < (uintptr_t)spinend;
	}
	if(i == r){
		if(in < r - 2 - r/20)
			fail("pcsample-text", "%ld of %ld samples in spinloop", in, r);
		else
			ok("pcsample-text");
	}

	spin(T);
	if(nonzero(r, NSAMP) != 0)
		fail("pcsample-stop", "%ld samples stored after nsamples 0", nonzero(r, NSAMP));
	else if((i = pcsample(samples, 0)) != 0)
		fail("pcsample-stop", "call after nsamples 0 returned %ld", i);
	else
		ok("pcsample-stop");

	memset(samples, 0, sizeof samples);
	pcsample(samples, 10);
	spin(T < 30 ? 30 : T);
	r = pcsample(samples, 0);
	if(r != 10)
		fail("pcsample-full", "returned %ld, not 10", r);
	else if(nonzero(0, 10) != 10 || nonzero(10, NSAMP) != 0)
		fail("pcsample-full", "%ld samples stored", nonzero(0, NSAMP));
	else
		ok("pcsample-full");
}

/*
 * fork: sampling goes on in both, the child from the parent's place in
 * its own copy.  The child checks its side and exits with 0 or 1.
 */
static void
testpcsfork(void)
{
	unsigned long el;
	long s0, r;
	int pid, status;

	memset(samples, 0, sizeof samples);
	pcsample(samples, NSAMP);
	spin(T/4 + 1);
	s0 = nonzero(0, NSAMP);
	fflush(stdout);
	pid = fork();
	if(pid < 0)
		fatal("fork");
	if(pid == 0){
		el = spin(T);
		r = pcsample(samples, 0);
		if(r >= s0 + (long)el/2 && r == nonzero(0, NSAMP)){
			ok("fork-pcsample-child");
			exit(0);
		}
		fail("fork-pcsample-child", "%ld samples, %ld before fork, %lu ticks since",
			r, s0, el);
		exit(1);
	}
	wait(&status);
	nfail += status;
	el = spin(T);
	r = pcsample(samples, 0);
	if(r != nonzero(0, NSAMP))
		fail("fork-pcsample", "returned %ld, %ld stored", r, nonzero(0, NSAMP));
	else if(r < s0 + (long)el/2)
		fail("fork-pcsample", "%ld samples, %ld before fork, %lu ticks since", r, s0, el);
	else if(r > s0 + (long)(el + T/2))
		fail("fork-pcsample", "%ld samples: the child's were stored in the parent", r);
	else
		ok("fork-pcsample");
}

/* Both profilers at once see the same ticks; each goes on without the other. */
static void
testboth(void)
{
	unsigned long n, i, c0, extra;
	long r;

	n = ncounters(0x10000);
	memset(hist, 0, sizeof hist);
	memset(samples, 0, sizeof samples);
	pcsample(samples, NSAMP);
	profil(hist, 2*n, UTEXT, 0x10000);
	spin(T);
	profoff();
	r = pcsample(samples, 0);
	extra = 0;
	for(i = 0; i < (unsigned long)r; i++){
		c0 = idx(samples[i], UTEXT, 0x10000);
		if(samples[i] >= UTEXT && c0 < n && hist[c0] > 0)
			hist[c0]--;
		else
			extra++;
	}
	if(r < (long)T/2 || histsum(hist, 0, NHIST) != 0 || extra > slack)
		fail("both", "%ld samples; %lu ticks counted but not sampled, %lu sampled not counted",
			r, histsum(hist, 0, NHIST), extra);
	else
		ok("both");

	memset(hist, 0, sizeof hist);
	profil(hist, 2*n, UTEXT, 0x10000);
	pcsample(samples, NSAMP);
	spin(T/2);
	pcsample(samples, 0);
	c0 = histsum(hist, 0, NHIST);
	spin(T);
	if(histsum(hist, 0, NHIST) - c0 < T/2)
		fail("both-pcsample-off", "profil counted %lu ticks in %lu", histsum(hist, 0, NHIST) - c0, T);
	else
		ok("both-pcsample-off");

	pcsample(samples, NSAMP);
	profoff();
	c0 = histsum(hist, 0, NHIST);
	spin(T);
	r = pcsample(samples, 0);
	if(r < (long)T/2 || histsum(hist, 0, NHIST) != c0)
		fail("both-profil-off", "%ld samples in %lu ticks, %lu counted", r, T, histsum(hist, 0, NHIST) - c0);
	else
		ok("both-profil-off");
}

int
main(int argc, char *argv[])
{
	long t = T;
	int child;

	now();
	child = argc == 3 && strcmp(argv[1], "-exec-child") == 0;
	if(argc == 3 && !child && strcmp(argv[1], "-t") != 0)
		argc = 0;
	if(argc == 3)
		t = parsenum(argv[2]);
	if((argc != 1 && argc != 3) || t < 10){
		fprintf(stderr, "usage: profiltest [-t ticks]\n");
		return 1;
	}
	T = t;
	slack = 3 + T/50;
	if(child)
		return execchild();
	if(ncounters(0x10000) > NHIST)
		fatal("text too big for hist");

	testscale(0x10000);
	testscale(0xffff);
	testscale(0x8000);
	testscale(0x4000);
	testscale(0x0002);
	testnocount("scale-0", hist, 2*ncounters(0x10000), UTEXT, 0);
	testnocount("scale-1", hist, 2*ncounters(0x10000), UTEXT, 1);
	testnocount("buf-nil", NULL, 2*ncounters(0x10000), UTEXT, 0x10000);
	testnocount("bufsiz-0", hist, 0, UTEXT, 0x10000);
	testnocount("below-offset", hist, 2*ncounters(0x10000), (uintptr_t)etext, 0x10000);
	testbound();
	testreplace();
	testsaturate();
	if(hz <= 1000)
		testphase();

	testerr("scale-0x10001", profil(hist, sizeof hist, UTEXT, 0x10001), EINVAL);
	testerr("odd-buf", profil((unsigned short*)((char*)hist + 1), 64, UTEXT, 0x10000), EINVAL);
	testerr("kernel-buf", profil((unsigned short*)0xC0000000, 64, UTEXT, 0x10000), EFAULT);
	testerr("straddle-buf", profil((unsigned short*)0xBFFFFFF0, 32, UTEXT, 0x10000), EFAULT);
	testerr("unmapped-buf", profil((unsigned short*)0x80000000, 64, UTEXT, 0x10000), EFAULT);
	testerr("text-buf", profil((unsigned short*)UTEXT, 64, UTEXT, 0x10000), EFAULT);
	testerr("huge-bufsiz", profil(hist, 0x7FFFFFFE, UTEXT, 0x10000), EFAULT);

	testfork();
	testproffault("fault-profil", 0);
	testproffault("fault-profil-table", 1);

	testpcsample();
	testerr("pcsample-negative", pcsample(samples, -1), EINVAL);
	testerr("pcsample-kernel-buf", pcsample((uintptr_t*)0xC0000000, 16), EFAULT);
	testerr("pcsample-straddle-buf", pcsample((uintptr_t*)0xBFFFFFF0, 8), EFAULT);
	testerr("pcsample-unmapped-buf", pcsample((uintptr_t*)0x80000000, 16), EFAULT);
	testerr("pcsample-text-buf", pcsample((uintptr_t*)UTEXT, 16), EFAULT);
	testerr("pcsample-huge", pcsample(samples, 0x40000000), EFAULT);
	pcsample(NULL, 0);
	testpcsfork();
	testpcsfault("fault-pcsample", 0);
	testpcsfault("fault-pcsample-table", 1);
	testexec();
	testboth();

	if(nfail != 0){
		printf("profiltest: %d failed\n", nfail);
		return 1;
	}
	printf("profiltest: ok\n");
	return 0;
}
