/*
 * hostile TEST [ARG]: what a hostile program tries, for the tests of
 * the smaller promises to a hostile program (tools/test/hostile.sh).  Each test prints
 * "hostile: TEST: ok", or a line per broken promise and then
 * "hostile: TEST: failed" (exit 1).
 *
 *	latency CALL	a child makes long calls of one kind (eia1: 16 MB
 *			writes to /dev/eia1; spin: #S spins; file: 4 MB file
 *			writes and reads; mem: 32 MB sbrks and forks) while
 *			this process sleeps 100 ticks three times (10 ms at
 *			10000 Hz): it prints the longest sleep, which must be
 *			at most 110 ticks.
 *	churn N		open a file, remove it, then make and remove N files:
 *			the old descriptor must reach none of them.
 *	mounts		bind and unmount; binds onto removed directories and
 *			onto pipes; full unions.
 *	errstr		only a failing call changes errstr.
 *	longsleep	sleep(2^31-1) sleeps until killed.
 *	exec		exec takes MAXARG arguments, not one more.
 *	names		#/ names the root file system.
 *	sbrk		a failed sbrk leaves every page free again.
 *	spin		#S refuses a count that does not fit; a spin ends when killed.
 *	qsort		qsort on equal, sorted and reversed keys stays n log n.
 *	race		one process writes 4 MB files (which grow, and yield as they
 *			do) while another truncates, removes and rewrites them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"
#include "lib/check.h"


/* The free pages and the kernel heap in use, from /dev/sysstat. */
static void
sysstat(long *pages, long *heap)
{
	char buf[128], *p;

	*pages = *heap = -1;
	if(readwhole("/dev/sysstat", buf, sizeof buf) <= 0)
		return;
	if((p = strstr(buf, "free ")) != NULL)
		*pages = strtol(p + 5, NULL, 10);
	if((p = strstr(buf, "heap ")) != NULL)
		*heap = strtol(p + 5, NULL, 10);
}

/* Make path hold s; 0, or -1. */
static int
put(const char *path, const char *s)
{
	int fd;
	long n;

	if((fd = open(path, O_WRONLY|O_CREAT|O_TRUNC)) < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (long)strlen(s) ? 0 : -1;
}

/* The long calls of one kind, made forever. */
static void
hog(const char *call)
{
	static char *echo[] = { "echo", NULL };
	char *buf;
	int fd, pid, st;

	if(strcmp(call, "eia1") == 0){
		if((buf = sbrk(16*1024*1024)) == (char*)-1 || (fd = open("/dev/eia1", O_WRONLY)) < 0)
			exit(2);
		memset(buf, 'x', 16*1024*1024);
		for(;;)
			write(fd, buf, 16*1024*1024);
	}
	if(strcmp(call, "spin") == 0){
		if((fd = open("#S/spinctl", O_WRONLY)) < 0)
			exit(2);
		for(;;)
			write(fd, "a 4000000000", 12);
	}
	if(strcmp(call, "file") == 0){
		if((buf = sbrk(4*1024*1024)) == (char*)-1)
			exit(2);
		for(;;){
			if((fd = open("/tmp/hostile.big", O_RDWR|O_CREAT|O_TRUNC)) < 0)
				exit(2);
			write(fd, buf, 4*1024*1024);
			seek(fd, 0, SEEK_SET);
			read(fd, buf, 4*1024*1024);
			close(fd);
		}
	}
	if(strcmp(call, "mem") == 0){
		for(;;){
			if(sbrk(32*1024*1024) == (void*)-1)
				exit(2);
			if((pid = fork()) == 0)
				exec("/bin/echo", echo);
			if(pid > 0)
				wait(&st);
			sbrk(-32*1024*1024);
		}
	}
	exit(3);
}

static void
latency(const char *call)
{
	unsigned int t0, t1, hz, worst = 0;
	int i, pid, st;

	clockticks(&hz);
	if((pid = fork()) == 0)
		hog(call);
	if(pid < 0){
		failcall("fork", pid);
		return;
	}
	for(i = 0; i < 3; i++){
		t0 = clockticks(&hz);
		sleep(100*1000/hz);
		t1 = clockticks(&hz);
		if(t1 - t0 > worst)
			worst = t1 - t0;
	}
	printf("hostile: latency: sleep 100 ticks took at most %u ticks beside %s\n", worst, call);
	if(worst > 110)
		failcall("sleep 100 ticks took over 110", worst);
	if(kill(pid) < 0)
		failcall("kill the hog", -1);
	if(wait(&st) != pid || st != 255)
		failcall("the hog was not killed", st);
	remove("/tmp/hostile.big");
}

/*
 * The slot of a removed file is taken by the next file made, so the
 * old descriptor meets each new file in turn: reads and writes through
 * it must fail, and the new file keep what was written to it.
 */
static void
churn(long n)
{
	char got[8];
	long i, r;
	int old, fd;

	if(put("/tmp/hostile.old", "old") < 0 || (old = open("/tmp/hostile.old", O_RDWR)) < 0){
		failcall("make /tmp/hostile.old", -1);
		return;
	}
	if(remove("/tmp/hostile.old") < 0)
		failcall("remove /tmp/hostile.old", -1);
	for(i = 0; i < n; i++){
		if((fd = open("/tmp/hostile.new", O_RDWR|O_CREAT|O_TRUNC)) < 0 || write(fd, "new", 3) != 3){
			failcall("make /tmp/hostile.new", fd);
			return;
		}
		close(fd);
		seek(old, 0, SEEK_SET);
		if((r = read(old, got, sizeof got)) != -1){
			printf("hostile: file %ld: the removed file's descriptor read %ld bytes\n", i, r);
			failcall("read through a removed file's descriptor", r);
			return;
		}
		if((r = write(old, "BAD", 3)) != -1){
			printf("hostile: file %ld: the removed file's descriptor wrote\n", i);
			failcall("write through a removed file's descriptor", r);
			return;
		}
		if(i < n - 1 && remove("/tmp/hostile.new") < 0){
			failcall("remove /tmp/hostile.new", -1);
			return;
		}
	}
	if((fd = open("/tmp/hostile.new", O_RDONLY)) < 0 || read(fd, got, sizeof got) != 3 || memcmp(got, "new", 3) != 0)
		failcall("the last new file lost its contents", -1);
	close(fd);
	close(old);
	remove("/tmp/hostile.new");
	printf("hostile: churn: %ld files made and removed\n", n);
}

/*
 * A union holds 8 directories (NUNION, kern/dat.h), bound before or
 * after alike: the directory bound onto and 7 more; an eighth more is
 * refused.  (Bound before, the seventh was refused.)
 */
static void
unionfull(int flag)
{
	char name[32];
	int i, r;

	mkdir("/tmp/hostile.d");
	for(i = 0; i < 8; i++){
		snprintf(name, sizeof name, "/tmp/hostile.u%d", i);
		mkdir(name);
		if((r = bind(name, "/tmp/hostile.d", flag)) != (i < 7 ? 0 : -1) || (i == 7 && errno != ENOMEM)){
			printf("hostile: bind %s of directory %d onto a union\n", flag == MBEFORE ? "-b" : "-a", i + 2);
			failcall("bind into a union", r);
			break;
		}
	}
	unmount(NULL, "/tmp/hostile.d");
	for(i = 0; i < 8; i++){
		snprintf(name, sizeof name, "/tmp/hostile.u%d", i);
		remove(name);
	}
	remove("/tmp/hostile.d");
}

static void
mounts(void)
{
	struct Dir d[8];
	long r;
	int i, fd;

	/* Binds onto directories then removed: the table must not fill. */
	for(i = 0; i < 100; i++){
		if(mkdir("/tmp/hostile.d") < 0 || mkdir("/tmp/hostile.a") < 0){
			failcall("mkdir", -1);
			return;
		}
		if((r = bind("/tmp/hostile.a", "/tmp/hostile.d", MAFTER)) < 0){
			printf("hostile: bind %d failed\n", i);
			failcall("bind onto a directory", r);
			return;
		}
		/* The union's first directory is hostile.d itself, which goes. */
		if(remove("/tmp/hostile.d") < 0 || remove("/tmp/hostile.a") < 0){
			failcall("remove the bound directories", -1);
			return;
		}
	}

	/*
	 * Binds onto a new pipe, which no name reaches again: refused,
	 * by any path, so that they cannot fill the table for good.
	 */
	for(i = 0; i < 40; i++)
		if((r = bind("/tmp", "#|", MREPL)) != -1 || errno != EINVAL){
			printf("hostile: bind %d onto #| not refused\n", i);
			failcall("bind onto a new pipe", r);
			break;
		}
	if((r = bind("/dev/null", "#|/data1", MREPL)) != -1 || errno != EINVAL)
		failcall("bind onto a new pipe's file", r);
	if(chdir("#|") < 0 || (r = bind("/tmp", ".", MBEFORE)) != -1 || errno != EINVAL)
		failcall("bind onto a new pipe as dot", r);
	chdir("/");
	/* Nor onto a pipe reached through a bind, which its unmount makes unreachable. */
	mkdir("/tmp/hostile.p");
	for(i = 0; i < 40; i++){
		if(bind("#|", "/tmp/hostile.p", MREPL) < 0){
			printf("hostile: bind %d of #| failed\n", i);
			failcall("bind of a new pipe", -1);
			break;
		}
		r = bind("/dev/null", "/tmp/hostile.p/data1", MREPL);
		unmount(NULL, "/tmp/hostile.p");
		if(r != -1 || errno != EINVAL){
			printf("hostile: bind %d onto a bound pipe's file not refused\n", i);
			failcall("bind onto a bound pipe's file", r);
			break;
		}
	}
	remove("/tmp/hostile.p");

	unionfull(MBEFORE);
	unionfull(MAFTER);

	/* Bind and unmount, many more times than the table has room. */
	mkdir("/tmp/hostile.d");
	mkdir("/tmp/hostile.a");
	put("/tmp/hostile.a/f", "f");
	for(i = 0; i < 100; i++)
		if(bind("/tmp/hostile.a", "/tmp/hostile.d", MREPL) < 0 || unmount(NULL, "/tmp/hostile.d") < 0){
			printf("hostile: bind and unmount %d failed\n", i);
			failcall("bind and unmount", -1);
			break;
		}
	if(open("/tmp/hostile.d/f", O_RDONLY) != -1)
		failcall("f still there after unmount", 0);

	/* unmount new old takes new out of the union; an open union stays whole. */
	if(bind("/tmp/hostile.a", "/tmp/hostile.d", MAFTER) < 0 || bind("#c", "/tmp/hostile.d", MAFTER) < 0)
		failcall("bind -a twice", -1);
	if((fd = open("/tmp/hostile.d", O_RDONLY)) < 0)
		failcall("open the union", fd);
	if((r = unmount("/tmp/hostile.a", "/tmp/hostile.d")) < 0)
		failcall("unmount new old", r);
	if(open("/tmp/hostile.d/f", O_RDONLY) != -1)
		failcall("f still there after unmount new old", 0);
	if(open("/tmp/hostile.d/cons", O_RDONLY) < 0)
		failcall("cons gone after unmount new old", -1);
	if(unmount("/tmp/hostile.a", "/tmp/hostile.d") != -1 || errno != ENOENT)
		failcall("unmount of what is not in the union", 0);
	if(unmount(NULL, "/tmp/hostile.d") < 0)
		failcall("unmount old", -1);
	if(unmount(NULL, "/tmp/hostile.d") != -1 || errno != EINVAL)
		failcall("unmount of what is not a mount point", 0);
	if(unmount(NULL, "/tmp/nonexistent") != -1 || errno != ENOENT)
		failcall("unmount of nothing", 0);
	if(unmount((char*)0xC0000000, "/tmp/hostile.d") != -1 || errno != EFAULT)
		failcall("unmount of a kernel pointer", 0);
	for(i = 0; (r = read(fd, d, sizeof d)) > 0; i += r / sizeof d[0])
		;
	if(i < 3)
		failcall("the open union lost entries after unmount", i);
	close(fd);
	remove("/tmp/hostile.a/f");
	remove("/tmp/hostile.a");
	remove("/tmp/hostile.d");
}

static void
errstrtest(void)
{
	char before[ERRMAX], after[ERRMAX];
	int fd;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0 || write(fd, "bogus", 5) != -1){
		failcall("kpctl took bogus", fd);
		return;
	}
	close(fd);
	errstr(before, sizeof before);
	/* Found in #t after #c said no: the call meets an error on its way to success. */
	if((fd = open("/dev/eia1", O_RDONLY)) < 0)
		failcall("open /dev/eia1", fd);
	close(fd);
	getpid();
	errstr(after, sizeof after);
	if(strcmp(before, "bad control message") != 0 || strcmp(after, before) != 0){
		printf("hostile: errstr \"%s\" became \"%s\"\n", before, after);
		failcall("errstr changed by calls that succeeded", 0);
	}
	if(open("/nonexistent", O_RDONLY) != -1 || errstr(after, sizeof after) < 0 || strcmp(after, before) == 0)
		failcall("errstr unchanged by a call that failed", 0);
}

/* A sleep longer than the ticks reach at 10000 Hz: still asleep after 300 ms, and killable. */
static void
longsleep(void)
{
	int pid, st;

	if((pid = fork()) == 0){
		sleep(2147483647);
		exit(7);
	}
	sleep(300);
	if(kill(pid) < 0)
		failcall("the sleeper was gone after 300 ms", -1);
	if(wait(&st) != pid || st != 255)
		failcall("the sleeper was not killed", st);
}

static void
exectest(void)
{
	char *argv[MAXARG + 2];
	int i, pid, st;

	argv[0] = "echo";
	for(i = 1; i < MAXARG; i++)
		argv[i] = "a";
	argv[MAXARG] = NULL;
	fflush(stdout);
	if((pid = fork()) == 0){
		exec("/bin/echo", argv);
		printf("hostile: exec of %d arguments: %s\n", MAXARG, strerror(errno));
		exit(1);
	}
	if(wait(&st) != pid || st != 0)
		failcall("exec of MAXARG arguments", st);
	argv[MAXARG] = "a";
	argv[MAXARG + 1] = NULL;
	if(exec("/bin/echo", argv) != -1 || errno != E2BIG)
		failcall("exec of MAXARG+1 arguments", 0);
}

static void
names(void)
{
	struct Dir a, b;

	if(stat("#/", &a) < 0 || !(a.mode & DMDIR) || stat("/", &b) < 0 || a.qid != b.qid)
		failcall("#/ is not the root", -1);
	if(stat("#//bin/echo", &a) < 0 || stat("/bin/echo", &b) < 0 || a.qid != b.qid)
		failcall("#//bin/echo is not /bin/echo", -1);
	if(put("#//tmp/hostile.n", "n") < 0 || stat("/tmp/hostile.n", &a) < 0 || a.length != 1)
		failcall("create through #/", -1);
	remove("#//tmp/hostile.n");
	if(stat("#/bin", &a) != -1 || errno != ENOENT)
		failcall("#/bin (no slash after the device) named something", 0);
	if(stat("#", &a) != -1 || errno != ENOENT)
		failcall("# named something", 0);
	if(stat("#c/../cons", &a) < 0)
		failcall("#c/../cons", -1);
}

/* Ask for more than there is: sbrk fails, and gives back all it took. */
static void
sbrktest(void)
{
	long pages, heap, pages1, heap1;
	void *brk0;

	sysstat(&pages, &heap);
	brk0 = sbrk(0);
	if(sbrk(0x7FFFFFFF) != (void*)-1 || errno != ENOMEM)
		failcall("sbrk(0x7fffffff)", 0);
	if(sbrk(0) != brk0)
		failcall("the break moved", 0);
	sysstat(&pages1, &heap1);
	if(pages1 != pages){
		printf("hostile: free pages %ld before a failed sbrk, %ld after\n", pages, pages1);
		failcall("a failed sbrk kept pages", pages1 - pages);
	}
	if(sbrk(8*1024*1024) == (void*)-1 || sbrk(-8*1024*1024) == (void*)-1)
		failcall("sbrk 8 MB and back", -1);
	sysstat(&pages1, &heap1);
	if(pages1 != pages){
		printf("hostile: free pages %ld before sbrk 8 MB and back, %ld after\n", pages, pages1);
		failcall("sbrk up and down kept pages", pages1 - pages);
	}
}

static void
spin(void)
{
	unsigned int t0, t1, hz;
	int fd, pid, st;

	if((fd = open("#S/spinctl", O_WRONLY)) < 0){
		failcall("open #S/spinctl", fd);
		return;
	}
	if(write(fd, "a 99999999999", 13) != -1 || errno != EINVAL)
		failcall("spin count over 2^32", 0);
	if(write(fd, "a 4294967296", 12) != -1 || errno != EINVAL)
		failcall("spin count 2^32", 0);
	close(fd);
	t0 = clockticks(&hz);
	if((pid = fork()) == 0)
		hog("spin");
	sleep(50);
	kill(pid);
	if(wait(&st) != pid || st != 255)
		failcall("the spinner was not killed", st);
	t1 = clockticks(&hz);
	printf("hostile: spin: killed after %u ms\n", (t1 - t0)*1000/hz);
	if((t1 - t0)*1000/hz > 100)
		failcall("the spin went on after the kill", (t1 - t0)*1000/hz);
}

static unsigned long long ncmp;

static int
cmpint(const void *a, const void *b)
{
	int x = *(const int*)a, y = *(const int*)b;

	ncmp++;
	return x < y ? -1 : x > y;
}

static void
qsorttest(void)
{
	static int v[100000];
	long n = 100000, i;
	unsigned long long bound;
	int k;

	bound = 2*n*17 + 2*n;	/* 2 n log2 n, and a little */
	for(k = 0; k < 3; k++){
		for(i = 0; i < n; i++)
			v[i] = k == 0 ? 5 : k == 1 ? i : n - i;
		ncmp = 0;
		qsort(v, n, sizeof v[0], cmpint);
		for(i = 1; i < n; i++)
			if(v[i-1] > v[i])
				break;
		if(i < n)
			failcall("qsort left the keys out of order", i);
		if(ncmp > bound){
			printf("hostile: qsort of %ld %s keys: %llu comparisons\n", n,
				k == 0 ? "equal" : k == 1 ? "sorted" : "reversed", ncmp);
			failcall("qsort took over 2 n log n comparisons", -2);
		}
	}
}

/*
 * The writer's file changes under it at its scheduling points: each
 * write must end in a count or an error, and the kernel survive (the
 * test script checks the pages and the heap).
 */
static void
race(void)
{
	char *buf;
	unsigned int t0, hz;
	int i, fd, pid, st;

	if((buf = sbrk(4*1024*1024)) == (char*)-1){
		failcall("sbrk 4 MB", -1);
		return;
	}
	memset(buf, 'w', 4*1024*1024);
	if((pid = fork()) == 0){
		for(i = 0; i < 20; i++){
			if((fd = open("/tmp/hostile.race", O_RDWR|O_CREAT)) < 0)
				continue;
			write(fd, buf, 4*1024*1024);
			seek(fd, 0, SEEK_SET);
			read(fd, buf, 4*1024*1024);
			close(fd);
		}
		exit(0);
	}
	t0 = clockticks(&hz);
	for(i = 0; clockticks(&hz) - t0 < 2*hz; i++){
		if(i % 3 == 0)
			remove("/tmp/hostile.race");
		else if((fd = open("/tmp/hostile.race", O_WRONLY|O_TRUNC)) >= 0){
			write(fd, "xyz", 3);
			close(fd);
		}
		sleep(1);
	}
	kill(pid);
	if(wait(&st) != pid || (st != 0 && st != 255))
		failcall("the writer", st);
	remove("/tmp/hostile.race");
}

int
main(int argc, char *argv[])
{
	char *t = argc > 1 ? argv[1] : "";

	if(argc == 3 && strcmp(t, "latency") == 0)
		latency(argv[2]);
	else if(argc == 3 && strcmp(t, "churn") == 0 && parsenum(argv[2]) > 0)
		churn(parsenum(argv[2]));
	else if(argc == 2 && strcmp(t, "mounts") == 0)
		mounts();
	else if(argc == 2 && strcmp(t, "errstr") == 0)
		errstrtest();
	else if(argc == 2 && strcmp(t, "longsleep") == 0)
		longsleep();
	else if(argc == 2 && strcmp(t, "exec") == 0)
		exectest();
	else if(argc == 2 && strcmp(t, "names") == 0)
		names();
	else if(argc == 2 && strcmp(t, "sbrk") == 0)
		sbrktest();
	else if(argc == 2 && strcmp(t, "spin") == 0)
		spin();
	else if(argc == 2 && strcmp(t, "qsort") == 0)
		qsorttest();
	else if(argc == 2 && strcmp(t, "race") == 0)
		race();
	else{
		fprintf(stderr, "usage: hostile latency eia1|spin|file|mem | churn N | mounts | errstr\n"
			"	| longsleep | exec | names | sbrk | spin | qsort | race\n");
		return 1;
	}
	printf("hostile: %s: %s\n", t, nfail ? "failed" : "ok");
	return nfail > 0;
}
