/*
 * atk_fs TEST: the root file system, pipes and the console from
 * several processors at once, and calls at the edges of their
 * arguments.  Each prints "atk_fs: TEST: ok", or a line per broken
 * promise and then "atk_fs: TEST: failed".
 *
 *	race N	four processes create, write, read, truncate, remove,
 *		mkdir, list and "mv" (copy, remove) the same few names in
 *		one directory N times each; every call's result is one its
 *		man page allows.
 *	fill	files made until the node table is full, then written
 *		until memory for files is gone: ENOSPC each, and fork and
 *		exec still work; all of it back once removed.
 *	trunc N	a writer of 256 KB blocks, each all one byte, an opener
 *		with O_TRUNC, and a reader: every read sees one block's
 *		bytes, or none.
 *	edges	every call that takes a pointer, with it at 0, the last
 *		user byte, and across into the kernel, with lengths 0,
 *		2^31 and 2^32-1: each fails with its error, or moves no
 *		more than it may.
 *	pipes	a 16 MB write into a pipe whose reader is killed, a
 *		reader whose writer is killed, and descriptors filled
 *		with pipes.
 *	notes N	N times: a process whose two threads kill it and its
 *		parent at once; two threads waiting, each for its own
 *		child; and arcs on and off while children fork, exec,
 *		exit and are killed on the other processors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "lib/check.h"

enum { KZERO = 0xC0000000, MAXFILE = 4*1024*1024 };

#define nelem(a)	(sizeof(a)/sizeof((a)[0]))

static char test[32];	/* not argv's: edges writes the stack's last bytes */
static unsigned int seed = 1;

static unsigned int
rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

static char *names[] = { "/tmp/afs/a", "/tmp/afs/b", "/tmp/afs/d", "/tmp/afs/d/x", "/tmp/afs/d/e" };
static char blk[70000], rbuf[70000];

static void
race1(int n)
{
	struct Dir d[4];
	char *p;
	long r, off;
	int i, fd, fd2, k;

	for(i = 0; i < n; i++){
		p = names[rnd() % nelem(names)];
		switch(rnd() % 9){
		case 0:
		case 1:
			if((fd = open(p, O_RDWR|O_CREAT|(rnd() % 2 ? O_TRUNC : 0))) < 0)
				break;
			off = (long[]){ 0, 5000, MAXFILE - 10, MAXFILE, 0x7FFFFFF0 }[rnd() % 5];
			if(seek(fd, off, SEEK_SET) != off)
				failcase("seek to %ld", off, 0);
			k = rnd() % sizeof blk;
			r = write(fd, blk, k);
			/* removed since it was opened: ENOENT */
			if(r == -1 && errno == ENOENT)
				;
			else if(k > 0 && (unsigned long)off + k > MAXFILE ? r != -1 || errno != EFBIG : r != k && !(r == -1 && errno == ENOSPC))
				failcase("write of %ld: errno %ld", k, r == -1 ? errno : r);
			close(fd);
			break;
		case 2:
			if((fd = open(p, O_RDONLY)) < 0)
				break;
			r = read(fd, rbuf, sizeof rbuf);
			if(r < -1 || r > (long)sizeof rbuf)
				failcase("read: %ld", r, 0);
			if(r < 0 && errno != EINVAL && errno != ENOENT)
				failcase("read: errno %ld", errno, 0);
			close(fd);
			break;
		case 3:
			if(remove(p) < 0 && errno != ENOENT && errno != ENOTEMPTY && errno != ENOTDIR)
				failcase("remove: errno %ld", errno, 0);
			break;
		case 4:
			if(mkdir(p) < 0 && errno != EEXIST && errno != ENOENT && errno != ENOTDIR)
				failcase("mkdir: errno %ld", errno, 0);
			break;
		case 5:
			if((fd = open("/tmp/afs/d", O_RDONLY)) < 0)
				break;
			while((r = read(fd, d, sizeof d)) > 0)
				if(fstat(fd, d) == 0 && (d[0].mode & DMDIR) && r % sizeof d[0] != 0)
					failcase("dir read of %ld", r, 0);
			close(fd);
			break;
		case 6:	/* mv: copy, then remove */
			if((fd = open(p, O_RDONLY)) < 0)
				break;
			if((fd2 = open("/tmp/afs/b", O_WRONLY|O_CREAT|O_TRUNC)) >= 0){
				while((r = read(fd, rbuf, sizeof rbuf)) > 0)
					if(write(fd2, rbuf, r) != r)
						break;
				close(fd2);
				remove(p);
			}
			close(fd);
			break;
		case 7:	/* a file removed while open, then used */
			if((fd = open(p, O_RDWR)) < 0)
				break;
			remove(p);
			r = write(fd, blk, 100);
			if(r != 100 && !(r == -1 && errno == ENOENT))
				failcase("write to removed: %ld errno %ld", r, errno);
			r = read(fd, rbuf, 100);
			if(r > 100)
				failcase("read of removed: %ld", r, 0);
			close(fd);
			break;
		case 8:
			if((fd = open(p, O_RDWR|O_TRUNC)) >= 0)
				close(fd);
			break;
		}
	}
}

static void
race(int n)
{
	int k;

	mkdir("/tmp/afs");
	for(k = 0; k < 4; k++)
		if(fork() == 0){
			seed = k + 7;
			race1(n);
			exit(nfail != 0);
		}
	if(waitn(4) != 0)
		failcase("a racer failed", 0, 0);
	remove("/tmp/afs/d/x");
	remove("/tmp/afs/d/e");
	remove("/tmp/afs/d");
	remove("/tmp/afs/a");
	remove("/tmp/afs/b");
	if(remove("/tmp/afs") < 0)
		failcase("/tmp/afs not empty: errno %ld", errno, 0);
}

static void
fill(void)
{
	char name[64];
	int n, m, fd, st;

	mkdir("/tmp/fill");
	for(n = 0;; n++){
		snprintf(name, sizeof name, "/tmp/fill/%d", n);
		if((fd = create(name, O_RDWR, 0664)) < 0)
			break;
		close(fd);
	}
	if(errno != ENOSPC)
		failcase("create %ld: errno %ld", n, errno);
	if(mkdir("/tmp/fill/dir") != -1 || errno != ENOSPC)
		failcase("mkdir in a full table: errno %ld", errno, 0);
	if(fork() == 0){
		exec("/bin/echo", (char*[]){ "echo", "atk_fs: exec in a full table", NULL });
		_exit(1);
	}
	if(wait(&st) < 0 || st != 0)
		failcase("exec in a full table: %ld", st, 0);
	for(m = 0; m < n; m++){
		snprintf(name, sizeof name, "/tmp/fill/%d", m);
		if((fd = open(name, O_WRONLY)) < 0)
			break;
		if(seek(fd, MAXFILE - 1, SEEK_SET) != MAXFILE - 1 || write(fd, "z", 1) != 1){
			close(fd);
			break;
		}
		close(fd);
	}
	if(errno != ENOSPC)
		failcase("filled %ld files: errno %ld", m, errno);
	if(fork() == 0){
		exec("/bin/echo", (char*[]){ "echo", "atk_fs: exec with the files' memory full", NULL });
		_exit(1);
	}
	if(wait(&st) < 0 || st != 0)
		failcase("exec with memory full: %ld", st, 0);
	for(m = 0; m < n; m++){
		snprintf(name, sizeof name, "/tmp/fill/%d", m);
		if(remove(name) < 0)
			failcase("remove %ld: errno %ld", m, errno);
	}
	if(remove("/tmp/fill") < 0)
		failcase("remove /tmp/fill: errno %ld", errno, 0);
}

static void
trunc(int n)
{
	static char b[256*1024];
	int i, k, fd, pid[2];
	long r;

	if((fd = create("/tmp/atrunc", O_RDWR, 0664)) < 0)
		fatal("create");
	close(fd);
	if((pid[0] = fork()) == 0){
		for(k = 0;; k++){
			memset(b, 'a' + k % 26, sizeof b);
			if((fd = open("/tmp/atrunc", O_WRONLY)) >= 0){
				write(fd, b, sizeof b);
				close(fd);
			}
		}
	}
	if((pid[1] = fork()) == 0)
		for(;;)
			if((fd = open("/tmp/atrunc", O_WRONLY|O_TRUNC)) >= 0)
				close(fd);
	for(i = 0; i < n; i++){
		if((fd = open("/tmp/atrunc", O_RDONLY)) < 0)
			fatal("open");
		r = read(fd, rbuf, sizeof rbuf);
		close(fd);
		for(k = 1; k < r; k++)
			if(rbuf[k] != rbuf[0]){
				failcase("read %ld: byte %ld differs", i, k);
				break;
			}
	}
	kill(pid[0]);
	kill(pid[1]);
	waitn(2);
	remove("/tmp/atrunc");
}

/* r must be -1 with errno e, or (e == 0) at most max. */
static void
want(const char *what, long r, int e, long max, unsigned long ptr, unsigned long len)
{
	if(e != 0 ? r != -1 || errno != e : r < 0 || r > max){
		printf("atk_fs: edges: FAIL %s(%#lx, %#lx): %ld errno %d\n", what, ptr, len, r, errno);
		nfail++;
	}
}

static void
edges(void)
{
	static unsigned long ptrs[] = { 0, KZERO - 1, KZERO - 2, KZERO - 4, KZERO, 0xFFFFFFFF };
	static unsigned long lens[] = { 0, 1, 2, 0x80000000UL, 0xFFFFFFFFUL };
	unsigned long p, n, i, j;
	int fd, nul, pfd[2];
	long r;

	fd = open("/tmp/aedge", O_RDWR|O_CREAT|O_TRUNC);
	nul = open("/dev/null", O_RDWR);
	if(fd < 0 || nul < 0 || pipe(pfd) < 0)
		fatal("edges");
	write(fd, "hello", 5);
	for(i = 0; i < nelem(ptrs); i++)
		for(j = 0; j < nelem(lens); j++){
			p = ptrs[i];
			n = lens[j];
			/* what [p, p+n) is: the last stack bytes are the process's own */
			int okp = (n == 0 && p < KZERO) || (p < KZERO && n <= KZERO - p && p >= KZERO - 65536);
			int neg = (long)n < 0;
			seek(fd, 0, SEEK_SET);
			r = read(fd, (void*)p, n);
			want("read", r, neg ? EINVAL : okp ? 0 : EFAULT, n, p, n);
			r = write(nul, (void*)p, n);
			want("write null", r, neg ? EINVAL : okp ? 0 : EFAULT, n, p, n);
			r = write(fd, (void*)p, n);
			want("write file", r, neg ? EINVAL : okp ? 0 : EFAULT, n, p, n);
			if(n < 0x80000000UL){
				r = write(pfd[1], (void*)p, n);
				want("write pipe", r, okp ? 0 : EFAULT, n, p, n);
				if(r > 0)
					read(pfd[0], rbuf, r);
			}
			r = getwd((char*)p, n);
			if(n == 0 || neg)
				want("getwd", r, EINVAL, 0, p, n);
			else if(r == 0 && !okp)
				want("getwd", r, EFAULT, 0, p, n);
			r = errstr((char*)p, n);
			if(neg)
				want("errstr", r, EINVAL, 0, p, n);
		}
	for(i = 0; i < nelem(ptrs); i++){
		p = ptrs[i];
		want("stat", stat("/tmp", (struct Dir*)p), EFAULT, 0, p, 0);
		want("fstat", fstat(fd, (struct Dir*)p), EFAULT, 0, p, 0);
		want("pipe", pipe((int*)p), EFAULT, 0, p, 0);
		want("wait", wait((int*)p), p == 0 || p == KZERO - 4 ? ECHILD : EFAULT, 0, p, 0);
		if(p != KZERO - 4)
			want("exec", exec("/bin/echo", (char**)p), EFAULT, 0, p, 0);
		/* a path in the last bytes ends at KZERO unless a NUL ends it first */
		r = open((char*)p, O_RDONLY);
		if(r != -1 || (errno != EFAULT && errno != ENOENT))
			want("open", r, EFAULT, 0, p, 0);
		r = chdir((char*)p);
		if(r != -1 || (errno != EFAULT && errno != ENOENT))
			want("chdir", r, EFAULT, 0, p, 0);
		r = bind((char*)p, "/tmp", MREPL);
		if(r != -1 || (errno != EFAULT && errno != ENOENT))
			want("bind", r, EFAULT, 0, p, 0);
	}
	close(fd);
	close(nul);
	close(pfd[0]);
	close(pfd[1]);
	remove("/tmp/aedge");
}

static void
pipes(void)
{
	char *big;
	int pfd[2], pid, st, n, fds[64];
	long r;

	if((big = sbrk(16*1024*1024)) == (void*)-1)
		fatal("sbrk");
	memset(big, 'p', 16*1024*1024);
	/* the reader killed mid-transfer: the writer dies of its pipe */
	if(pipe(pfd) < 0)
		fatal("pipe");
	if((pid = fork()) == 0){
		close(pfd[1]);
		for(;;)
			read(pfd[0], rbuf, 1000);
	}
	close(pfd[0]);
	if(fork() == 0){
		write(pfd[1], big, 16*1024*1024);
		_exit(7);
	}
	close(pfd[1]);
	sleep(30);
	kill(pid);
	if(wait(&st) < 0 || wait(&n) < 0 || st != 255 || n != 255)
		failcase("reader and writer: status %ld and %ld", st, n);
	/* the writer killed mid-transfer: the reader gets what was written, then end of file */
	if(pipe(pfd) < 0)
		fatal("pipe");
	if((pid = fork()) == 0){
		close(pfd[0]);
		write(pfd[1], big, 16*1024*1024);
		_exit(7);
	}
	close(pfd[1]);
	for(n = 0; n < 100; n++)
		if(read(pfd[0], rbuf, 4096) <= 0)
			failcase("read from a live writer", 0, 0);
	kill(pid);
	while((r = read(pfd[0], rbuf, sizeof rbuf)) > 0)
		;
	if(r != 0 || wait(&st) != pid || st != 255)
		failcase("after the writer's kill: read %ld, status %ld", r, st);
	close(pfd[0]);
	/* descriptors full of pipes */
	for(n = 0; n < 64 && pipe(fds + n) == 0; n += 2)
		;
	if(n == 64 || errno != EMFILE)
		failcase("pipes to %ld: errno %ld", n, errno);
	while(n > 0){
		n -= 2;
		close(fds[n]);
		close(fds[n + 1]);
	}
	sbrk(-16*1024*1024);
}

static int mid;

static void
killmid(int a)
{
	(void)a;
	kill(mid);
}

static void
waitone(int a)
{
	int st;

	if(fork() == 0)
		_exit(a);
	if(wait(&st) < 0 || st != a)
		_exit(1);
	if(wait(&st) != -1 || errno != ECHILD)
		_exit(2);
	_exit(0);
}

static void
notes(int n)
{
	int i, k, fd, st, pid[3];

	for(i = 0; i < n; i++){
		/* mid's child kills mid from one thread and itself from another */
		if((mid = fork()) == 0){
			mid = getpid();
			if(fork() == 0){
				thread(killmid, 0);
				kill(getpid());
				_exit(3);
			}
			for(;;)
				sleep(1000);
		}
		if(wait(&st) != mid || st != 255)
			failcase("round %ld: mid's status %ld", i, st);
		/* two threads, each waiting for a child of its own */
		thread(waitone, 5);
		thread(waitone, 6);
		if(waitn(2) != 0)
			failcase("round %ld: a thread's wait", i, 0);
	}
	if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
		fatal("kpctl");
	for(k = 0; k < 3; k++)
		if((pid[k] = fork()) == 0)
			for(;;){
				if(fork() == 0){
					if(k == 0)
						exec("/bin/echo", (char*[]){ "echo", "-n", NULL });
					_exit(0);
				}
				if(k == 2)
					kill(getpid() - 1);
				wait(&st);
			}
	for(i = 0; i < n; i++){
		if(write(fd, "arcs on", 7) != 7 || write(fd, "arcs off", 8) != 8)
			failcase("arcs: errno %ld", errno, 0);
		if(i % 8 == 0)
			kill(pid[i / 8 % 3]);
	}
	close(fd);
	for(k = 0; k < 3; k++)
		kill(pid[k]);
	while(wait(&st) >= 0)
		;
}

int
main(int argc, char **argv)
{
	int n;

	memset(blk, 'w', sizeof blk);
	if(argc < 2)
		fatal("usage: atk_fs race N | fill | trunc N | edges | pipes | notes N");
	strlcpy(test, argv[1], sizeof test);
	testcase = test;
	n = argc > 2 ? argcount(argv[2], "atk_fs race N | fill | trunc N | edges | pipes | notes N") : 100;
	if(strcmp(test, "race") == 0)
		race(n);
	else if(strcmp(test, "fill") == 0)
		fill();
	else if(strcmp(test, "trunc") == 0)
		trunc(n);
	else if(strcmp(test, "edges") == 0)
		edges();
	else if(strcmp(test, "pipes") == 0)
		pipes();
	else if(strcmp(test, "notes") == 0)
		notes(n);
	else
		fatal("unknown test");
	printf("atk_fs: %s: %s\n", test, nfail ? "failed" : "ok");
	return nfail != 0;
}
