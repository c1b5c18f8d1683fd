/*
 * threadtest: check rfork(RFPROC|RFMEM) threads, and profil(2) and
 * pcsample(2) at the process level (profil(2)), against a hostile
 * program's ways too.
 *
 *	threadtest [-stack]
 *
 * Prints "ok NAME" or "FAIL NAME: why" for each check (with -stack,
 * only those of buffers on a thread's stack), then "threadtest: ok" and
 * exits 0 if all passed.  Threads print nothing:
 * they report through shared memory, and main prints.  The profiling
 * checks spin in spinloop, whose text is 8 bytes at a 16-byte boundary,
 * and compare the counters with the ticks the threads ran with a
 * profiler on, from #c/proctime.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <pcsample.h>
#include "clock.h"
#include "lib/check.h"
#include "lock.h"

enum {
	UTEXT	= 0x1000,	/* where user text starts (user/user.ld) */
	PGSIZE	= 4096,
	NHIST	= 32768,	/* profil's counters: 64 KB of text at 2 bytes each */
	NSAMP	= 16384,	/* room in samples */
	NTHR	= 4,		/* threads in most checks */
	CHUNK	= 1<<16,	/* rounds of spinloop between looks at a flag */
	NPROC	= 64,		/* the kernel's process table */
};

extern char	etext[];

static unsigned short	hist[NHIST];
static uintptr_t	samples[NSAMP];
static unsigned long	T;	/* ticks a check spins for */

/* Shared by the threads of a check. */
static volatile int	stop;	/* the threads are to stop spinning */
static volatile int	shared;	/* a thread writes it; main reads it */
static volatile int	started;	/* threads that have begun */
static Lock	lk;
static long	counter;	/* under lk */
static volatile unsigned long	spins[NPROC];	/* each thread's rounds of CHUNK */

/* Spin for n ticks, CHUNK rounds of spinloop between looks at the clock. */
static void
spin(unsigned long n)
{
	spinticks(n, CHUNK);
}

/* The ticks this process's threads have run with a profiler on. */
static unsigned long
profiled(void)
{
	unsigned long ticks, prof;

	if(proctime(&ticks, &prof) < 0)
		fatal("/dev/proctime");
	return prof;
}

/*
 * rfork(RFPROC|RFMEM) for a thread that exits at once, waited for:
 * rfork's result, and its errno in *err.
 */
static int
trythread(int *err)
{
	int pid;

	errno = 0;
	if((pid = rfork(RFPROC|RFMEM)) == 0)
		_exit(0);
	*err = errno;
	if(pid > 0)
		waitn(1);
	return pid;
}

/* A thread body: spin until stop, counting rounds in spins[i]. */
static void
spinner(int i)
{
	lock(&lk);
	started++;
	unlock(&lk);
	while(!stop){
		spinloop(CHUNK);
		spins[i]++;
	}
}

/* Start n spinners, let them (and main) spin for t ticks, stop them, and wait. */
static void
spinall(int n, unsigned long t)
{
	int i;

	stop = 0;
	for(i = 0; i < n; i++)
		thread(spinner, i);
	spin(t);
	stop = 1;
	if(waitn(n) != 0)
		fail("spinners", "a spinner failed");
}

/*
 * Data, bss and heap are shared; the stack is the thread's own copy;
 * wait returns the thread with its status; sbrk by one is seen by all.
 */
static void
testshare(void)
{
	static char *volatile grown;	/* static: a local would be the thread's own */
	volatile int local;
	char *volatile heap;
	int pid, status;

	local = 1;
	shared = 0;
	heap = malloc(64);
	grown = NULL;
	strcpy(heap, "parent");
	pid = rfork(RFPROC|RFMEM);
	if(pid < 0)
		fatal("rfork");
	if(pid == 0){
		local = 2;
		shared = local == 2 ? 42 : 1;
		strcpy(heap, "thread");
		if((grown = sbrk(2*PGSIZE)) != (void*)-1)
			memset(grown, 'g', 2*PGSIZE);
		_exit(7);
	}
	if(wait(&status) != pid)
		fail("rfork-wait", "wait did not return the thread");
	else if(status != 7)
		fail("rfork-wait", "status %d, not 7", status);
	else
		ok("rfork-wait");
	if(shared != 42)
		fail("rfork-data", "shared is %d after the thread set it", shared);
	else
		ok("rfork-data");
	if(local != 1)
		fail("rfork-stack", "the thread's stack is the parent's: local is %d", local);
	else
		ok("rfork-stack");
	if(strcmp(heap, "thread") != 0)
		fail("rfork-heap", "heap says %s", heap);
	else
		ok("rfork-heap");
	if(grown == NULL || grown == (void*)-1 || grown[0] != 'g' || grown[2*PGSIZE-1] != 'g')
		fail("rfork-sbrk", "the thread's sbrk is not seen by its parent");
	else
		ok("rfork-sbrk");
	free(heap);
}

/* Bad flags: EINVAL. */
static void
testflags(void)
{
	static int bad[] = { 0, RFMEM, RFPROC|RFMEM|(1<<10), RFPROC|1, -1 };
	unsigned int i;
	int r;

	for(i = 0; i < sizeof bad / sizeof bad[0]; i++){
		errno = 0;
		r = rfork(bad[i]);
		if(r == 0)
			_exit(99);	/* a child that should not be */
		if(r != -1 || errno != EINVAL){
			fail("rfork-flags", "rfork(%#x) returned %d, errno %d", bad[i], r, errno);
			if(r > 0)
				wait(NULL);
			return;
		}
	}
	ok("rfork-flags");
}

/* lock and unlock keep a counter whole; malloc and free from several threads at once. */
static void
addloop(int i)
{
	int k;

	(void)i;
	for(k = 0; k < 20000; k++){
		lock(&lk);
		counter++;
		unlock(&lk);
	}
}

static void
mallocloop(int i)
{
	unsigned char *p[16];
	int k, j, n, bad;

	bad = 0;
	for(k = 0; k < 300; k++){
		for(j = 0; j < 16; j++){
			n = 1 + (k*31 + j*97 + i*13) % 3000;
			if((p[j] = malloc(n)) == NULL){
				bad++;
				continue;
			}
			memset(p[j], i*16 + j, n);
		}
		for(j = 0; j < 16; j++){
			if(p[j] == NULL)
				continue;
			n = 1 + (k*31 + j*97 + i*13) % 3000;
			if(p[j][0] != (unsigned char)(i*16 + j) || p[j][n-1] != (unsigned char)(i*16 + j))
				bad++;
			free(p[j]);
		}
	}
	if(bad)
		_exit(1);
}

static void
testlibc(void)
{
	int i;

	counter = 0;
	for(i = 0; i < NTHR; i++)
		thread(addloop, i);
	addloop(NTHR);
	if(waitn(NTHR) != 0 || counter != 20000L*(NTHR + 1))
		fail("lock", "counter %ld, not %ld", counter, 20000L*(NTHR + 1));
	else
		ok("lock");
	for(i = 0; i < NTHR; i++)
		thread(mallocloop, i + 1);
	mallocloop(0);
	if(waitn(NTHR) != 0)
		fail("malloc", "a thread's blocks were written over or not given");
	else
		ok("malloc");
}

/*
 * Profiling: every thread's ticks count into the one buffer, none
 * lost (the sum of the counters is the ticks the threads ran with
 * profil on); a counter driven past 65535 by several threads stays
 * there; and a call by a thread sets profiling for all.
 */
static void
testprofil(void)
{
	unsigned long n, c, p0, p1, all;
	int pid;

	n = ((uintptr_t)etext - UTEXT + 1) / 2;
	memset(hist, 0, sizeof hist);
	p0 = profiled();
	if(profil(hist, 2*n, UTEXT, 0x10000) < 0)
		fatal("profil");
	spinall(NTHR, T);
	profil(NULL, 0, 0, 0);
	p1 = profiled();
	all = histsum(hist, 0, NHIST);
	c = histsum(hist, ((uintptr_t)spinloop - UTEXT)/2, ((uintptr_t)spinend - UTEXT + 1)/2);
	if(all != p1 - p0)
		fail("profil-exact", "%lu ticks counted, %lu profiled", all, p1 - p0);
	else if(c < all/2 || all < T)
		fail("profil-exact", "%lu of %lu ticks in spinloop, in %lu ticks", c, all, T);
	else
		ok("profil-exact");

	/* spinloop in one counter at 0x4000, started near the top. */
	c = ((uintptr_t)spinloop - UTEXT) / 8;
	memset(hist, 0, sizeof hist);
	hist[c] = 65200;
	profil(hist, sizeof hist, UTEXT, 0x4000);
	spinall(NTHR, 500);
	profil(NULL, 0, 0, 0);
	if(hist[c] != 65535)
		fail("profil-saturate", "counter is %u, not 65535", hist[c]);
	else
		ok("profil-saturate");

	/* A thread turns profiling on; main's ticks count too; a thread turns it off. */
	memset(hist, 0, sizeof hist);
	pid = rfork(RFPROC|RFMEM);
	if(pid == 0){
		profil(hist, 2*n, UTEXT, 0x10000);
		_exit(0);
	}
	waitn(1);
	p0 = histsum(hist, 0, NHIST);
	spin(T/4 + 2);
	p1 = histsum(hist, 0, NHIST);
	if(rfork(RFPROC|RFMEM) == 0){
		profil(NULL, 0, 0, 0);
		_exit(0);
	}
	waitn(1);
	all = histsum(hist, 0, NHIST);
	spin(T/4 + 2);
	if(p1 - p0 < T/8)
		fail("profil-set-by-thread", "main counted %lu ticks after a thread set profil", p1 - p0);
	else if(histsum(hist, 0, NHIST) != all)
		fail("profil-set-by-thread", "counting after a thread turned profil off");
	else
		ok("profil-set-by-thread");
}

/*
 * pcsample from two threads: exactly as many distinct samples as ticks
 * until full, each slot written once (a slot written twice would leave
 * another empty), and none past the end.
 */
static void
testpcsample(void)
{
	unsigned long p0, p1;
	long r, i, nz, bad;

	memset(samples, 0, sizeof samples);
	pcsample(NULL, 0);
	p0 = profiled();
	pcsample(samples, NSAMP);
	spinall(2, T);
	r = pcsample(NULL, 0);
	p1 = profiled();
	nz = bad = 0;
	for(i = 0; i < NSAMP; i++){
		nz += samples[i] != 0;
		bad += i < r && (samples[i] < UTEXT || samples[i] >= (uintptr_t)etext);
	}
	if(r != (long)(p1 - p0) || nz != r || bad != 0)
		fail("pcsample-threads", "returned %ld, %ld stored, %lu ticks profiled, %ld outside text",
			r, nz, p1 - p0, bad);
	else
		ok("pcsample-threads");

	memset(samples, 0, sizeof samples);
	pcsample(samples, 100);
	spinall(2, 200/2 + T/4);
	r = pcsample(NULL, 0);
	for(i = nz = 0; i < NSAMP; i++)
		nz += samples[i] != 0;
	if(r != 100 || nz != 100 || !allzero(samples + 100, sizeof samples - 100*sizeof samples[0]))
		fail("pcsample-threads-full", "returned %ld, %ld stored", r, nz);
	else
		ok("pcsample-threads-full");
}

/*
 * The fault rule for all threads at once: main takes the heap pages of
 * the counters away while the threads spin (on other processors, when
 * there are some); profiling is off for all, and the pages come back
 * zero and stay zero.  A system call on the pages gone is EFAULT.
 */
static void
testfault(void)
{
	unsigned short *buf;
	char *p;
	int fd[2], i;

	p = sbrk(0);
	if(sbrk((PGSIZE - (uintptr_t)p % PGSIZE) % PGSIZE) == (void*)-1
	|| (p = sbrk(2*PGSIZE)) == (void*)-1)
		fatal("sbrk");
	buf = (unsigned short*)p;
	profil(buf, 2*PGSIZE, (uintptr_t)spinloop, 0x4000);
	stop = 0;
	started = 0;
	for(i = 0; i < 2; i++)
		thread(spinner, i);
	while(started < 2 || buf[0] == 0)
		spinloop(CHUNK);
	if(sbrk(-2*PGSIZE) == (void*)-1)
		fatal("sbrk");
	spin(T/4 + 2);
	if(sbrk(2*PGSIZE) != p)
		fatal("sbrk");
	i = allzero(p, 2*PGSIZE);
	spin(T/4 + 2);
	stop = 1;
	waitn(2);
	if(!i)
		fail("fault-all-threads", "the pages were not zero when the heap grew again");
	else if(!allzero(p, 2*PGSIZE))
		fail("fault-all-threads", "profiling still on after the fault");
	else
		ok("fault-all-threads");
	profil(NULL, 0, 0, 0);
	if(sbrk(-2*PGSIZE) == (void*)-1 || pipe(fd) < 0)
		fatal("sbrk");
	if(write(fd[1], p, 16) != -1 || errno != EFAULT)
		fail("fault-syscall", "write from a page taken away did not fail with EFAULT");
	else
		ok("fault-syscall");
	close(fd[0]);
	close(fd[1]);
}

/*
 * A thread blocked in read into heap pages that another thread then
 * takes away with sbrk: the read ends when the pipe is written, into
 * pages still the image's, and the kernel goes on.  A thread exits
 * while the other is in a system call.
 */
static int	pfd[2];
static char	*readbuf;

static void
reader(int i)
{
	(void)i;
	started = 1;
	if(read(pfd[0], readbuf, 64) != 5)
		_exit(1);
}

static void
testsyscall(void)
{
	char *p;
	int pid, status;

	if(pipe(pfd) < 0)
		fatal("pipe");
	p = sbrk(0);
	if(sbrk((PGSIZE - (uintptr_t)p % PGSIZE) % PGSIZE) == (void*)-1
	|| (p = sbrk(PGSIZE)) == (void*)-1)
		fatal("sbrk");
	readbuf = p;
	started = 0;
	pid = thread(reader, 0);
	while(!started)
		spinloop(CHUNK);
	spin(3);	/* into its read */
	if(sbrk(-PGSIZE) == (void*)-1)
		fatal("sbrk");
	if(write(pfd[1], readbuf, 1) != -1 || errno != EFAULT)
		fail("hidden-page-efault", "a write from a page sbrk took away did not fail with EFAULT");
	else
		ok("hidden-page-efault");
	write(pfd[1], "hello", 5);
	if(wait(&status) != pid || status != 0)
		fail("read-into-pages-gone", "the reader's read failed or it died (%d)", status);
	else
		ok("read-into-pages-gone");
	close(pfd[0]);
	close(pfd[1]);
}

/*
 * exec by one thread takes it out of the image, its profiling off; the
 * others go on counting.  A child process does it all, as its image is
 * the one the exec leaves.
 */
static void
execer(int i)
{
	char *argv[] = { "threadtest", "-exec-child", NULL };

	(void)i;
	exec("/bin/threadtest", argv);
	_exit(100);
}

static void
testexec(void)
{
	unsigned long n, c0, c1;
	int pid, status, tid;

	fflush(stdout);
	if((pid = fork()) < 0)
		fatal("fork");
	if(pid == 0){
		nfail = 0;
		n = ((uintptr_t)etext - UTEXT + 1) / 2;
		memset(hist, 0, sizeof hist);
		memset(samples, 0, sizeof samples);
		profil(hist, 2*n, UTEXT, 0x10000);
		pcsample(samples, NSAMP);
		tid = thread(execer, 0);
		c0 = histsum(hist, 0, NHIST);
		if(wait(&status) != tid)
			exit(1);
		spin(T/4 + 2);
		c1 = histsum(hist, 0, NHIST);
		profil(NULL, 0, 0, 0);
		if(status != 0)
			fail("exec-thread", "the exec'd thread found %d of its checks failed", status);
		else if(c1 - c0 < T/8)
			fail("exec-thread", "the others counted %lu ticks after a thread's exec", c1 - c0);
		else
			ok("exec-thread");
		exit(nfail);
	}
	if(wait(&status) != pid)
		fatal("wait");
	nfail += status;
}

/* The exec'd side of testexec: its bss is where the old image's was. */
static int
execchild(void)
{
	spin(T/4 + 2);
	if(!allzero(hist, sizeof hist) || !allzero(samples, sizeof samples))
		return 1;
	return pcsample(NULL, 0) != 0;
}

/*
 * fork from a thread: the child has its own image, with a copy of the
 * profiling state, and counts into its own copy only.
 */
static void
forker(int i)
{
	unsigned long before, c;
	int pid, status;

	(void)i;
	before = histsum(hist, 0, NHIST);
	if((pid = fork()) < 0)
		_exit(2);
	if(pid == 0){
		c = histsum(hist, 0, NHIST);
		spin(T/4 + 2);
		_exit(histsum(hist, 0, NHIST) - c < T/8);
	}
	if(wait(&status) != pid || status != 0)
		_exit(3);
	shared = histsum(hist, 0, NHIST) - before;
}

static void
testforkthread(void)
{
	unsigned long n;

	n = ((uintptr_t)etext - UTEXT + 1) / 2;
	memset(hist, 0, sizeof hist);
	profil(hist, 2*n, UTEXT, 0x10000);
	shared = -1;
	thread(forker, 0);
	if(waitn(1) != 0)
		fail("fork-from-thread", "the child did not count into its own copy");
	else if(shared < 0 || shared > (int)(T/8))
		fail("fork-from-thread", "the child's %d ticks counted in the parent", shared);
	else
		ok("fork-from-thread");
	profil(NULL, 0, 0, 0);
}

/*
 * A buffer on the stack, which each thread has a copy of at the same
 * address: while the image has threads, profil and pcsample refuse it
 * (EINVAL), and the spinning threads' copies stay zero; while a
 * profiler counts into it, rfork(RFMEM) refuses a thread (EBUSY) and
 * fork goes on; once it is off, threads again.
 */
static unsigned short	*stackhist;	/* main's stack buffers, for the threads to look at their copies */
static uintptr_t	*stacksamp;

static void
stackspinner(int i)
{
	spinner(i);
	if(!allzero(stackhist, 64*sizeof stackhist[0]) || !allzero(stacksamp, 64*sizeof stacksamp[0]))
		_exit(1);
}

static void
teststack(void)
{
	unsigned short buf[64];
	uintptr_t samp[64];
	int r1, e1, r2, e2, pid, status;

	memset(buf, 0, sizeof buf);
	memset(samp, 0, sizeof samp);
	stackhist = buf;
	stacksamp = samp;
	stop = 0;
	started = 0;
	thread(stackspinner, 0);
	thread(stackspinner, 1);
	while(started < 2)
		spinloop(CHUNK);
	errno = 0;
	r1 = profil(buf, sizeof buf, (uintptr_t)spinloop, 0x4000);
	e1 = errno;
	errno = 0;
	r2 = pcsample(samp, 64);
	e2 = errno;
	spin(T/4 + 2);
	stop = 1;
	profil(NULL, 0, 0, 0);
	pcsample(NULL, 0);
	if(r1 != -1 || e1 != EINVAL || r2 != -1 || e2 != EINVAL)
		fail("stack-buf-threads", "profil returned %d (errno %d), pcsample %d (errno %d)", r1, e1, r2, e2);
	else if(waitn(2) != 0)
		fail("stack-buf-threads", "a thread's copy of the buffer was written");
	else if(!allzero(buf, sizeof buf) || !allzero(samp, sizeof samp))
		fail("stack-buf-threads", "the refused buffer was written");
	else
		ok("stack-buf-threads");

	if(profil(buf, sizeof buf, (uintptr_t)spinloop, 0x4000) < 0){
		fail("stack-buf-rfork", "profil into the stack of a lone thread: %s", strerror(errno));
		return;
	}
	spin(T/4 + 2);
	pid = trythread(&e1);
	fflush(stdout);
	if((r1 = fork()) == 0)
		_exit(0);
	r2 = r1 > 0 && wait(&status) == r1 && status == 0;
	profil(NULL, 0, 0, 0);
	if(buf[0] == 0)
		fail("stack-buf-rfork", "no ticks in the lone thread's stack buffer");
	else if(pid != -1 || e1 != EBUSY)
		fail("stack-buf-rfork", "rfork(RFMEM) with profil on the stack returned %d (errno %d)", pid, e1);
	else if(!r2)
		fail("stack-buf-rfork", "fork with profil on the stack failed");
	else
		ok("stack-buf-rfork");

	pcsample(samp, 64);
	pid = trythread(&e1);
	pcsample(NULL, 0);
	r1 = trythread(&e2);
	if(pid != -1 || e1 != EBUSY)
		fail("stack-samples-rfork", "rfork(RFMEM) with pcsample on the stack returned %d (errno %d)", pid, e1);
	else if(r1 < 0)
		fail("stack-samples-rfork", "rfork(RFMEM) once pcsample was off: %s", strerror(errno));
	else
		ok("stack-samples-rfork");
}

/*
 * kill of one thread: it dies, the others go on; wait from a thread
 * (for a thread it made); the process table filled with threads
 * (EAGAIN, then all of them exit cleanly); the image's first thread
 * exiting before the others.
 */
static void
waiter(int i)
{
	int pid, status;

	(void)i;
	pid = rfork(RFPROC|RFMEM);
	if(pid == 0){
		shared = 5;
		_exit(5);
	}
	if(pid < 0 || wait(&status) != pid || status != 5)
		_exit(1);
}

static void
sleeper(int i)
{
	char c;

	(void)i;
	read(pfd[0], &c, 1);
}

static void
testprocs(void)
{
	unsigned long s0;
	char wake[NPROC];
	int pid, n, status, child;

	stop = 0;
	spins[0] = spins[1] = 0;
	pid = thread(spinner, 0);
	thread(spinner, 1);
	while(spins[0] == 0 || spins[1] == 0)
		spinloop(CHUNK);
	kill(pid);
	if(wait(&status) != pid || status == 0)
		fail("kill-one-thread", "wait gave no killed thread");
	else{
		s0 = spins[1];
		spin(T/4 + 2);
		if(spins[1] == s0)
			fail("kill-one-thread", "the other thread stopped too");
		else
			ok("kill-one-thread");
	}
	stop = 1;
	waitn(1);

	shared = 0;
	thread(waiter, 0);
	if(waitn(1) != 0 || shared != 5)
		fail("wait-from-thread", "a thread could not wait for its own thread");
	else
		ok("wait-from-thread");

	if(pipe(pfd) < 0)
		fatal("pipe");
	for(n = 0; n < NPROC; n++){
		pid = rfork(RFPROC|RFMEM);
		if(pid == 0){
			sleeper(0);
			_exit(0);
		}
		if(pid < 0)
			break;
	}
	if(pid >= 0 || errno != EAGAIN)
		fail("rfork-bomb", "%d threads, then %d (errno %d), not EAGAIN", n, pid, errno);
	else
		ok("rfork-bomb");
	/* Each has its own copy of the write end: a byte each, not end of file, ends them. */
	memset(wake, 'w', sizeof wake);
	write(pfd[1], wake, n);
	close(pfd[1]);
	if(waitn(n) != 0)
		fail("rfork-bomb-exit", "a thread failed");
	else
		ok("rfork-bomb-exit");
	close(pfd[0]);

	/* The first thread exits at once; its threads go on, then exit. */
	if(pipe(pfd) < 0)
		fatal("pipe");
	fflush(stdout);
	if((child = fork()) == 0){
		thread(sleeper, 0);
		thread(sleeper, 1);
		_exit(0);
	}
	if(wait(&status) != child || status != 0)
		fail("first-exits-first", "the first thread's exit");
	else{
		write(pfd[1], "ab", 2);
		ok("first-exits-first");
	}
	close(pfd[0]);
	close(pfd[1]);
}

int
main(int argc, char *argv[])
{
	now();
	T = hz/10 < 20 ? 20 : hz/10;
	if(argc == 2 && strcmp(argv[1], "-exec-child") == 0)
		return execchild();
	if(argc == 2 && strcmp(argv[1], "-stack") == 0)
		teststack();
	else if(argc != 1){
		fprintf(stderr, "usage: threadtest [-stack]\n");
		return 1;
	}else{
		if(((uintptr_t)etext - UTEXT + 1) / 2 > NHIST)
			fatal("text too big for hist");
		testshare();
		testflags();
		testlibc();
		testprofil();
		testpcsample();
		testfault();
		testsyscall();
		testexec();
		testforkthread();
		teststack();
		testprocs();
	}
	if(nfail != 0){
		printf("threadtest: %d failed\n", nfail);
		return 1;
	}
	printf("threadtest: ok\n");
	return 0;
}
