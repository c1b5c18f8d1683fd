/*
 * atk_share TEST [ROUNDS]: threads whose memory goes while they wait
 * in system calls, pipes at their edges, the process table full of
 * zombies, and exec's arguments at their limits (tools/test/threads.sh).
 * Each prints "atk_share: TEST: ok", or a line per broken promise and
 * then "atk_share: TEST: failed"; the script checks that the kernel
 * lives on, its text unchanged and its pages and heap back.
 *
 *	blocked	a child's three threads wait with their buffers in its
 *		heap: one reads an empty pipe, one writes 16 KB to a full
 *		one, one waits for its own child; the main thread takes
 *		the heap away (hidden), and then execs, exits, or grows
 *		the heap over the pages again: each call ends as asked
 *		(the bytes read and written, the pid waited for), and
 *		the bytes written come from the pages as they were.
 *	pipes	reads into a buffer that runs past the heap's end, and
 *		writes of huge lengths, fail with EFAULT and move nothing:
 *		the pipe's bytes are all still there, in order.
 *	zombies	children forked until the table is full, each exiting at
 *		once: each collected once, its status whole; then a child
 *		that fills the table so and exits without waiting: init
 *		collects its orphans, and the table fills again as far.
 *	args	exec with 32 arguments of 4096 bytes in all (taken, and
 *		each argument arrives whole), 33 (E2BIG), 4097 bytes
 *		(E2BIG), a bad pointer in the middle of the vector and a
 *		string that runs past the heap's end (EFAULT).
 *	stale	(for tools/test/stale.sh's gdb) with a thread asleep
 *		beside, a heap page written, taken away (hidden) and read
 *		in stalepoke: gdb, at the read's page fault, shows the page
 *		again as another thread's sbrk would, and the read must
 *		then go on and find the byte written, not kill the process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "lib/check.h"

enum {
	PG	= 4096,
	Psize	= 4096,		/* a pipe's buffer (dev/devpipe.c) */
	Nwrite	= 4*PG,		/* what the writer thread writes: more than a pipe holds */
	Heapsz	= PG + Nwrite + PG,	/* blocked's heap: read buffer, write source, wait's status */
	Maxarg	= 32,		/* exec's limits (kern/dat.h) */
	Argmax	= 4096,
};

/* blocked: what each thread sends back on the result pipe, from its own stack. */
typedef struct Res Res;
struct Res {
	int	who;	/* 0 reader, 1 writer, 2 waiter */
	int	r;	/* the call's result */
	int	err;
};

static int afd[2], bfd[2], resfd[2];	/* a: parent to reader; b: writer to parent; results */
static int readyfd[2];			/* each thread, as it makes its call */
static char *heap;			/* the child's Heapsz: read buffer, write source, status */

/* A thread is about to make its call. */
static void
ready(void)
{
	write(readyfd[1], "r", 1);
}

static void
report(int who, int r)
{
	Res res = { who, r, r < 0 ? errno : 0 };

	write(resfd[1], &res, sizeof res);
}

static void
reader(int i)
{
	(void)i;
	ready();
	report(0, read(afd[0], heap, PG));
}

static void
writer(int i)
{
	(void)i;
	ready();
	report(1, write(bfd[1], heap + PG, Nwrite));
}

static void
waiter(int i)
{
	int pid, w;

	(void)i;
	if((pid = fork()) == 0){
		sleep(30);
		_exit(7);
	}
	ready();
	w = wait((int*)(heap + PG + Nwrite));
	report(2, w == pid ? 0 : w);
}

static void
blockedchild(int mode)
{
	static char *nop[] = { "atk_share", "nop", NULL };
	char c;
	int i;

	/* A page more than Heapsz, to start it at a page. */
	heap = sbrk(Heapsz + PG);
	if(heap == (char*)-1 || pipe(readyfd) < 0)
		_exit(1);
	heap = (char*)(((unsigned long)heap + PG - 1) & ~(PG - 1));
	for(i = 0; i < Nwrite; i++)
		heap[PG + i] = i % 251;
	thread(reader, 0);
	thread(writer, 0);
	thread(waiter, 0);
	for(i = 0; i < 3; i++)
		if(read(readyfd[0], &c, 1) != 1)
			_exit(1);
	sleep(10);	/* all three asleep in their calls */
	if(sbrk(-(Heapsz + PG)) == (void*)-1)
		_exit(2);
	switch(mode){
	case 0:
		exec("/bin/atk_share", nop);
		_exit(3);
	case 1:
		_exit(0);
	default:
		if(sbrk(Heapsz + PG) == (void*)-1)
			_exit(4);
		_exit(0);
	}
}

static void
blocked(int rounds)
{
	static char got[Nwrite];
	Res res;
	int r, i, n, pid, status, seen;

	for(r = 0; r < rounds; r++){
		if(pipe(afd) < 0 || pipe(bfd) < 0 || pipe(resfd) < 0)
			fatal("pipe");
		/* b full, so that the writer waits at once */
		memset(got, 'f', Psize);
		if(write(bfd[1], got, Psize) != Psize)
			fatal("fill");
		if((pid = fork()) < 0)
			fatal("fork");
		if(pid == 0)
			blockedchild(r % 3);
		close(afd[0]);
		close(bfd[1]);
		close(resfd[1]);
		sleep(20);
		if(write(afd[1], "hello", 5) != 5)
			fatal("write a");
		if(read(bfd[0], got, Psize) != Psize)	/* the filling */
			failcase("round %ld: the full pipe's first 4 KB", r, 0);
		for(n = 0; n < Nwrite && (i = read(bfd[0], got + n, Nwrite - n)) > 0; n += i)
			;
		if(n != Nwrite)
			failcase("round %ld: read %ld bytes of the writer's", r, n);
		else if(r % 3 != 2)
			for(i = 0; i < Nwrite; i++)
				if((unsigned char)got[i] != i % 251){
					failcase("round %ld: the byte at %ld changed", r, i);
					break;
				}
		seen = 0;
		while((n = read(resfd[0], &res, sizeof res)) == sizeof res){
			seen |= 1 << res.who;
			if(res.who == 0 && res.r != 5)
				failcase("round %ld: the reader's read: %ld", r, res.r);
			if(res.who == 1 && res.r != Nwrite)
				failcase("round %ld: the writer's write: %ld", r, res.r);
			if(res.who == 2 && res.r != 0)
				failcase("round %ld: the waiter's wait: %ld", r, res.r);
		}
		if(seen != 7)
			failcase("round %ld: results from threads %#lx", r, seen);
		if(wait(&status) != pid || status != 0)
			failcase("round %ld: the child's status %ld", r, status);
		close(afd[1]);
		close(bfd[0]);
		close(resfd[0]);
	}
}

/* pipes: nothing moves by a call that fails with EFAULT. */
static void
pipes(void)
{
	static char src[256];
	char *end, buf[256];
	struct Dir d;
	int p[2], i, n;

	for(i = 0; i < (int)sizeof src; i++)
		src[i] = i;
	end = sbrk(0);
	end = (char*)(((unsigned long)end + PG - 1) & ~(PG - 1));
	if(sbrk(end - (char*)sbrk(0)) == (void*)-1)
		fatal("sbrk");	/* the heap ends at a page's end: end is not mapped */
	if(pipe(p) < 0)
		fatal("pipe");
	if(write(p[1], src, 200) != 200)
		fatal("write");
	errno = 0;
	if((n = read(p[0], end - 50, 100)) != -1 || errno != EFAULT)
		failcase("read past the heap's end: %ld, errno %ld", n, errno);
	errno = 0;
	if((n = write(p[1], src, 0x7fffffff)) != -1 || errno != EFAULT)
		failcase("write of 2^31-1 bytes: %ld, errno %ld", n, errno);
	errno = 0;
	if((n = write(p[1], end - 100, 200)) != -1 || errno != EFAULT)
		failcase("write from past the heap's end: %ld, errno %ld", n, errno);
	if(fstat(p[0], &d) < 0 || d.length != 200)
		failcase("the pipe holds %ld bytes, not 200", (long)d.length, 0);
	if((n = read(p[0], buf, sizeof buf)) != 200 || memcmp(buf, src, 200) != 0)
		failcase("read after: %ld bytes, or not the bytes written", n, 0);
	close(p[0]);
	close(p[1]);
}

/* Fork children that exit at once until the table is full; how many, or -1. */
static int
fillzombies(int *pids, int max)
{
	int n, pid;

	for(n = 0; n < max; n++){
		if((pid = fork()) < 0)
			return errno == EAGAIN ? n : -1;
		if(pid == 0)
			_exit(n << 16 | 3);
		pids[n] = pid;
	}
	return n;
}

static void
zombies(void)
{
	static int pids[128], seen[128];
	int n, m, i, pid, status, got, t;

	if((n = fillzombies(pids, 128)) <= 0)
		fatal("fill");
	for(got = 0; (pid = wait(&status)) > 0; got++){
		for(i = 0; i < n && pids[i] != pid; i++)
			;
		if(i == n || seen[i]++)
			failcase("wait gave pid %ld, not a child or twice", pid, 0);
		else if(status != (i << 16 | 3))
			failcase("child %ld: status %#lx", i, status);
	}
	if(got != n || errno != ECHILD)
		failcase("collected %ld of %ld", got, n);
	/* Orphans: a child fills the table and exits without waiting. */
	if((pid = fork()) == 0)
		_exit(fillzombies(pids, 128) > 0 ? 0 : 1);
	if(pid < 0 || wait(&status) != pid || status != 0)
		failcase("the orphans' parent: status %ld", status, 0);
	/* init collects them; then the table fills as far again. */
	for(t = 0; t < 100; t++){
		sleep(10);
		m = fillzombies(pids, 128);
		waitn(m > 0 ? m : 0);
		if(m >= n)
			break;
	}
	if(m < n)
		failcase("the table fills to %ld, not %ld, after init's turn", m, n);
}

/* args: exec's limits. */
static void
args(void)
{
	static char strs[Maxarg + 1][Argmax];
	char *argv[Maxarg + 2], *end;
	int i, pid, status, len;

	/* 32 arguments, 4096 bytes with their NULs: argv[0] "atk_share", argv[1] "check". */
	len = (Argmax - 10 - 6) / (Maxarg - 2);
	argv[0] = "atk_share";
	argv[1] = "check";
	for(i = 2; i < Maxarg; i++){
		memset(strs[i], 'a' + i % 26, len - 1);
		strs[i][len - 1] = '\0';
		argv[i] = strs[i];
	}
	/* the last takes what is left */
	memset(strs[Maxarg - 1], 'z', Argmax - 10 - 6 - (Maxarg - 3) * len - 1);
	strs[Maxarg - 1][Argmax - 10 - 6 - (Maxarg - 3) * len - 1] = '\0';
	argv[Maxarg] = NULL;
	if((pid = fork()) == 0){
		exec("/bin/atk_share", argv);
		printf("atk_share: args: exec of 4096 bytes: %s\n", strerror(errno));
		_exit(1);
	}
	if(pid < 0 || wait(&status) != pid || status != 0)
		failcase("exec of 32 arguments, 4096 bytes: status %ld", status, 0);
	/* one byte more */
	strs[2][len - 1] = 'x';
	strs[2][len] = '\0';
	errno = 0;
	if(exec("/bin/atk_share", argv) != -1 || errno != E2BIG)
		failcase("exec of 4097 bytes: errno %ld", errno, 0);
	strs[2][len - 1] = '\0';
	argv[Maxarg] = "x";
	argv[Maxarg + 1] = NULL;
	errno = 0;
	if(exec("/bin/atk_share", argv) != -1 || errno != E2BIG)
		failcase("exec of 33 arguments: errno %ld", errno, 0);
	argv[Maxarg] = NULL;
	argv[5] = (char*)0xC0001000;
	errno = 0;
	if(exec("/bin/atk_share", argv) != -1 || errno != EFAULT)
		failcase("exec with a kernel pointer in the vector: errno %ld", errno, 0);
	argv[5] = strs[5];
	end = sbrk(0);
	end = (char*)(((unsigned long)end + PG - 1) & ~(PG - 1));
	if(sbrk(end - (char*)sbrk(0)) == (void*)-1)
		fatal("sbrk");
	memset(end - 8, 'q', 8);	/* no NUL before the heap's end */
	argv[6] = end - 8;
	errno = 0;
	if(exec("/bin/atk_share", argv) != -1 || errno != EFAULT)
		failcase("exec with a string past the heap's end: errno %ld", errno, 0);
}

/* What args's exec runs: the arguments as args made them. */
static int
check(int argc, char *argv[])
{
	int i, len, sum = 0;

	len = (Argmax - 10 - 6) / (Maxarg - 2);
	for(i = 0; i < argc; i++)
		sum += strlen(argv[i]) + 1;
	if(argc != Maxarg || sum != Argmax){
		printf("atk_share: args: FAIL %d arguments, %d bytes\n", argc, sum);
		return 1;
	}
	for(i = 2; i < Maxarg - 1; i++)
		if((int)strlen(argv[i]) != len - 1 || argv[i][0] != 'a' + i % 26 || argv[i][len - 2] != 'a' + i % 26){
			printf("atk_share: args: FAIL argument %d\n", i);
			return 1;
		}
	return 0;
}

/* stale: the page stalepoke reads, for gdb; the pipe the thread beside it waits on. */
volatile char	*staleaddr;
static int	stalep[2];

static void
sleeper(int i)
{
	char c;

	(void)i;
	close(stalep[1]);	/* its own copy: the main thread's end, or its exit, ends the read */
	read(stalep[0], &c, 1);
}

static __attribute__((noinline)) int
stalepoke(void)
{
	return *staleaddr;
}

static void
stale(void)
{
	char *brk;
	int c;

	if(pipe(stalep) < 0)
		fatal("pipe");
	thread(sleeper, 0);
	brk = sbrk(0);
	if(sbrk(PG) == (void*)-1)
		fatal("sbrk");
	brk[0] = 'x';
	staleaddr = brk;
	if(sbrk(-PG) == (void*)-1)
		fatal("sbrk");
	c = stalepoke();
	if(c != 'x')
		failcase("the page read %ld, not %ld", c, 'x');
	write(stalep[1], "", 1);
	if(waitn(1) != 0)
		failcase("the sleeper ended with a status, %ld of %ld", 1, 1);
}

int
main(int argc, char *argv[])
{
	static char usage[] = "atk_share blocked|pipes|zombies|args|stale [rounds]";

	if(argc < 2){
		fprintf(stderr, "usage: %s\n", usage);
		return 1;
	}
	testcase = argv[1];
	/* What args execs: the rest are its arguments, not a count. */
	if(strcmp(testcase, "nop") == 0)
		return 0;
	if(strcmp(testcase, "check") == 0)
		return check(argc, argv);
	if(strcmp(testcase, "blocked") == 0)
		blocked(argc > 2 ? argcount(argv[2], usage) : 30);
	else if(strcmp(testcase, "pipes") == 0)
		pipes();
	else if(strcmp(testcase, "zombies") == 0)
		zombies();
	else if(strcmp(testcase, "args") == 0)
		args();
	else if(strcmp(testcase, "stale") == 0)
		stale();
	else{
		fprintf(stderr, "atk_share: unknown test %s\n", testcase);
		return 1;
	}
	printf("atk_share: %s: %s\n", testcase, nfail ? "failed" : "ok");
	return nfail != 0;
}
