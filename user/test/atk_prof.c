/*
 * atk_prof: attack the profilers' ticks, which the kernel writes at
 * their user addresses on the way back to user mode (kern/prof.c;
 * uaddsat16 and uput32, kern/fns.h), and look for a write anywhere but
 * the counters and samples the settings in force name.
 *
 *	atk_prof mix|shrink|churn|top|kill|exec|rate [ticks]
 *
 * mix	threads tick (in user loops and in system calls) while main
 *	switches profil and pcsample between two buffers of different
 *	sizes, offsets and scales, and a thread adds to a counter
 *	itself: a tick that mixed the settings would land in the zeroed
 *	memory around them.
 * shrink	threads tick while main takes the heap pages of both
 *	buffers, on either side of a page table's boundary, away and
 *	back: the pages come back zero, each time; then, the threads
 *	gone, sbrk frees the pages and their table under a ticking
 *	profiler.
 * churn	processes profile into heap pages that they free (sbrk)
 *	and exit, with threads too, while others of the same program
 *	take pages, fill them with a pattern and check it, and check that
 *	their own counters and samples, at the attackers' addresses,
 *	stay zero.
 * top	counters and samples in the last bytes below the kernel, and
 *	offsets that wrap.
 * kill	processes of ticking threads killed, a thread at a time.
 * exec	a thread execs while the others tick and shrink the heap under
 *	the buffers; the new image's buffers stay zero.
 * rate	the clock's rate against the time-stamp counter (under -d,
 *	the virtual time), alone and beside threads that turn profil
 *	and pcsample on and off: the same.
 *
 * Each case runs for about ticks clock ticks (default 1000) and prints
 * "ok NAME" or "FAIL NAME: why" for each check, then "atk_prof: CASE:
 * ok" if all passed.
 */
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
	PTSIZE	= 4*1024*1024,	/* what a page table maps */
	KZERO	= 0xC0000000,
	NTHR	= 3,		/* ticking threads */
	CHUNK	= 1<<12,	/* rounds of spinloop between system calls */
	NZONE	= 16384,	/* mix's counters: two buffers and the zeroes round them */
	NSZONE	= 4096,		/* its samples */
	HEAPPG	= 16,		/* churn's pages a process */
};

extern char	etext[];

static unsigned short	zone[NZONE];
static uintptr_t	szone[NSZONE];
static unsigned long	T = 1000;

/* Spin for n ticks, CHUNK rounds of spinloop between looks at the clock. */
static void
spin(unsigned long n)
{
	spinticks(n, CHUNK);
}

/*
 * A thread body: add to zone[1026], the counter of spinloop's loop in
 * mix's first buffer, where the kernel adds the ticks of the threads
 * in spinloop: its compare-and-swap must still get through.
 */
static void
adder(int i)
{
	(void)i;
	__atomic_add_fetch(&tickstarted, 1, __ATOMIC_SEQ_CST);
	while(!tickstop)
		zone[1026]++;
}

/* The first index in [lo, hi) of h that is not 0, or hi. */
static unsigned long
nonzero16(const unsigned short *h, unsigned long lo, unsigned long hi)
{
	for(; lo < hi && h[lo] == 0; lo++)
		;
	return lo;
}

static unsigned long
nonzero32(const uintptr_t *h, unsigned long lo, unsigned long hi)
{
	for(; lo < hi && h[lo] == 0; lo++)
		;
	return lo;
}

/*
 * Two settings of each profiler, switched to and fro by main while
 * the threads tick: profil's first counts spinloop's 8 bytes in 4
 * counters at zone[1024], its second all of text, 16 bytes a counter,
 * at zone[8192]; pcsample's first takes 2 samples at szone[256], its
 * second 1024 at szone[2048].  Nothing else in zone and szone may
 * change.
 */
static void
mix(void)
{
	unsigned long ny, t0, bad, k;
	uintptr_t *s;

	ny = ((uintptr_t)etext - UTEXT) / 16 + 1;
	if(8192 + ny > NZONE || 1024 + ny > 8192)
		fatal("text too big for zone");
	startn(ticker, NTHR);
	thread(adder, 0);
	t0 = now();
	for(k = 0; now() - t0 < T; k++){
		if(k & 1){
			profil(zone + 1024, 8, (uintptr_t)spinloop, 0x10000);
			pcsample(szone + 256, 2);
		}else{
			profil(zone + 8192, 2*ny, UTEXT, 0x2000);
			pcsample(szone + 2048, 1024);
		}
		spinloop(CHUNK * (1 + k % 7));
	}
	tickstop = 1;
	profil(NULL, 0, 0, 0);
	pcsample(NULL, 0);
	waitn(NTHR + 1);
	bad = nonzero16(zone, 0, 1024);
	if(bad == 1024)
		bad = nonzero16(zone, 1028, 8192);
	if(bad == 8192)
		bad = nonzero16(zone, 8192 + ny, NZONE);
	if(bad != NZONE)
		fail("mix-profil", "counter %lu is %u, outside both buffers", bad, zone[bad]);
	else if(nonzero16(zone, 8192, 8192 + ny) == 8192 + ny)
		fail("mix-profil", "nothing counted in %lu switches", k);
	else
		ok("mix-profil");
	bad = nonzero32(szone, 0, 256);
	if(bad == 256)
		bad = nonzero32(szone, 258, 2048);
	if(bad == 2048)
		bad = nonzero32(szone, 3072, NSZONE);
	for(s = szone; bad == NSZONE && s < szone + NSZONE; s++)
		if(*s != 0 && (*s < UTEXT || *s >= (uintptr_t)etext))
			bad = s - szone;
	if(bad != NSZONE)
		fail("mix-pcsample", "sample %lu is %#x, outside both buffers or text", bad, szone[bad]);
	else if(nonzero32(szone, 2048, 3072) == 3072)
		fail("mix-pcsample", "nothing sampled in %lu switches", k);
	else
		ok("mix-pcsample");
}

/*
 * One round of shrink at the two heap pages at p: profil's counters
 * from the last word of the first page, pcsample's slots from the
 * second's first, on for on ticks; the pages taken away for off ticks
 * and given back.  Adds one to *counted if the counter moved; says
 * whether the pages came back zero.
 */
static int
shrinkonce(char *p, unsigned long on, unsigned long off, unsigned long *counted)
{
	profil((unsigned short*)(p + PGSIZE - 2), 2 + PGSIZE, UTEXT, 0x2);
	pcsample((uintptr_t*)(p + PGSIZE), PGSIZE/4);
	spin(on);
	*counted += *(unsigned short*)(p + PGSIZE - 2) != 0;
	if(sbrk(-2*PGSIZE) == (void*)-1)
		fatal("sbrk");
	spin(off);
	if(sbrk(2*PGSIZE) != p)
		fatal("sbrk");
	return allzero(p, 2*PGSIZE);
}

/*
 * pcsample's count against the slots written: K slots at the end of
 * the first of the two heap pages at p, the rest in the second, which
 * sbrk takes away (hidden with threads, freed without) as soon as
 * sampling is on; the ticks fill the K and fail at the next, which
 * turns sampling off.  The count
 * the next call returns must be K, each of them a sample (it counted
 * the slot that failed too, one for each thread that failed).
 */
static void
pcscount(char *p, char *name)
{
	enum { K = 256 };	/* more than the ticks sbrk takes */
	uintptr_t *s = (uintptr_t*)(p + PGSIZE) - K;
	long n, i;

	memset(s, 0, 4*K);
	pcsample(s, K + PGSIZE/4);
	if(sbrk(-PGSIZE) == (void*)-1)
		fatal("sbrk");
	spin(K + 20);
	n = pcsample(NULL, 0);
	if(sbrk(PGSIZE) != p + PGSIZE)
		fatal("sbrk");
	for(i = 0; i < K && s[i] != 0; i++)
		;
	if(n != K || i != K)
		fail(name, "pcsample returned %ld, %ld of the %d slots below the page taken away written", n, i, K);
	else
		ok(name);
}

/*
 * Counters and samples on either side of a page table's boundary, in
 * heap that main takes away (hidden, as the image has threads) and
 * gives back while the threads tick: given back, it is zero (a tick
 * turned the profilers off meanwhile, main's own at the latest).
 * Then, the threads gone, profil and pcsample on again, and sbrk
 * frees the pages and the table that held one of them.
 */
static void
shrink(void)
{
	unsigned long t0, k, counted;
	char *p;
	int bad;

	/* Two pages, the first the last of a page table. */
	if(sbrk(PGSIZE) == (void*)-1)
		fatal("sbrk");
	heapat(PTSIZE, 0);
	if(sbrk(-PGSIZE) == (void*)-1 || (p = sbrk(2*PGSIZE)) == (void*)-1)
		fatal("sbrk");
	bad = 0;
	startn(ticker, NTHR);
	counted = 0;
	t0 = now();
	for(k = 0; now() - t0 < T; k++){
		if(!shrinkonce(p, 2 + k % 3, 4, &counted)){
			fail("shrink-hidden", "round %lu: a page not zero when the heap grew again", k);
			bad = 1;
			break;
		}
	}
	pcscount(p, "shrink-pcsample-count");
	tickstop = 1;
	waitn(NTHR);
	if(!bad && counted == 0)
		fail("shrink-hidden", "nothing counted in %lu rounds", k);
	else if(!bad)
		ok("shrink-hidden");
	/* One thread: the pages and the table go, freed, under a ticking profiler. */
	for(k = 0; k < 8; k++){
		if(!shrinkonce(p, 2, 2, &counted)){
			fail("shrink-freed", "round %lu: a page not zero when the heap grew again", k);
			return;
		}
	}
	ok("shrink-freed");
	pcscount(p, "shrink-pcsample-count-freed");
}

/*
 * A victim: takes HEAPPG pages, fills them, checks them while others
 * churn, gives them back, again and again for T ticks; and checks
 * that its zone and szone, where the attackers of the same program
 * count, stay zero.  Exits with the number of words found changed.
 */
static void
victim(int id)
{
	unsigned long t0, i, bad, n;
	unsigned *p;

	bad = 0;
	t0 = now();
	while(now() - t0 < T){
		if((p = sbrk(HEAPPG*PGSIZE)) == (void*)-1){
			spin(1);
			continue;
		}
		n = HEAPPG*PGSIZE/4;
		for(i = 0; i < n; i++)
			p[i] = 0xA5000000 ^ (id << 16) ^ i;
		spin(2);
		for(i = 0; i < n; i++)
			bad += p[i] != (0xA5000000 ^ (id << 16) ^ i);
		if(sbrk(-HEAPPG*PGSIZE) == (void*)-1)
			fatal("sbrk");
	}
	if(!allzero(zone, sizeof zone) || !allzero(szone, sizeof szone))
		bad++;
	_exit(bad > 255 ? 255 : bad);
}

/*
 * An attacker: counts into zone and szone, and into heap pages it
 * frees with sbrk under the ticks, then exits with the profilers on;
 * with threads every other time, the heap pages hidden then freed
 * with the image.
 */
static void
attacker(int round)
{
	char *p;
	int i;

	profil(zone, sizeof zone, UTEXT, 0x8000);
	if((p = sbrk(HEAPPG*PGSIZE)) == (void*)-1)
		_exit(0);
	if(round & 1)
		startn(ticker, 2);
	pcsample((uintptr_t*)p, HEAPPG*PGSIZE/4);
	spin(2);
	if(sbrk(-HEAPPG*PGSIZE) == (void*)-1)
		_exit(1);
	spin(2);
	pcsample(szone, NSZONE);
	profil((unsigned short*)p, PGSIZE, UTEXT, 0x8000);	/* EFAULT: gone */
	profil(zone, sizeof zone, UTEXT, 0x8000);
	for(i = 0; i < (round & 3); i++)
		spin(1);
	tickstop = 1;
	_exit(0);	/* the threads exit when they see tickstop, or with the image */
}

static void
churn(void)
{
	unsigned long t0;
	int nv, na, r, pid, status, bad;

	bad = 0;
	fflush(stdout);
	for(nv = 0; nv < 2; nv++)
		if(fork() == 0)
			victim(nv);
	na = 0;
	t0 = now();
	for(r = 0; now() - t0 < T; r++){
		if((pid = fork()) < 0){
			spin(1);
			continue;
		}
		if(pid == 0)
			attacker(r);
		na++;
		if(na >= 3){
			/* One child of ours ended: a victim, an attacker or an attacker's thread. */
			if((pid = wait(&status)) < 0)
				fatal("wait");
			bad += status != 0;
			na--;
		}
	}
	while((pid = wait(&status)) >= 0)
		bad += status != 0;
	if(bad != 0)
		fail("churn", "%d processes saw their memory changed, or failed", bad);
	else
		ok("churn");
}

/* Counters and samples in the last bytes below the kernel, and offsets that wrap. */
static void
top(void)
{
	volatile unsigned short *c = (unsigned short*)(KZERO - 2);
	volatile uintptr_t *s = (uintptr_t*)(KZERO - 4);
	uintptr_t saved = *s;	/* the end of argv[0]'s string */
	unsigned short c0;

	*c = 0;
	if(profil((unsigned short*)c, 2, UTEXT, 0x2) < 0)
		fail("top-profil", "profil: %s", strerror(errno));
	spin(T/10 + 2);
	profil(NULL, 0, 0, 0);
	c0 = *c;
	if(c0 == 0)
		fail("top-profil", "nothing counted in the last counter below the kernel");
	else
		ok("top-profil");
	*s = 0;
	if(pcsample((uintptr_t*)s, 1) != 0)
		fail("top-pcsample", "pcsample: %s", strerror(errno));
	spin(T/10 + 2);
	if(pcsample(NULL, 0) != 1 || *s < UTEXT || *s >= (uintptr_t)etext)
		fail("top-pcsample", "the last sample below the kernel is %#x", *s);
	else
		ok("top-pcsample");
	if(profil((unsigned short*)(KZERO - 2), 4, UTEXT, 0x2) != -1 || errno != EFAULT
	|| pcsample((uintptr_t*)(KZERO - 4), 2) != -1 || errno != EFAULT
	|| pcsample((uintptr_t*)(KZERO - 4), 0x40000001) != -1 || errno != EFAULT)
		fail("top-past", "a buffer past the top was not refused");
	else
		ok("top-past");
	/* pc - offset wraps: nothing counts; offset 0, the whole of the address space. */
	*c = 0;
	memset(zone, 0, sizeof zone);
	profil((unsigned short*)c, 2, 0xFFFFFFF0, 0x10000);
	spin(T/20 + 2);
	profil(zone, sizeof zone, 0xFFFFFFFE, 0x2);
	spin(T/20 + 2);
	profil(zone, 2, 0, 0x2);
	spin(T/20 + 2);
	profil(NULL, 0, 0, 0);
	if(*c != 0 || !allzero(zone + 1, sizeof zone - 2))
		fail("top-wrap", "a count past the buffers' end: last %u", *c);
	else if(zone[0] == 0)
		fail("top-wrap", "nothing counted with offset 0");
	else
		ok("top-wrap");
	*s = saved;
}

/* fork, with what stdout holds written first, so that the child does not print it again. */
static int
xfork(void)
{
	int pid;

	fflush(stdout);
	if((pid = fork()) < 0)
		fatal("fork");
	return pid;
}

/*
 * Processes of ticking threads, their buffers in the heap, killed one
 * thread at a time, a thread in the midst of its ticks.  The pids come
 * through a pipe.
 */
static void
killer(void)
{
	int fd[2], pids[NTHR + 1], i, r, pid, status;
	unsigned long t0;
	char *p;

	if(pipe(fd) < 0)
		fatal("pipe");
	t0 = now();
	for(r = 0; now() - t0 < T; r++){
		if((pid = xfork()) == 0){
			p = sbrk(2*PGSIZE);
			profil((unsigned short*)p, PGSIZE, UTEXT, 0x4000);
			pcsample((uintptr_t*)(p + PGSIZE), PGSIZE/4);
			pids[0] = getpid();
			for(i = 1; i <= NTHR; i++)
				pids[i] = thread(ticker, i);
			write(fd[1], pids, sizeof pids);
			ticker(0);
			_exit(0);
		}
		if(read(fd[0], pids, sizeof pids) != sizeof pids)
			fatal("read");
		spin(1 + r % 4);
		for(i = 0; i <= NTHR; i++){
			kill(pids[(i + r) % (NTHR + 1)]);
			if(r & 1)
				spin(1);
		}
		while(wait(&status) >= 0)
			;
	}
	ok("kill");
}

/* A thread execs while the others tick and main shrinks the heap under the buffers. */
static void
execer(int i)
{
	char *argv[] = { "atk_prof", "-execchild", NULL };

	(void)i;
	exec("/bin/atk_prof", argv);
	_exit(100);
}

static void
execs(void)
{
	unsigned long t0;
	int r, pid, status, bad;
	char *p;

	bad = 0;
	t0 = now();
	for(r = 0; now() - t0 < T; r++){
		if((pid = xfork()) == 0){
			p = heapat(PGSIZE, 2*PGSIZE);
			profil(zone, sizeof zone, UTEXT, 0x8000);
			pcsample(szone, NSZONE);
			startn(ticker, 2);
			thread(execer, 0);
			spin(1);
			profil((unsigned short*)p, 2*PGSIZE, UTEXT, 0x4000);
			pcsample((uintptr_t*)p, PGSIZE/2);
			spin(1 + r % 3);
			sbrk(-2*PGSIZE);
			spin(1);
			tickstop = 1;
			_exit(waitn(3));
		}
		if(wait(&status) != pid)
			fatal("wait");
		bad += status != 0;
	}
	if(bad != 0)
		fail("exec", "%d of %d rounds failed: the new image's buffers were written", bad, r);
	else
		ok("exec");
}

/* The exec'd side: its buffers are where the old image's were, and stay zero. */
static int
execchild(void)
{
	spin(3);
	return !allzero(zone, sizeof zone) || !allzero(szone, sizeof szone) || pcsample(NULL, 0) != 0;
}

/*
 * rate: the clock's ticks against the time-stamp counter's time, which
 * under run-qemu.sh -d is QEMU's virtual time: over T ticks with
 * nothing profiling, then over T ticks while three threads turn profil
 * and pcsample on and off without pause, each tick of theirs moving
 * the clock to a phase drawn at random.  The rate must stay within
 * 2000 parts per million of the first (at 10000 Hz under -i 3, 800
 * below it: the timer's reprogramming, a few counts late each tick).
 */
static unsigned short	ratebuf[NTHR][1024];
static uintptr_t	ratesamp[NTHR][64];

static void
rateprof(int k)
{
	int i;

	tickstarted++;
	for(i = 0; !tickstop; i++){
		if(i % 2 == 0)
			profil(ratebuf[k], sizeof ratebuf[k], (uintptr_t)spinloop, 0x8000 >> (i % 3));
		else
			pcsample(ratesamp[k], 64);
		spinloop(300 + 100 * k);
		profil(NULL, 0, 0, 0);
		pcsample(NULL, 0);
		spinloop(200);
	}
}

/* Parts per million of the counter's time that T ticks of the clock say. */
static unsigned long
ratenow(void)
{
	unsigned long t0, t1;
	unsigned long long s0, s1;

	t0 = now();
	while(now() == t0)
		;
	t0 = now();
	s0 = tsc();
	while((t1 = now()) - t0 < T)
		;
	s1 = tsc();
	return (unsigned long long)(t1 - t0) * (1000000000ULL / hz) * 1000 / ((s1 - s0) / 1000);
}

static void
rate(void)
{
	unsigned long r0, r1;
	int k;

	r0 = ratenow();
	for(k = 0; k < NTHR; k++)
		thread(rateprof, k);
	r1 = ratenow();
	tickstop = 1;
	waitn(NTHR);
	printf("atk_prof: rate: alone %lu, beside profil %lu ppm of the time-stamp counter's time\n", r0, r1);
	if(r1 + 2000 < r0 || r1 > r0 + 2000)
		fail("rate", "the clock at %lu ppm beside profil, %lu alone", r1, r0);
	else
		ok("rate");
}

int
main(int argc, char *argv[])
{
	now();
	if(argc == 2 && strcmp(argv[1], "-execchild") == 0)
		return execchild();
	if(argc < 2 || argc > 3){
		fprintf(stderr, "usage: atk_prof mix|shrink|churn|top|kill|exec|rate [ticks]\n");
		return 1;
	}
	if(argc == 3)
		T = strtoul(argv[2], NULL, 0);
	if(strcmp(argv[1], "mix") == 0)
		mix();
	else if(strcmp(argv[1], "shrink") == 0)
		shrink();
	else if(strcmp(argv[1], "churn") == 0)
		churn();
	else if(strcmp(argv[1], "top") == 0)
		top();
	else if(strcmp(argv[1], "kill") == 0)
		killer();
	else if(strcmp(argv[1], "exec") == 0)
		execs();
	else if(strcmp(argv[1], "rate") == 0)
		rate();
	else{
		fprintf(stderr, "atk_prof: unknown case %s\n", argv[1]);
		return 1;
	}
	printf("atk_prof: %s: %s\n", argv[1], nfail ? "FAIL" : "ok");
	return nfail != 0;
}
