/*
 * faults TEST [ROUNDS]: races that hostile programs found on several
 * processors, each checked as an invariant, never as a time
 * (tools/test/faults.sh).  Each test prints "faults: TEST: ok", or a
 * line per broken promise and then "faults: TEST: failed" (exit 1).
 *
 *	append	8 processes, each with its own open of one file with
 *		O_APPEND, write 200 records each: every record is in the
 *		file once, whole.  Then 4 write 4 blocks of 96 KB each,
 *		more than the root file system copies between scheduling
 *		points: every block is whole, and there once.  And after
 *		an append the offset is the end.
 *	mounts	each round, 4 threads bind a directory each onto one new
 *		directory at once, union before or after: each finds its
 *		bind there, unmounts it, and finds it gone; then none is
 *		there.
 *	kpread	with kprof's stack tables full, one reader of #T/kpstack
 *		a processor, reading it whole again and again, while this
 *		process sleeps 100 ms three times: each sleep takes at
 *		most 110 ms, in clock ticks (a read takes scheduling
 *		points, and its waiters sleep).
 *	kill	a kill lands in every state: a child killed while it is
 *		forked (by a thread that kills its pid as soon as there
 *		is one), runnable or running, asleep in a sleep, a pipe's
 *		read or write, a wait, or for a channel's lock, or in
 *		exec or the program it starts (faults linger), dies with
 *		status 255, and kill returned 0; one killed as it exits
 *		dies either way, and kill returned 0 or ESRCH.  A lost kill
 *		shows as status 7: each child exits so when what it waits
 *		for ends (half a second's sleep, or the pipe's other end
 *		closed), rather than hang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"
#include "lib/check.h"

enum {
	Lost	= 7,	/* a child's status when the kill did not land */
	Killed	= 255,	/* the status of a killed process */
	Forkmem	= 4<<20,	/* for fork to copy, at its scheduling points */
	Nappend	= 8,		/* writers of records */
	Nrec	= 200,		/* records each writes */
	Reclen	= 16,		/* bytes in a record */
	Nbig	= 4,		/* writers of blocks */
	Bigblocks	= 4,	/* blocks each writes */
	Bigsize	= 96*1024,	/* bytes in a block: past the root file system's 64 KB pieces */
	Nbinders	= 4,	/* threads that bind onto one new directory at once */
	MAXMACH	= 8,		/* processors at most */
};


/* Busy for about n turns of a loop, to vary where a kill lands. */
static void
delay(int n)
{
	volatile int i;

	for(i = 0; i < n*1000; i++)
		;
}

/* Wait for pid, which must die of a kill. */
static void
reap(const char *what, int pid)
{
	char msg[64];
	int st, r;

	if((r = wait(&st)) != pid){
		snprintf(msg, sizeof msg, "%s: wait", what);
		failcall(msg, r);
	}else if(st != Killed){
		snprintf(msg, sizeof msg, "%s: exit status %d, not killed", what, st);
		failcall(msg, st);
	}
}

/* Kill pid, which must be there to kill. */
static void
mustkill(const char *what, int pid)
{
	char msg[64];
	int r;

	if((r = kill(pid)) != 0){
		snprintf(msg, sizeof msg, "%s: kill", what);
		failcall(msg, r);
	}
}

/*
 * Shared with the killer thread: it kills target as soon as the pid
 * exists, and sets done.  Pids are never reused and the test forks
 * alone, so the next child's pid is the last one's plus one.
 */
static volatile int	target, done, quit;

static void
killer(void)
{
	int t;

	while(!quit){
		if((t = target) != 0 && !done && kill(t) == 0){
			target = 0;
			done = 1;
		}
	}
	exit(0);
}

/* Killed while fork makes it: the kill is there before the child first runs. */
static void
forking(int rounds)
{
	int i, pid, kpid, next;
	char *mem;

	/* Memory for fork to copy: the child is Embryo the longer. */
	if((mem = sbrk(Forkmem)) == (void*)-1){
		failcall("sbrk", -1);
		return;
	}
	memset(mem, 1, Forkmem);
	if((kpid = rfork(RFPROC|RFMEM)) == 0)
		killer();
	if(kpid < 0){
		failcall("rfork", kpid);
		return;
	}
	next = kpid + 1;
	for(i = 0; i < rounds; i++){
		done = 0;
		target = next;
		if((pid = fork()) == 0){
			sleep(500);
			exit(Lost);
		}
		if(!forkednext(pid, &next))
			break;
		while(!done)
			sleep(1);
		reap("fork", pid);
	}
	quit = 1;
	target = 0;
	if(wait(NULL) != kpid)
		failcall("wait for the killer", -1);
}

/* A child spinning in user mode, runnable or running, as there are more than processors. */
static void
running(int n)
{
	int pid[16], i, st = 0;

	for(i = 0; i < n; i++)
		if((pid[i] = fork()) == 0)
			for(;;)
				;
	for(i = 0; i < n; i++)
		mustkill("running", pid[i]);
	for(i = 0; i < n; i++)
		if(wait(&st) < 0 || st != Killed)
			failcall("running: not killed", st);
}

/* Asleep in sleep, or on its way there. */
static void
sleeping(int rounds)
{
	int i, pid;

	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0){
			sleep(500);
			exit(Lost);
		}
		delay(i % 4);
		mustkill("sleep", pid);
		reap("sleep", pid);
	}
}

/*
 * Kill pid, asleep on the pipe fd, and reap it; the pipe is closed in
 * between, so that after a lost kill its read or write ends, and reap
 * sees the child's status rather than waiting for ever.
 */
static void
killpiped(char *what, int pid, int *fd)
{
	mustkill(what, pid);
	close(fd[0]);
	close(fd[1]);
	reap(what, pid);
}

/* A child asleep reading fd, to be killed there; its pid. */
static int
reader(int fd)
{
	char c;
	int pid;

	if((pid = fork()) == 0){
		read(fd, &c, 1);
		exit(Lost);
	}
	return pid;
}

/*
 * Asleep on a pipe: in its read (Pread), in its write with the pipe
 * full (Pwrite), or in wait for a child asleep in its read (Pwait).
 */
enum { Pread, Pwrite, Pwait };

static void
piping(int rounds, int how)
{
	static char buf[8192];
	static char *what[] = { "pipe read", "pipe write", "wait" };
	int i, pid, fd[2];

	for(i = 0; i < rounds; i++){
		if(pipe(fd) < 0){
			failcall("pipe", -1);
			return;
		}
		if((pid = fork()) == 0){
			if(how == Pwrite)
				write(fd[1], buf, sizeof buf);
			else if(how == Pread || fork() == 0){
				close(fd[1]);
				read(fd[0], buf, 1);
				exit(how == Pread ? Lost : 0);
			}else
				wait(NULL);
			exit(Lost);
		}
		delay(i % 4);
		killpiped(what[how], pid, fd);
	}
}

/*
 * Asleep for a channel's lock: a child holds the read end's lock,
 * reading an empty pipe, while a second waits for it on the same
 * descriptor.  The second is killed first.
 */
static void
locked(int rounds)
{
	int i, holder, waiter, fd[2];

	for(i = 0; i < rounds; i++){
		if(pipe(fd) < 0){
			failcall("pipe", -1);
			return;
		}
		holder = reader(fd[0]);
		sleep(2);
		waiter = reader(fd[0]);
		delay(i % 4);
		mustkill("lock", waiter);
		reap("lock", waiter);
		killpiped("lock holder", holder, fd);
	}
}

/*
 * Killed as it execs: the kill lands in exec's walk, its reading of
 * the program, its leaving of the old image, or in the program it
 * starts, which sleeps half a second; the child dies wherever.
 */
static void
execing(int rounds)
{
	static char *argv[] = { "faults", "linger", NULL };
	int i, pid;

	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0){
			exec("/bin/faults", argv);
			exit(Lost + 1);
		}
		delay(i % 25);
		mustkill("exec", pid);
		reap("exec", pid);
	}
}

/* Killed as it exits: it dies, and the kill succeeds or finds no process. */
static void
exiting(int rounds)
{
	int i, pid = 0, st, r;

	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0)
			exit(0);
		delay(i % 4);
		while((r = kill(pid)) == 0)
			;
		if(errno != ESRCH)
			failcall("exit: kill", r);
		if((r = wait(&st)) != pid || (st != 0 && st != Killed))
			failcall("exit: wait", r == pid ? st : r);
	}
	if((r = kill(pid)) != -1 || errno != ESRCH)
		failcall("kill of a process gone", r);
}

/*
 * Writers that open path each with O_APPEND, all started at once (a
 * pipe's close): writer w writes n blocks of len bytes, block b filled
 * by fill(w, b) (records end in a newline).
 */
static void
appenders(const char *path, int nw, int n, int len, void (*fill)(char*, int, int, int))
{
	char *buf, c;
	int w, b, fd, go[2], st;

	if(pipe(go) < 0){
		failcall("append: pipe", -1);
		return;
	}
	for(w = 0; w < nw; w++){
		if(fork() != 0)
			continue;
		close(go[1]);
		if((fd = open(path, O_WRONLY|O_APPEND)) < 0 || (buf = malloc(len)) == NULL)
			exit(1);
		read(go[0], &c, 1);
		for(b = 0; b < n; b++){
			fill(buf, w, b, len);
			if(write(fd, buf, len) != len)
				exit(1);
		}
		exit(0);
	}
	close(go[0]);
	close(go[1]);
	for(w = 0; w < nw; w++)
		if(wait(&st) < 0 || st != 0)
			failcall("append: a writer failed", st);
}

/* A record: "wW rRRRR", dots, a newline. */
static void
record(char *buf, int w, int r, int len)
{
	int k = snprintf(buf, len, "w%d r%04d", w, r);

	memset(buf + k, '.', len - 1 - k);
	buf[len - 1] = '\n';
}

/* A block: one byte, the writer's and the block's, throughout. */
static void
block(char *buf, int w, int b, int len)
{
	memset(buf, 'A' + w*Bigblocks + b, len);
}

/* The file's records: each of nw writers' n there once, whole, and nothing else. */
static void
checkrecords(const char *path, int nw, int n)
{
	static char seen[Nappend][Nrec], buf[Reclen*Nappend*Nrec + 1];
	char want[Reclen];
	long got = 0, r;
	int fd, i, w, k;

	memset(seen, 0, sizeof seen);
	if((fd = open(path, O_RDONLY)) < 0){
		failcall("append: open to check", fd);
		return;
	}
	while(got < (long)sizeof buf && (r = read(fd, buf + got, sizeof buf - got)) > 0)
		got += r;
	close(fd);
	if(got != (long)Reclen*nw*n)
		failcall("append: file length, not the records' sum", got);
	for(i = 0; i + Reclen <= got; i += Reclen){
		if(buf[i] != 'w' || (w = buf[i+1] - '0') < 0 || w >= nw
		|| (k = strtol(buf + i + 4, NULL, 10)) < 0 || k >= n){
			failcall("append: a record torn at byte", i);
			continue;
		}
		record(want, w, k, Reclen);
		if(memcmp(want, buf + i, Reclen) != 0)
			failcall("append: a record torn at byte", i);
		else if(seen[w][k]++)
			failcall("append: a record twice, at byte", i);
	}
	for(w = 0; w < nw; w++)
		for(k = 0; k < n; k++)
			if(!seen[w][k])
				failcall("append: a record lost, writer*1000+record", w*1000 + k);
}

/* The file's blocks: each whole, each there once. */
static void
checkblocks(const char *path, int nw, int n, int len)
{
	char seen[Nbig*Bigblocks], *buf;
	long got, r;
	int fd, i, j, b;

	memset(seen, 0, sizeof seen);
	if((fd = open(path, O_RDONLY)) < 0 || (buf = malloc(len)) == NULL){
		failcall("append: open to check", fd);
		return;
	}
	for(i = 0;; i++){
		for(got = 0; got < len && (r = read(fd, buf + got, len - got)) > 0; got += r)
			;
		if(got == 0)
			break;
		for(j = 0; j < got && buf[j] == buf[0]; j++)
			;
		b = buf[0] - 'A';
		if(got != len || j != len || b < 0 || b >= nw*n)
			failcall("append: a block torn, block", i);
		else if(seen[b]++)
			failcall("append: a block twice, block", i);
	}
	close(fd);
	free(buf);
	if(i != nw*n)
		failcall("append: blocks in the file", i);
}

static void
testappend(void)
{
	char *path = "/tmp/faults.append";
	int fd;

	if((fd = open(path, O_WRONLY|O_CREAT|O_TRUNC)) < 0){
		failcall("append: create", fd);
		return;
	}
	close(fd);
	appenders(path, Nappend, Nrec, Reclen, record);
	checkrecords(path, Nappend, Nrec);
	if((fd = open(path, O_WRONLY|O_TRUNC)) < 0){
		failcall("append: truncate", fd);
		return;
	}
	close(fd);
	appenders(path, Nbig, Bigblocks, Bigsize, block);
	checkblocks(path, Nbig, Bigblocks, Bigsize);
	/* One more, at a stale offset: it lands at the end, and the offset follows. */
	if((fd = open(path, O_RDWR|O_APPEND)) < 0 || seek(fd, 0, SEEK_SET) != 0
	|| write(fd, "x", 1) != 1 || seek(fd, 0, SEEK_CUR) != (long)Nbig*Bigblocks*Bigsize + 1)
		failcall("append: the offset after an append", fd);
	close(fd);
	remove(path);
}

/*
 * Shared with the mount workers: each binds its own directory onto
 * the round's new one, at once, and checks its bind is there until its
 * unmount and gone after.
 */
static volatile int	mgo;
static volatile int	mbad[Nbinders][3];	/* not there after bind; unmount failed; there after unmount */

static void
binder(int w, char *at)
{
	char dir[32], file[48];
	struct Dir d;

	snprintf(dir, sizeof dir, "/tmp/fm/a%d", w);
	snprintf(file, sizeof file, "%s/f%d", at, w);
	while(!mgo)
		;
	if(bind(dir, at, w % 2 ? MBEFORE : MAFTER) < 0 || stat(file, &d) < 0)
		mbad[w][0]++;
	if(unmount(dir, at) < 0)
		mbad[w][1]++;
	if(stat(file, &d) == 0)
		mbad[w][2]++;
	_exit(0);
}

static void
testmounts(int rounds)
{
	static char *what[3] = { "a bind not there after it", "an unmount failed", "a bind there after its unmount" };
	char at[32], path[48];
	struct Dir d;
	int r, w, fd, n[3] = { 0, 0, 0 };

	mkdir("/tmp/fm");
	for(w = 0; w < Nbinders; w++){
		snprintf(path, sizeof path, "/tmp/fm/a%d", w);
		mkdir(path);
		snprintf(path, sizeof path, "/tmp/fm/a%d/f%d", w, w);
		if((fd = open(path, O_WRONLY|O_CREAT)) < 0)
			failcall("mounts: create", fd);
		close(fd);
	}
	for(r = 0; r < rounds; r++){
		snprintf(at, sizeof at, "/tmp/fm/t%d", r);
		if(mkdir(at) < 0){
			failcall("mounts: mkdir", -1);
			break;
		}
		mgo = 0;
		for(w = 0; w < Nbinders; w++)
			if(rfork(RFPROC|RFMEM) == 0)
				binder(w, at);
		mgo = 1;
		for(w = 0; w < Nbinders; w++)
			wait(NULL);
		for(w = 0; w < Nbinders; w++){
			snprintf(path, sizeof path, "%s/f%d", at, w);
			if(stat(path, &d) == 0)
				failcall("mounts: a bind there after every unmount, round", r);
		}
		unmount(NULL, at);	/* the union of at alone, which the binds after it leave */
		if(remove(at) < 0)
			failcall("mounts: remove", -1);
	}
	for(w = 0; w < Nbinders; w++)
		for(r = 0; r < 3; r++)
			n[r] += mbad[w][r];
	for(r = 0; r < 3; r++)
		if(n[r] > 0)
			failcall(what[r], n[r]);
}

/* Write msg to the file path; -1 if it fails. */
static int
ctl(char *path, char *msg)
{
	int fd, r;

	if((fd = open(path, O_WRONLY)) < 0)
		return -1;
	r = write(fd, msg, strlen(msg)) == (long)strlen(msg) ? 0 : -1;
	close(fd);
	return r;
}

/* The processors, from kpctl's status line ("... cpus N ..."). */
static int
ncpus(void)
{
	char buf[256], *p;

	if(readwhole("#T/kpctl", buf, sizeof buf) < 0)
		return 1;
	return (p = strstr(buf, "cpus ")) != NULL ? atoi(p + 5) : 1;
}

/* Read kpstack whole, in 8 KB pieces, over and over, until killed. */
static void
kpreader(void)
{
	static char buf[8192];
	int fd;

	for(;;){
		if((fd = open("#T/kpstack", O_RDONLY)) < 0)
			exit(1);
		while(read(fd, buf, sizeof buf) > 0)
			;
		close(fd);
	}
}

/*
 * kpread: with kprof's stack tables filled on every processor (#S's
 * tree, one spinner a processor), one reader of kpstack a processor;
 * meanwhile this process sleeps 100 ms three times, and says how long
 * each took in clock ticks.
 */
static void
testkpread(void)
{
	unsigned int hz, t0, t, worst = 0;
	int i, n = ncpus(), pid[MAXMACH], st;

	if(n > MAXMACH)
		n = MAXMACH;
	if(ctl("#T/kpctl", "startclr") < 0){
		failcall("kpread: kpctl startclr", -1);
		return;
	}
	for(i = 0; i < n; i++)
		if(fork() == 0)
			exit(ctl("#S/spinctl", "t 3000") < 0);
	for(i = 0; i < n; i++)
		if(wait(&st) < 0 || st != 0)
			failcall("kpread: a spinner", st);
	ctl("#T/kpctl", "stop");
	for(i = 0; i < n; i++)
		if((pid[i] = fork()) == 0)
			kpreader();
	sleep(50);	/* the readers at work */
	for(i = 0; i < 3; i++){
		t0 = clockticks(&hz);
		sleep(100);
		t = clockticks(&hz) - t0;
		if(t > worst)
			worst = t;
	}
	for(i = 0; i < n; i++)
		kill(pid[i]);
	for(i = 0; i < n; i++)
		if(wait(&st) < 0 || st != Killed)
			failcall("kpread: a reader, not killed", st);
	printf("faults: kpread: %d readers; sleep(100) took at most %u ticks at %u hz\n", n, worst, hz);
	if(hz == 0 || worst > hz*110/1000)
		failcall("kpread: sleep(100) over 110 ms, in ticks", worst);
}

static void
testkill(int rounds)
{
	forking(rounds);
	running(12);
	sleeping(rounds);
	piping(rounds, Pread);
	piping(rounds, Pwrite);
	piping(rounds, Pwait);
	locked(rounds);
	execing(rounds);
	exiting(rounds);
}

int
main(int argc, char **argv)
{
	int rounds;

	if(argc < 2){
		fprintf(stderr, "usage: faults append | kill [rounds] | kpread | mounts [rounds]\n");
		return 2;
	}
	testcase = argv[1];
	rounds = argc > 2 ? argcount(argv[2], "faults append | kill [rounds] | kpread | mounts [rounds]") : 50;
	if(strcmp(testcase, "linger") == 0){
		sleep(500);
		return Lost;
	}
	if(strcmp(testcase, "kill") == 0)
		testkill(rounds);
	else if(strcmp(testcase, "append") == 0)
		testappend();
	else if(strcmp(testcase, "mounts") == 0)
		testmounts(rounds);
	else if(strcmp(testcase, "kpread") == 0)
		testkpread();
	else{
		fprintf(stderr, "faults: unknown test %s\n", testcase);
		return 2;
	}
	if(nfail){
		printf("faults: %s: failed\n", testcase);
		return 1;
	}
	printf("faults: %s: ok\n", testcase);
	return 0;
}
