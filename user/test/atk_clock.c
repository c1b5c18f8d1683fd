/*
 * atk_clock: attack the NMI clock that profil and pcsample sample on
 * (kern/apic.c: nmiset, nmiclockprof; kern/prof.c: profclock), which
 * runs while an image profiles and while kprof counts, and which kpctl
 * changes too.
 *
 *	atk_clock clock|both|steady|beside [ticks]
 *
 * clock	processes whose threads turn profil and pcsample on and off
 *	at once, fork children that profile, exec, fault their
 *	profilers off (sbrk), exit and are killed, while another starts
 *	and stops kprof and changes its interval: then nothing profiles
 *	and kprof is off, and the clock must be off
 *	(tools/test/profrace.sh looks with gdb).
 * both	profil and pcsample at once from ticking threads: the
 *	counters gain exactly the ticks profiled, and each sample's pc
 *	is counted in its counter (profil is on whenever pcsample is).
 * steady	profil while the process starts and stops kprof: every 1/HZ
 *	still has its sample.
 * beside	profil while kprof counts, with stacks: the same.
 *
 * Each case runs for about ticks clock ticks (default 1000) and prints
 * "ok NAME" or "FAIL NAME: why" for each check, then "atk_clock: CASE:
 * ok" if all passed.  kprof is left stopped, its interval and stacks
 * as they were.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"
#include "lib/check.h"

enum {
	UTEXT	= 0x1000,	/* where user text starts (user/user.ld) */
	PGSIZE	= 4096,
	NTHR	= 3,		/* threads */
	CHUNK	= 1<<12,	/* rounds of spinloop between system calls */
	NZONE	= 4096,		/* clock's counters */
	NSZONE	= 1024,		/* its samples */
};

extern char	etext[];

static unsigned short	zone[NZONE];
static uintptr_t	szone[NSZONE];
static unsigned long	T = 1000;

static void
spin(unsigned long n)
{
	spinticks(n, CHUNK);
}

/*
 * clock: the NMI clock runs while an image profiles, counted by image
 * (kern/prof.c, profclock; kern/apic.c, nmiclockprof), and for kprof.
 * A round's process profiles into its heap with both profilers, and
 * its threads turn them on and off, fork children that profile and
 * exit, exec, or take the heap away under the ticks, while main
 * shrinks the heap, kills them or exits first.  Meanwhile a process
 * writes kpctl's start, stop, startclr and interval without pause.
 */
static const char	*kpcmds[] = { "start", "interval fixed", "stop", "startclr", "interval random", "stop", "start", "stop" };
enum { Nkpcmd = sizeof kpcmds / sizeof kpcmds[0] };

/* kprof's interval and stacks, from kpctl's status line, to put back after. */
static char	kpival[8] = "random", kpstk[4] = "on";

static void
kpsave(void)
{
	char st[512], *p;

	if(readwhole("/dev/kpctl", st, sizeof st) <= 0)
		fatal("kpctl");
	if((p = strstr(st, " interval ")) != NULL)
		strcpy(kpival, p[10] == 'f' ? "fixed" : "random");
	if((p = strstr(st, " stacks ")) != NULL)
		strcpy(kpstk, p[9] == 'f' ? "off" : "on");
}

/* kprof stopped, its interval and stacks as kpsave found them. */
static void
kprestore(void)
{
	char cmd[3][32];
	int fd, i;

	strcpy(cmd[0], "stop");
	snprintf(cmd[1], sizeof cmd[1], "interval %s", kpival);
	snprintf(cmd[2], sizeof cmd[2], "stacks %s", kpstk);
	if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
		fatal("kpctl");
	for(i = 0; i < 3; i++)
		if(write(fd, cmd[i], strlen(cmd[i])) != (long)strlen(cmd[i]))
			fatal("kpctl");
	close(fd);
}

/* Write kpctl's commands, in turn, without end. */
static void
kpctler(void)
{
	int fd, i;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
		_exit(1);
	for(i = 0; ; i++){
		if(write(fd, kpcmds[i % Nkpcmd], strlen(kpcmds[i % Nkpcmd])) < 0)
			_exit(2);
		spinloop(CHUNK * (1 + i % 5));
	}
}

static char	*clkheap;	/* a round's two heap pages */

/*
 * A round's thread: profil and pcsample on and off in turn, for the
 * whole image; thread 0 forks children that profile or not and exit,
 * thread 1 sets profil and execs, now and then.
 */
static void
clkthread(int i)
{
	int k, pid, status;

	__atomic_add_fetch(&tickstarted, 1, __ATOMIC_SEQ_CST);
	for(k = 0; !tickstop; k++){
		switch((i + k) % 6){
		case 0:
			profil(zone, sizeof zone, UTEXT, 0x8000 >> (k % 3));
			break;
		case 1:
			pcsample(szone, NSZONE);
			break;
		case 2:
			profil(NULL, 0, 0, 0);
			break;
		case 3:
			pcsample(NULL, 0);
			break;
		case 4:
			if(i == 0 && (pid = fork()) >= 0){
				if(pid == 0){
					if(k & 1)
						profil(zone, sizeof zone, UTEXT, 0x4000);
					spin(1);
					_exit(0);
				}
				wait(&status);
			}
			break;
		case 5:
			if(i == 1 && k > 20 && k % 7 == 0){
				char *argv[] = { "atk_clock", "-execchild", NULL };
				profil((unsigned short*)clkheap, PGSIZE, UTEXT, 0x2000);
				exec("/bin/atk_clock", argv);
				_exit(100);
			}
			break;
		}
		spinloop(CHUNK >> (k % 4));
	}
}

/* A round's process: its heap profiled, its threads at it, then one of four ends. */
static void
clockround(int r)
{
	int i, pids[NTHR];

	clkheap = heapat(PGSIZE, 2*PGSIZE);
	profil((unsigned short*)clkheap, PGSIZE, UTEXT, 0x4000);
	pcsample((uintptr_t*)(clkheap + PGSIZE), PGSIZE/4);
	tickstop = 0;
	tickstarted = 0;
	for(i = 0; i < NTHR; i++)
		pids[i] = thread(clkthread, i);
	while(tickstarted < NTHR)
		getpid();
	spin(1 + r % 3);
	switch(r % 4){
	case 0:	/* the heap goes under the ticks: the profilers fault off */
		sbrk(-2*PGSIZE);
		spin(1);
		break;
	case 1:	/* killed, one at a time */
		for(i = 0; i < NTHR; i++){
			kill(pids[i]);
			if(i & 1)
				spin(1);
		}
		break;
	case 2:	/* main exits first, the profilers on */
		tickstop = 1;
		_exit(0);
	}
	tickstop = 1;
	waitn(NTHR);
	_exit(0);
}

static void
clockatk(void)
{
	unsigned long t0;
	int r, n, pid, kp, status;

	kpsave();
	fflush(stdout);
	tickstop = 0;
	if((kp = fork()) == 0)
		kpctler();
	n = 0;
	t0 = now();
	for(r = 0; now() - t0 < T; r++){
		if((pid = fork()) == 0)
			clockround(r);
		if(pid > 0)
			n++;
		if(n >= 3){
			if((pid = wait(&status)) < 0)
				fatal("wait");
			if(pid == kp)
				fatal("kpctl's writer failed");
			n--;
		}
	}
	kill(kp);
	while(wait(&status) >= 0)
		;
	/* Threads of a round whose main exited first are init's: they see tickstop and go. */
	spin(hz / 10 + 2);
	kprestore();
	printf("atk_clock: clock: %d rounds\n", r);
	ok("clock");
}

/* The exec'd side of clock: it profiles nothing, and goes. */
static int
execchild(void)
{
	spin(1);
	return pcsample(NULL, 0) != 0;
}

/*
 * both: profil over all of text, 2 bytes a counter, and pcsample, on
 * at once while threads tick (half in system calls); profil on before
 * pcsample and off after, so that each sample is in a counter, and
 * only main's ticks between the calls are counted without a sample.
 * The counters gain exactly the ticks profiled (#c/proctime).
 */
static void
both(void)
{
	unsigned long ny, ns, i, p0, p1, ticks, sum, bad;
	unsigned short *h, *g;
	uintptr_t *s;
	long r;

	ny = ((uintptr_t)etext - UTEXT) / 2 + 1;
	ns = T * 8 + 1024;
	h = (unsigned short*)heapat(PGSIZE, ny * 2 * 2 + ns * 4);
	g = h + ny;
	s = (uintptr_t*)(g + ny);
	memset(h, 0, ny * 2 * 2 + ns * 4);
	if(proctime(&ticks, &p0) < 0)
		fatal("/dev/proctime");
	profil(h, 2*ny, UTEXT, 0x10000);
	pcsample(s, ns);
	startn(ticker, NTHR);
	spin(T);
	tickstop = 1;
	waitn(NTHR);
	r = pcsample(NULL, 0);
	profil(NULL, 0, 0, 0);
	if(proctime(&ticks, &p1) < 0)
		fatal("/dev/proctime");
	sum = histsum(h, 0, ny);
	if(sum != p1 - p0)
		fail("both-profil", "counters gained %lu, %lu ticks profiled", sum, p1 - p0);
	else
		ok("both-profil");
	bad = 0;
	for(i = 0; i < (unsigned long)r && i < ns; i++){
		if(s[i] < UTEXT || s[i] >= (uintptr_t)etext){
			bad++;
			continue;
		}
		g[(s[i] - UTEXT) / 2]++;
	}
	for(i = 0; i < ny; i++)
		if(g[i] > h[i])
			bad++;
	if(r <= 0 || (unsigned long)r >= ns || bad != 0 || sum - r > 8 || !allzero(s + r, (ns - r) * 4))
		fail("both-pcsample", "%ld samples, %lu counted, %lu samples not in the counters", r, sum, bad);
	else
		ok("both-pcsample");
	printf("atk_clock: both: %ld samples, %lu counted\n", r, sum);
}

/*
 * steady: profil over all of text while the process itself writes
 * kpctl's commands (stcmds: kprof started six times in eight), a few
 * ticks' spin between: each 1/HZ still has its sample, so the ticks
 * profiled are within 1 percent of those run, and the counters gain
 * exactly those.  Alone, the process runs every tick it is counted
 * for.  A kprof start that wrote the NMI clock's count again dropped
 * the sample due in its 1/HZ: under run-qemu.sh -d on 1 or 2
 * processors at hz=10000, 15 to 18 percent of them.  (Not startclr,
 * whose stop of the other processors delays the NMI under -d.)
 * beside: the same with kprof counting, stacks on, throughout: under
 * -d -i 3 at hz=10000, a tick of 12,500 instructions, an NMI whose
 * walk of the stack took it past the end of its 1/HZ left the next
 * without a sample (kern/apic.c, nmiclocknext), 2.8 percent of them.
 */
static const char	*stcmds[] = { "start", "stacks off", "interval fixed", "stop", "start", "stacks on", "interval random", "stop" };
enum { Nstcmd = sizeof stcmds / sizeof stcmds[0] };

static void
steady(int cmds)
{
	unsigned long ny, t0, r0, r1, p0, p1, sum;
	unsigned short *h;
	int fd, i;
	char *name = cmds ? "steady" : "beside";

	ny = ((uintptr_t)etext - UTEXT) / 2 + 1;
	h = (unsigned short*)heapat(PGSIZE, 2*ny);
	kpsave();
	if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
		fatal("kpctl");
	if(!cmds && (write(fd, "stacks on", 9) != 9 || write(fd, "startclr", 8) != 8))
		fatal("kpctl");
	if(proctime(&r0, &p0) < 0)
		fatal("/dev/proctime");
	profil(h, 2*ny, UTEXT, 0x10000);
	t0 = now();
	for(i = 0; now() - t0 < T; i++){
		if(cmds && write(fd, stcmds[i % Nstcmd], strlen(stcmds[i % Nstcmd])) < 0)
			fatal("kpctl");
		spin(2 + i % 5);
	}
	profil(NULL, 0, 0, 0);
	if(proctime(&r1, &p1) < 0)
		fatal("/dev/proctime");
	close(fd);
	kprestore();
	sum = histsum(h, 0, ny);
	printf("atk_clock: %s: %d commands, %lu ticks run, %lu profiled, %lu counted\n", name, cmds ? i : 0, r1 - r0, p1 - p0, sum);
	if((p1 - p0) * 100 < (r1 - r0) * 99 || (p1 - p0) * 100 > (r1 - r0) * 101 || sum != p1 - p0)
		fail(name, "%lu ticks profiled of %lu run, %lu counted", p1 - p0, r1 - r0, sum);
	else
		ok(name);
}

int
main(int argc, char *argv[])
{
	now();
	if(argc == 2 && strcmp(argv[1], "-execchild") == 0)
		return execchild();
	if(argc < 2 || argc > 3){
		fprintf(stderr, "usage: atk_clock clock|both|steady|beside [ticks]\n");
		return 1;
	}
	if(argc == 3)
		T = strtoul(argv[2], NULL, 0);
	if(strcmp(argv[1], "clock") == 0)
		clockatk();
	else if(strcmp(argv[1], "both") == 0)
		both();
	else if(strcmp(argv[1], "steady") == 0)
		steady(1);
	else if(strcmp(argv[1], "beside") == 0)
		steady(0);
	else{
		fprintf(stderr, "atk_clock: unknown case %s\n", argv[1]);
		return 1;
	}
	printf("atk_clock: %s: %s\n", argv[1], nfail ? "FAIL" : "ok");
	return nfail != 0;
}
