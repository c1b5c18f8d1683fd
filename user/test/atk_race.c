/*
 * atk_race TEST [ROUNDS]: system calls raced on several processors
 * against what would pull their memory, files or processes from
 * under them (tools/test/faults.sh).  Each prints "atk_race: TEST:
 * ok", or a line per broken promise and then "atk_race: TEST: failed";
 * the script checks that the kernel lives on, its text unchanged and
 * its pages and heap back.
 *
 *	calls	two threads make every call that takes a pointer, with
 *		buffers, paths and argument vectors in a heap page that a
 *		third thread takes away and gives back (sbrk) without
 *		pause, and straddling its edges: each call succeeds or
 *		fails, moves no more than it was asked to, and writes
 *		nothing outside its buffer.
 *	exec	threads fork children that exec a program that another
 *		process rewrites and cuts short without pause, and two threads of one image exec
 *		at once while a third moves the heap: each exec runs the
 *		program whole (status 0) or fails with ENOEXEC.
 *	exhaust	the process table filled with children that each fill
 *		their descriptors with pipes, fill the pipes, and block
 *		writing one more, or reading an empty one, or in wait;
 *		then all are killed: each dies with status 255.
 *	stacktop	system calls with the stack pointer at the top of
 *		user memory, so that the arguments straddle the kernel's
 *		or lie in it: EFAULT, and nothing above the stack read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include "pcsample.h"
#include "lib/check.h"

enum {
	PG	= 4096,
	KZERO	= 0xC0000000,	/* the top of user memory (kern/mem.h) */
	Killed	= 255,
	Ncaller	= 2,		/* threads that make calls into the page */
	Ncopy	= 8,		/* exec: processes that exec the changing program */
	Psize	= 4096,		/* a pipe's buffer (dev/devpipe.c) */
};

#define DIR	"/tmp/atk_race"
#define PROG	DIR "/prog"
#define USED(x)	((void)(x))
#define nelem(a)	(sizeof(a)/sizeof((a)[0]))

/*
 * calls: the heap's last two pages are S, which stays, and T, which
 * the toggler takes away and gives back.  S holds the paths and a
 * pattern that no call may change outside the buffer it was given.
 */
static char *S, *T;
static volatile int stop;
static int rounds;
static int ncall, nfault, nmoved;	/* calls made, those that failed with EFAULT, and those that moved bytes */

static void
toggler(int arg)
{
	USED(arg);
	while(!stop){
		if(sbrk(-PG) == (void*)-1 || sbrk(PG) == (void*)-1){
			failcase("toggler: sbrk failed", 0, 0);
			break;
		}
	}
}

/*
 * Put n bytes of s at p, in T, through a call (a pipe's read): user
 * code that touched T would die of it while T is away.  Whether they
 * went there.
 */
static int
put(int fd[2], char *p, const void *s, long n)
{
	char junk[64];

	if(write(fd[1], s, n) != n)
		failcase("put: write", 0, 0);
	if(read(fd[0], p, n) == n)
		return 1;
	if(read(fd[0], junk, n) != n)
		failcase("put: pipe not drained", 0, 0);
	return 0;
}

/* A path at T+k for a call: whatever T holds there if it is away meanwhile. */
static char*
inT(int fd[2], int k, const char *s)
{
	put(fd, T + k, s, strlen(s) + 1);
	return T + k;
}

/*
 * One call of kind k at p, its other arguments good; the bytes it may
 * write are [p, p+n).  Returns how many it says it moved.  pfd is the
 * caller's pipe, tmp a buffer on its own stack, and mnt a directory of
 * its own to bind onto: on one for all, a caller's unmount would take
 * away another's bind, and that one's own unmount rightly fail.
 */
static long
call1(int k, char *p, long n, int pfd[2], int filefd, char *tmp, const char *mnt)
{
	char *argv[3];
	long r;
	int fd, st;

	switch(k){
	case 0:	/* a file's bytes into p */
		seek(filefd, 0, 0);
		return read(filefd, p, n);
	case 1:	/* a pipe's bytes into p (at most its buffer: this thread fills it) */
		if(n > Psize)
			n = Psize;
		if(write(pfd[1], tmp, n) != n)
			failcase("write to own pipe", 0, 0);
		r = read(pfd[0], p, n);
		if(r < 0 && read(pfd[0], tmp, n) != n)
			failcase("pipe not drained", 0, 0);
		return r;
	case 2:	/* p's bytes out */
		seek(filefd, 0, 0);
		return write(filefd, p, n);
	case 3:
	case 4:
		if((fd = open(k == 3 ? "/dev/ps" : "/dev/kpproc", O_RDONLY)) < 0)
			return -1;
		r = read(fd, p, n);
		close(fd);
		return r;
	case 5:
		return fstat(filefd, (struct Dir*)p);
	case 6:
		return stat(S, (struct Dir*)p);
	case 7:	/* the descriptors land in p, or nowhere: close whatever it made */
		r = pipe((int*)p);
		for(fd = 3; fd < 32; fd++)
			if(fd != filefd && fd != pfd[0] && fd != pfd[1])
				close(fd);
		return r;
	case 8:
		if((r = fork()) == 0)
			_exit(7);
		if(r < 0)
			return r;
		if((r = wait((int*)p)) < 0)	/* the status had nowhere to go: the child is there still */
			wait(&st);
		return r < 0 ? r : 0;
	case 9:
		return getwd(p, n);
	case 10:
		return errstr(p, n);
	case 11:	/* paths in T */
		if((fd = open(inT(pfd, PG - 64, DIR "/f"), O_RDONLY)) >= 0)
			close(fd);
		return 0;
	case 12:
		if(chdir(inT(pfd, PG - 64, DIR)) == 0)
			chdir("/");
		return 0;
	case 13:	/* new in T; old not: a string torn by T's zeroing could name /tmp, and hide it all */
		if(bind(inT(pfd, PG - 128, DIR "/a"), mnt, MREPL) == 0 && unmount(NULL, mnt) < 0)
			failcase("bind's unmount failed", 0, 0);
		return 0;
	case 14:	/* exec of no program, its path and arguments in T: read, then it fails */
		argv[0] = inT(pfd, PG - 64, "x");
		argv[1] = inT(pfd, PG - 32, "y");
		argv[2] = NULL;
		if(exec(inT(pfd, PG - 128, DIR "/nonesuch"), argv) == 0)
			failcase("exec of nothing returned 0", 0, 0);
		if(put(pfd, T + PG - 16, argv, sizeof argv))
			exec(DIR "/nonesuch", (char**)(T + PG - 16));
		return 0;
	case 15:	/* a control message at p */
		if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
			return -1;
		r = write(fd, p, n < 63 ? n : 63);
		close(fd);
		return r < 0 ? r : 0;
	case 16:
		if(profil((unsigned short*)((uintptr_t)p & ~1), n & ~1, 0x1000, 0x8000) == 0)
			profil(NULL, 0, 0, 0);
		if(pcsample((uintptr_t*)((uintptr_t)p & ~3), n / 4) >= 0)
			pcsample(NULL, 0);
		return 0;
	}
	return 0;
}

enum { Nkind = 17 };

/* S's first half: the path DIR, then a guard that no call may touch. */
static int
guardok(void)
{
	int i;

	if(strcmp(S, DIR) != 0)
		return 0;
	for(i = sizeof DIR; i < PG/2; i++)
		if(S[i] != 'G')
			return 0;
	return 1;
}

static void
caller(int id)
{
	static const long lens[] = { 1, 63, 100, PG - 1, PG, PG + 1 };
	char name[32], mnt[32], tmp[PG + 1], *p;
	int pfd[2], filefd, i, k;
	long n, r;
	unsigned int seed = id * 7919 + 1;

	memset(tmp, 'x', sizeof tmp);
	snprintf(name, sizeof name, DIR "/c%d", id);
	snprintf(mnt, sizeof mnt, DIR "/b%d", id);
	mkdir(mnt);
	if((filefd = create(name, O_RDWR, 0664)) < 0 || pipe(pfd) < 0){
		failcase("caller setup", 0, 0);
		return;
	}
	if(write(filefd, tmp, PG) != PG || write(filefd, tmp, PG) != PG)
		failcase("caller setup write", 0, 0);
	/*
	 * rounds calls, and more, up to 20 times as many, until some have
	 * faulted and some moved bytes: outside -d a host busy with other
	 * work can keep T away from every caller's look for 600 calls.
	 */
	for(i = 0; i < rounds || (i < 20*rounds && (nfault == 0 || nmoved == 0)); i++){
		seed = seed * 1103515245 + 12345;
		k = (seed >> 8) % Nkind;
		n = lens[(seed >> 16) % nelem(lens)];
		switch((seed >> 20) % 4){
		case 0:	p = T; break;			/* in T */
		case 1:	p = T - n/2; break;		/* from S into T */
		case 2:	p = T + PG - n/2; break;	/* from T past the heap's end */
		default:	p = T + (seed >> 4) % PG; break;
		}
		if(p < S + PG/2)
			p = S + PG/2;	/* S's first half is the guard */
		errno = 0;
		r = call1(k, p, n, pfd, filefd, tmp, mnt);
		__sync_fetch_and_add(&ncall, 1);
		if(r < 0 && errno == EFAULT)
			__sync_fetch_and_add(&nfault, 1);
		if(r > 0)
			__sync_fetch_and_add(&nmoved, 1);
		if(r > n)
			failcase("call moved %ld bytes of %ld", r, n);
		if(!guardok())
			failcase("S changed under call %ld", k, 0);
	}
	close(filefd);
	remove(mnt);
	close(pfd[0]);
	close(pfd[1]);
	remove(name);
}

static void
testcalls(void)
{
	char *b;
	int pid, i;

	if((b = sbrk(0)) == (void*)-1)
		fatal("sbrk");
	if(sbrk(PG - (uintptr_t)b % PG + 2*PG) == (void*)-1)
		fatal("sbrk");
	S = b + (PG - (uintptr_t)b % PG);
	T = S + PG;
	memset(S, 'G', PG/2);
	strcpy(S, DIR);
	mkdir(DIR "/a");
	close(create(DIR "/f", O_RDWR, 0664));
	stop = 0;
	pid = thread(toggler, 0);
	for(i = 0; i < Ncaller; i++)
		thread(caller, i);
	if(waitn(Ncaller) != 0)
		failcase("a caller died", 0, 0);
	stop = 1;
	if(waitn(1) != 0)
		failcase("the toggler died", 0, 0);
	USED(pid);
	/* Both must happen, or the race was not run. */
	if(nfault == 0 || nmoved == 0)
		failcase("%ld calls faulted, %ld moved bytes: no race", nfault, nmoved);
	printf("atk_race: calls: %d calls, %d faulted, %d moved bytes\n", ncall, nfault, nmoved);
	remove(DIR "/f");
	remove(DIR "/a");
}

/*
 * exec: the program is /bin/echo, which one process writes to PROG
 * whole and then cut short, again and again, while others exec it.
 */
static char *prog;
static long progn;
static int nran, nnoexec;	/* execs that ran the program, and that failed with ENOEXEC */

static void
rewriter(int arg)
{
	unsigned int seed = 12345;
	int fd;

	USED(arg);
	while(!stop){
		seed = seed * 1103515245 + 12345;
		if((fd = open(PROG, O_WRONLY|O_TRUNC)) < 0)
			continue;
		write(fd, prog, (seed >> 8) % 2 ? progn : (long)((seed >> 12) % progn));
		close(fd);
	}
}

static void
execer(int id)
{
	char *argv[] = { "echo", "-n", NULL };
	int i, pid, st;

	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0){
			exec(PROG, argv);
			_exit(errno == ENOEXEC ? 3 : 4);
		}
		if(pid < 0 || wait(&st) != pid){
			failcase("execer %ld: fork or wait", id, 0);
			return;
		}
		if(st != 0 && st != 3)
			failcase("exec of a changing program: status %ld", st, 0);
		__sync_fetch_and_add(st == 0 ? &nran : &nnoexec, 1);
	}
}

/* A thread of an image that two others exec out of: it moves the heap meanwhile. */
static void
heapmover(int arg)
{
	int i;

	USED(arg);
	for(i = 0; i < 200; i++)
		if(sbrk(PG) != (void*)-1)
			sbrk(-PG);
}

static void
echoer(int arg)
{
	char *argv[] = { "echo", "-n", NULL };

	USED(arg);
	exec("/bin/echo", argv);
	_exit(4);
}

static void
testexec(void)
{
	int rw, i, pid, st;

	if((prog = malloc(64*1024)) == NULL || (progn = readwhole("/bin/echo", prog, 64*1024)) <= 0)
		fatal("/bin/echo");
	close(create(PROG, O_RDWR, 0775));
	stop = 0;
	if((rw = fork()) == 0){
		rewriter(0);
		_exit(0);
	}
	for(i = 0; i < Ncopy; i++)
		thread(execer, i);
	if(waitn(Ncopy) != 0)
		failcase("an execer died", 0, 0);
	kill(rw);
	wait(&st);
	/* Both must happen, or the race was not run. */
	if(nran == 0 || nnoexec == 0)
		failcase("%ld execs ran, %ld failed: no race", nran, nnoexec);
	printf("atk_race: exec: %d execs of a changing program: %d ran, %d failed\n", Ncopy*rounds, nran, nnoexec);
	/* Two threads of one image exec at once, while a third moves its heap. */
	for(i = 0; i < rounds / 4; i++){
		if((pid = fork()) == 0){
			thread(heapmover, 0);
			thread(echoer, 0);
			thread(echoer, 0);
			_exit(waitn(3));
		}
		if(pid < 0 || wait(&st) != pid || st != 0)
			failcase("two threads' exec: status %ld", st, 0);
	}
	remove(PROG);
	free(prog);
}

/*
 * exhaust: each child fills its descriptors with pipes and the pipes
 * with bytes, then blocks where its number says: writing to a full
 * pipe, reading an empty one, waiting for a child (which reads a pipe
 * that only its parent writes, and so ends with it), or spinning.
 */
static void
filler(int i)
{
	int fd[2], last[2] = { -1, -1 };
	char buf[Psize];

	memset(buf, 'x', sizeof buf);
	while(pipe(fd) == 0){
		if(write(fd[1], buf, Psize) != Psize)
			_exit(3);
		last[0] = fd[0];
		last[1] = fd[1];
	}
	if(last[0] < 0)
		_exit(3);
	switch(i % 4){
	case 0:
		write(last[1], buf, 1);
		break;
	case 1:
		close(last[0]);
		close(last[1]);
		if(pipe(fd) < 0)
			_exit(3);
		read(fd[0], buf, 1);
		break;
	case 2:
		close(last[0]);
		close(last[1]);
		if(pipe(fd) < 0)
			_exit(3);
		if(fork() == 0){
			close(fd[1]);
			read(fd[0], buf, 1);
			_exit(0);
		}
		wait(NULL);
		for(;;)	/* no child: the table was full */
			sleep(1000);
	default:
		for(;;)
			;
	}
	_exit(7);
}

static void
testexhaust(void)
{
	int pids[64], n, i, st, r, round, total = 0;

	for(round = 0; round < rounds; round++){
		for(n = 0; n < 64; n++){
			if((pids[n] = fork()) < 0)
				break;
			if(pids[n] == 0)
				filler(n);
		}
		if(n < 4)
			failcase("only %ld children", n, 0);
		sleep(50);
		for(i = 0; i < n; i++)
			if(kill(pids[i]) < 0)
				failcase("kill of child %ld", i, 0);
		for(i = 0; i < n; i++){
			if((r = wait(&st)) < 0){
				failcase("wait: only %ld of %ld", i, n);
				break;
			}
			if(st != Killed)
				failcase("a child's status %ld", st, 0);
		}
		total += n;
	}
	printf("atk_race: exhaust: %d children killed, with their pipes full\n", total);
}

/*
 * stacktop: a call made with esp at sp; its ax and dx.  sp in the
 * user's stack page just below KZERO, so that the call's words run
 * into the kernel's half, or in it.
 */
static void
callat(uintptr_t sp, int num, uint32_t *ax, uint32_t *dx)
{
	uint32_t a, d;

	asm volatile(
		"movl %%esp, %%esi\n\t"
		"movl %[sp], %%esp\n\t"
		"int $0x40\n\t"
		"movl %%esi, %%esp"
		: "=a"(a), "=d"(d)
		: "a"(num), [sp] "r"(sp)
		: "esi", "ecx", "memory", "cc");
	*ax = a;
	*dx = d;
}

static void
teststacktop(void)
{
	static const struct {
		uintptr_t sp;
		int num;
	} c[] = {
		{ KZERO - 4, SYS_close },	/* its one word at KZERO */
		{ KZERO - 8, SYS_read },	/* the second word at KZERO */
		{ KZERO - 12, SYS_read },	/* the third */
		{ KZERO - 16, SYS_profil },	/* the fourth of four */
		{ KZERO, SYS_exit },		/* all in the kernel */
		{ 0xFFFFFFF8, SYS_exit },	/* and wrapping past 2^32 */
		{ 0xFFFFFFFC, SYS_dup2 },
		{ 0, SYS_exit },		/* at 4, never mapped */
	};
	uint32_t ax, dx, top[4];
	unsigned int i;

	memmove(top, (void*)(KZERO - 16), sizeof top);
	for(i = 0; i < nelem(c); i++){
		callat(c[i].sp, c[i].num, &ax, &dx);
		if(ax != (uint32_t)-1 || dx != EFAULT)
			failcase("call %ld at the top: returned %ld", i, ax);
	}
	/* With its words all below KZERO, the call is made. */
	callat(KZERO - 8, SYS_getpid, &ax, &dx);
	if((int)ax != getpid())
		failcase("getpid at the top returned %ld", ax, 0);
	if(memcmp(top, (void*)(KZERO - 16), sizeof top) != 0)
		failcase("the stack's top changed", 0, 0);
}

int
main(int argc, char *argv[])
{
	if(argc < 2){
		fprintf(stderr, "usage: atk_race calls|exec|exhaust|stacktop [rounds]\n");
		return 2;
	}
	testcase = argv[1];
	rounds = argc > 2 ? argcount(argv[2], "atk_race calls|exec|exhaust|stacktop [rounds]") : 100;
	mkdir(DIR);
	if(strcmp(testcase, "calls") == 0)
		testcalls();
	else if(strcmp(testcase, "exec") == 0)
		testexec();
	else if(strcmp(testcase, "exhaust") == 0)
		testexhaust();
	else if(strcmp(testcase, "stacktop") == 0)
		teststacktop();
	else{
		fprintf(stderr, "atk_race: unknown test %s\n", testcase);
		return 2;
	}
	remove(DIR);
	printf("atk_race: %s: %s\n", testcase, nfail ? "failed" : "ok");
	return nfail != 0;
}
