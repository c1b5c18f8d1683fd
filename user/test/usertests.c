/*
 * usertests: exercise the system calls, good arguments and bad.
 * Prints each test's name as it starts, a line for each check that
 * fails, and at the end "usertests: ok" (exit 0) or the number of
 * failures (exit 1).  It uses /tmp for its files.
 *
 * usertests -exit N exits with status N: the exec test runs it so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include <pcsample.h>
#include "clock.h"

#define PGSIZE		4096
#define STRADDLE	0xBFFFFFFF	/* 16 bytes from here cross USEREND */
#define PIPEBYTES	(100*1024)

extern char etext[];		/* end of text, from the linker */

static int failures;
static char buf[8192];
static char *echoargv[] = { "echo", NULL };

/* Pointers no call may use: each must give EFAULT. */
static struct {
	uintptr_t	addr;
	char	*name;
} bad[] = {
	{ 0, "nil" },
	{ 0xC0000000, "kernel" },
	{ 0xFFFFF000, "top page" },
	{ 0x80000000, "unmapped" },
};
#define NBAD	(sizeof bad / sizeof bad[0])

static void
fail(const char *fmt, ...)
{
	va_list ap;

	printf("usertests: FAIL ");
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

/* Check that a call returned -1 and set errno to e. */
static void
experr(long r, int e, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	if(r == -1 && errno == e)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if(r != -1)
		fail("%s: returned %ld, want error %s", what, r, strerror(e));
	else
		fail("%s: error %s, want %s", what, strerror(errno), strerror(e));
}

/* fork, with stdout flushed so that the child does not repeat it. */
static int
xfork(void)
{
	int pid;

	fflush(stdout);
	pid = fork();
	if(pid < 0)
		fail("fork: %s", strerror(errno));
	return pid;
}

/* Wait for child pid; its exit status, or -1 if it is not the one that came. */
static int
waitchild(int pid)
{
	int w, st;

	w = wait(&st);
	if(w != pid){
		fail("wait: returned %d, want child %d", w, pid);
		return -1;
	}
	return st;
}

/* Run, in user mode and in the kernel, for at least n clock ticks. */
static void
spin(unsigned int n)
{
	unsigned int t0, hz;

	t0 = clockticks(&hz);
	while(clockticks(&hz) - t0 < n)
		;
}

/* Make file path hold s. */
static int
mkfile(const char *path, const char *s)
{
	int fd;
	long n;

	fd = open(path, O_WRONLY|O_CREAT|O_TRUNC);
	if(fd < 0){
		fail("create %s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, s, strlen(s));
	close(fd);
	if(n != (long)strlen(s)){
		fail("write %s: %ld", path, n);
		return -1;
	}
	return 0;
}

/* Check that file path holds exactly s. */
static void
checkfile(const char *path, const char *s)
{
	long n;
	int fd;

	fd = open(path, O_RDONLY);
	if(fd < 0){
		fail("open %s: %s", path, strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof buf);
	close(fd);
	if(n != (long)strlen(s) || memcmp(buf, s, n) != 0)
		fail("%s: read %ld bytes, want \"%s\"", path, n, s);
}

static void
forktest(void)
{
	static int global = 1;
	int i, j, pid, st, w, pids[5];
	int parent = getpid();

	if(parent <= 0)
		fail("getpid: %d", parent);
	for(i = 0; i < 5; i++){
		pids[i] = xfork();
		if(pids[i] == 0){
			global = 2;
			exit(getpid() == parent ? 100 : i == 4 ? 255 : i);
		}
	}
	for(i = 0; i < 5; i++){
		w = wait(&st);
		for(j = 0; j < 5 && pids[j] != w; j++)
			;
		if(j == 5)
			fail("wait: returned %d, not a child", w);
		else if(st != (j == 4 ? 255 : j))
			fail("child %d: status %d, want %d", j, st, j == 4 ? 255 : j);
	}
	if(global != 1)
		fail("fork: the child's write reached the parent");
	experr(wait(&st), ECHILD, "wait with no children");

	pid = xfork();
	if(pid == 0)
		for(;;)
			sleep(1000);
	sleep(10);
	if(kill(pid) < 0)
		fail("kill %d: %s", pid, strerror(errno));
	if((st = waitchild(pid)) != 255)
		fail("killed child: status %d, want 255", st);
	experr(kill(99999), ESRCH, "kill 99999");
	experr(kill(1), EPERM, "kill 1, init");
}

static void
exectest(void)
{
	char *args[] = { "usertests", "-exit", "42", NULL };
	int pid, st;

	pid = xfork();
	if(pid == 0){
		exec("/bin/usertests", args);
		exit(99);
	}
	if((st = waitchild(pid)) != 42)
		fail("exec usertests -exit 42: status %d", st);
	experr(exec("/nonexistent", echoargv), ENOENT, "exec /nonexistent");
	if(mkfile("/tmp/ut.notelf", "#!/bin/sh\necho not elf\n") == 0)
		experr(exec("/tmp/ut.notelf", echoargv), ENOEXEC, "exec a text file");
	remove("/tmp/ut.notelf");
}

/* The byte at offset i of the pipe test's stream. */
static int
pattern(long i)
{
	return (i ^ i >> 8) & 0xff;
}

static void
pipetest(void)
{
	int p[2], pid;
	long i, n, m, total;

	if(pipe(p) < 0){
		fail("pipe: %s", strerror(errno));
		return;
	}
	if((n = read(p[0], buf, 0)) != 0)
		fail("pipe: a read of 0 bytes from the empty pipe returned %ld", n);
	pid = xfork();
	if(pid == 0){
		close(p[0]);
		for(total = 0; total < PIPEBYTES; total += n){
			m = rand() % sizeof buf + 1;
			if(m > PIPEBYTES - total)
				m = PIPEBYTES - total;
			for(i = 0; i < m; i++)
				buf[i] = pattern(total + i);
			n = write(p[1], buf, m);
			if(n <= 0){
				fail("pipe write: %ld", n);
				exit(1);
			}
		}
		exit(0);
	}
	close(p[1]);
	total = 0;
	while((n = read(p[0], buf, rand() % sizeof buf + 1)) > 0){
		for(i = 0; i < n; i++)
			if((unsigned char)buf[i] != pattern(total + i)){
				fail("pipe: byte %ld is %d, want %d", total + i, buf[i], pattern(total + i));
				break;
			}
		total += n;
	}
	close(p[0]);
	if(n < 0 || total != PIPEBYTES)
		fail("pipe: read %ld bytes (last %ld), want %d", total, n, PIPEBYTES);
	if(waitchild(pid) != 0)
		fail("pipe writer failed");
}

static void
filetest(void)
{
	static char *path = "/tmp/ut.file";
	struct Dir d;
	long i, n, off;
	int fd;

	remove(path);
	fd = open(path, O_RDWR|O_CREAT|O_TRUNC);
	if(fd < 0){
		fail("create %s: %s", path, strerror(errno));
		return;
	}
	if((n = write(fd, "hello, world\n", 13)) != 13)
		fail("write: %ld", n);
	if((off = seek(fd, 0, SEEK_SET)) != 0)
		fail("seek 0: %ld", off);
	if((n = read(fd, buf, sizeof buf)) != 13 || memcmp(buf, "hello, world\n", 13) != 0)
		fail("read back: %ld", n);
	if((n = read(fd, buf, sizeof buf)) != 0)
		fail("read at end: %ld", n);
	if(fstat(fd, &d) < 0 || d.length != 13 || (d.mode & DMDIR))
		fail("fstat: length %u mode 0x%x", d.length, d.mode);
	experr(read(fd, buf, -1), EINVAL, "read length -1");
	experr(write(fd, buf, -1), EINVAL, "write length -1");
	close(fd);
	if(stat(path, &d) < 0 || strcmp(d.name, "ut.file") != 0)
		fail("stat %s: name %s", path, d.name);

	fd = open(path, O_WRONLY|O_APPEND);
	seek(fd, 0, SEEK_SET);
	if((n = write(fd, "more\n", 5)) != 5)
		fail("append: %ld", n);
	experr(read(fd, buf, 1), EBADF, "read of a write-only fd");
	close(fd);
	checkfile(path, "hello, world\nmore\n");

	fd = open(path, O_RDONLY);
	if((off = seek(fd, 7, SEEK_SET)) != 7 || read(fd, buf, 5) != 5 || memcmp(buf, "world", 5) != 0)
		fail("seek 7: %ld", off);
	if((off = seek(fd, -5, SEEK_END)) != 13 || read(fd, buf, 5) != 5 || memcmp(buf, "more\n", 5) != 0)
		fail("seek -5 from end: %ld", off);
	if((off = seek(fd, -6, SEEK_CUR)) != 12 || read(fd, buf, 1) != 1 || buf[0] != '\n')
		fail("seek -6 from here: %ld", off);
	experr(seek(fd, -100, SEEK_SET), EINVAL, "seek to -100");
	experr(seek(fd, 0, 99), EINVAL, "seek whence 99");
	experr(write(fd, "x", 1), EBADF, "write to a read-only fd");
	close(fd);

	fd = open(path, O_RDWR|O_TRUNC);
	if(fstat(fd, &d) < 0 || d.length != 0)
		fail("truncate: length %u", d.length);
	for(off = 0; off < 20000; off += n){
		for(i = 0; i < 1000; i++)
			buf[i] = pattern(off + i);
		if((n = write(fd, buf, 1000)) != 1000){
			fail("write at %ld: %ld", off, n);
			break;
		}
	}
	seek(fd, 0, SEEK_SET);
	for(off = 0; (n = read(fd, buf, 777)) > 0; off += n)
		for(i = 0; i < n; i++)
			if((unsigned char)buf[i] != pattern(off + i)){
				fail("big file: byte %ld is %d", off + i, buf[i]);
				break;
			}
	if(off != 20000)
		fail("big file: read %ld bytes", off);
	close(fd);

	if(remove(path) < 0)
		fail("remove %s: %s", path, strerror(errno));
	experr(stat(path, &d), ENOENT, "stat of a removed file");
	experr(open(path, O_RDONLY), ENOENT, "open of a removed file");
	experr(remove(path), ENOENT, "remove of a removed file");
	experr(open("/tmp/nonexistent/x", O_RDONLY), ENOENT, "open /tmp/nonexistent/x");

	fd = create("/tmp/ut.created", O_RDWR, 0666);
	if(fd < 0)
		fail("create: %s", strerror(errno));
	close(fd);
	checkfile("/tmp/ut.created", "");
	remove("/tmp/ut.created");
}

static void
dirtest(void)
{
	static char *dir = "/tmp/ut.dir";
	struct Dir d, dirs[8];
	int fd, i, found;
	long n;

	if(mkdir(dir) < 0){
		fail("mkdir %s: %s", dir, strerror(errno));
		return;
	}
	if(stat(dir, &d) < 0 || !(d.mode & DMDIR))
		fail("stat %s: mode 0x%x", dir, d.mode);
	experr(mkdir(dir), EEXIST, "mkdir of an existing directory");
	experr(mkdir("/tmp/nonexistent/x"), ENOENT, "mkdir /tmp/nonexistent/x");
	mkfile("/tmp/ut.dir/f", "x");
	fd = create("/tmp/ut.dir/sub", O_RDONLY, DMDIR|0777);
	if(fd < 0 || stat("/tmp/ut.dir/sub", &d) < 0 || !(d.mode & DMDIR))
		fail("create with DMDIR: %s", strerror(errno));
	close(fd);

	fd = open(dir, O_RDONLY);
	found = 0;
	while((n = read(fd, dirs, sizeof dirs)) > 0){
		if(n % sizeof(struct Dir) != 0)
			fail("read of a directory: %ld bytes", n);
		for(i = 0; i < n / (long)sizeof(struct Dir); i++)
			if(strcmp(dirs[i].name, "f") == 0 || strcmp(dirs[i].name, "sub") == 0)
				found++;
	}
	close(fd);
	if(found != 2)
		fail("read of a directory: found %d of f and sub", found);

	experr(open(dir, O_WRONLY), EISDIR, "open of a directory for writing");
	experr(open(dir, O_RDWR), EISDIR, "open of a directory for reading and writing");
	experr(remove(dir), ENOTEMPTY, "remove of a full directory");
	if(chdir(dir) < 0)
		fail("chdir %s: %s", dir, strerror(errno));
	checkfile("f", "x");
	if(stat("../ut.dir/f", &d) < 0)
		fail("stat ../ut.dir/f: %s", strerror(errno));
	chdir("/");
	experr(chdir("/tmp/ut.dir/f"), ENOTDIR, "chdir to a file");
	experr(create("/tmp/ut.dir/f/x", O_WRONLY, 0666), ENOTDIR, "create under a file");
	experr(mkdir("/tmp/ut.dir/f/x"), ENOTDIR, "mkdir under a file");
	if(remove("/tmp/ut.dir/f") < 0 || remove("/tmp/ut.dir/sub") < 0 || remove(dir) < 0)
		fail("remove: %s", strerror(errno));
	experr(stat(dir, &d), ENOENT, "stat of a removed directory");
}

static void
duptest(void)
{
	int fd, d;
	long off;

	fd = open("/tmp/ut.dup", O_RDWR|O_CREAT|O_TRUNC);
	d = dup(fd);
	if(fd < 0 || d < 0 || d == fd){
		fail("dup: %d %d", fd, d);
		return;
	}
	write(fd, "ab", 2);
	write(d, "cd", 2);
	if((off = seek(fd, 0, SEEK_CUR)) != 4)
		fail("dup: offset not shared: %ld", off);
	if(dup2(fd, 10) != 10)
		fail("dup2 to 10: %s", strerror(errno));
	write(10, "ef", 2);
	if(close(10) < 0)
		fail("close 10: %s", strerror(errno));
	experr(close(10), EBADF, "close of a closed fd");
	if(dup2(fd, fd) != fd)
		fail("dup2 onto itself");
	if(dup2(fd, d) != d)
		fail("dup2 onto an open fd");
	write(d, "g", 1);
	close(d);
	experr(write(d, "h", 1), EBADF, "write to a closed fd");
	close(fd);
	checkfile("/tmp/ut.dup", "abcdefg");
	remove("/tmp/ut.dup");
}

static void
sbrktest(void)
{
	char *old, *p, *q;
	int pid, st;

	old = sbrk(0);
	p = sbrk(3*PGSIZE);
	if(p != old){
		fail("sbrk(3 pages): %p, want %p", p, old);
		return;
	}
	memset(p, 0xab, 3*PGSIZE);
	if((q = sbrk(0)) != old + 3*PGSIZE)
		fail("sbrk(0) after growing: %p", q);
	if((q = sbrk(-3*PGSIZE)) != old + 3*PGSIZE)
		fail("sbrk(-3 pages): %p", q);
	if((q = sbrk(0)) != old)
		fail("sbrk(0) after shrinking: %p, want %p", q, old);
	pid = xfork();
	if(pid == 0){
		q = (char*)(((uintptr_t)old + PGSIZE - 1) & ~(PGSIZE - 1)) + PGSIZE;
		*(volatile char*)q = 1;
		exit(0);
	}
	if((st = waitchild(pid)) == 0)
		fail("a write above the shrunk break did not fault");

	p = sbrk(1024*1024);
	if(p == (char*)-1)
		fail("sbrk(1MB): %s", strerror(errno));
	else{
		memset(p, 1, 1024*1024);
		sbrk(-1024*1024);
	}
	p = sbrk(16);
	q = sbrk(16);
	if(p == (char*)-1 || q != p + 16)
		fail("sbrk(16) twice: %p then %p", p, q);
	else{
		memset(p, 1, 32);
		sbrk(-32);
	}
	experr((long)sbrk(0x7fffffff), ENOMEM, "sbrk(0x7fffffff)");
	if(sbrk(-0x7fffffff) != (void*)-1)
		fail("sbrk(-0x7fffffff) succeeded");
	if((q = sbrk(0)) != old)
		fail("sbrk(0) after failures: %p, want %p", q, old);
}

static void
malloctest(void)
{
	char *p[50];
	int i, j, n;

	for(i = 0; i < 50; i++){
		n = i*97 % 3000 + 1;
		p[i] = malloc(n);
		if(p[i] == NULL){
			fail("malloc(%d)", n);
			return;
		}
		memset(p[i], i, n);
	}
	for(i = 0; i < 50; i += 2)
		free(p[i]);
	for(i = 1; i < 50; i += 2){
		n = i*97 % 3000 + 1;
		p[i] = realloc(p[i], 2*n);
		for(j = 0; j < n; j++)
			if(p[i][j] != i){
				fail("realloc lost data in block %d", i);
				break;
			}
		free(p[i]);
	}
}

/* Every call given a bad pointer, fd or length. */
static void
badargtest(void)
{
	char *argv1[] = { "echo", NULL, NULL };
	struct Dir d;
	char *b, *end;
	int fdr, fdw, pid, st, fd;
	unsigned int i, grow;

	mkfile("/tmp/ut.bad", "some bytes to read back");
	fdr = open("/tmp/ut.bad", O_RDONLY);
	fdw = open("/tmp/ut.bad2", O_WRONLY|O_CREAT|O_TRUNC);
	for(i = 0; i < NBAD; i++){
		b = (char*)bad[i].addr;
		experr(read(fdr, b, 16), EFAULT, "read into %s", bad[i].name);
		experr(write(fdw, b, 16), EFAULT, "write from %s", bad[i].name);
		experr(open(b, O_RDONLY), EFAULT, "open %s", bad[i].name);
		experr(create(b, O_WRONLY, 0666), EFAULT, "create %s", bad[i].name);
		experr(stat(b, &d), EFAULT, "stat %s", bad[i].name);
		experr(stat("/", (struct Dir*)b), EFAULT, "stat into %s", bad[i].name);
		experr(fstat(fdr, (struct Dir*)b), EFAULT, "fstat into %s", bad[i].name);
		experr(remove(b), EFAULT, "remove %s", bad[i].name);
		experr(chdir(b), EFAULT, "chdir %s", bad[i].name);
		experr(mkdir(b), EFAULT, "mkdir %s", bad[i].name);
		experr(bind(b, "/tmp", MAFTER), EFAULT, "bind %s", bad[i].name);
		experr(bind("/tmp", b, MAFTER), EFAULT, "bind onto %s", bad[i].name);
		experr(errstr(b, ERRMAX), EFAULT, "errstr into %s", bad[i].name);
		experr(pipe((int*)b), EFAULT, "pipe into %s", bad[i].name);
		experr(exec(b, echoargv), EFAULT, "exec %s", bad[i].name);
		experr(exec("/bin/echo", (char**)b), EFAULT, "exec argv %s", bad[i].name);
		if(b == NULL)
			continue;	/* NULL ends an argv; wait(NULL) drops the status */
		argv1[1] = b;
		experr(exec("/bin/echo", argv1), EFAULT, "exec argv[1] %s", bad[i].name);
		pid = xfork();
		if(pid == 0)
			exit(0);
		experr(wait((int*)b), EFAULT, "wait into %s", bad[i].name);
		if(wait(&st) != pid && errno != ECHILD)
			fail("wait after a bad wait: %s", strerror(errno));
	}

	b = (char*)(uintptr_t)badargtest;
	experr(read(fdr, b, 16), EFAULT, "read into the text");
	experr(stat("/", (struct Dir*)b), EFAULT, "stat into the text");
	experr(errstr(b, ERRMAX), EFAULT, "errstr into the text");
	experr(pipe((int*)b), EFAULT, "pipe into the text");
	b = (char*)bad[0].name;
	experr(read(fdr, b, 4), EFAULT, "read into read-only data");

	b = (char*)STRADDLE;
	experr(read(fdr, b, 16), EFAULT, "read across the end of user space");
	experr(write(fdw, b, 16), EFAULT, "write across the end of user space");
	b = (char*)(USEREND - 16);
	experr(stat("/", (struct Dir*)b), EFAULT, "stat across the end of user space");
	experr(fstat(fdr, (struct Dir*)b), EFAULT, "fstat across the end of user space");
	experr(errstr(b, ERRMAX), EFAULT, "errstr across the end of user space");
	experr(pipe((int*)(USEREND - 4)), EFAULT, "pipe across the end of user space");
	experr(wait((int*)(USEREND - 2)), EFAULT, "wait across the end of user space");

	/* A string running off the end of the heap, into unmapped memory. */
	end = sbrk(0);
	grow = PGSIZE + (PGSIZE - (uintptr_t)end % PGSIZE) % PGSIZE;
	if(sbrk(grow) == (void*)-1)
		fail("sbrk: %s", strerror(errno));
	else{
		end = sbrk(0);
		b = end - 16;
		memset(b, 'a', 16);
		experr(open(b, O_RDONLY), EFAULT, "open of a string off the heap");
		experr(create(b, O_WRONLY, 0666), EFAULT, "create of a string off the heap");
		experr(stat(b, &d), EFAULT, "stat of a string off the heap");
		experr(remove(b), EFAULT, "remove of a string off the heap");
		experr(chdir(b), EFAULT, "chdir to a string off the heap");
		experr(mkdir(b), EFAULT, "mkdir of a string off the heap");
		experr(bind(b, "/tmp", MAFTER), EFAULT, "bind of a string off the heap");
		experr(exec(b, echoargv), EFAULT, "exec of a string off the heap");
		argv1[1] = b;
		experr(exec("/bin/echo", argv1), EFAULT, "exec of an argument off the heap");
		*(char**)(end - 4) = "echo";
		experr(exec("/bin/echo", (char**)(end - 4)), EFAULT, "exec of an argv off the heap");
		experr(read(fdr, end - 8, 16), EFAULT, "read across the break");
		sbrk(-grow);
	}

	for(i = 0; i < 2; i++){
		fd = i == 0 ? -1 : 999;
		experr(read(fd, buf, 1), EBADF, "read fd %d", fd);
		experr(write(fd, buf, 1), EBADF, "write fd %d", fd);
		experr(close(fd), EBADF, "close fd %d", fd);
		experr(fstat(fd, &d), EBADF, "fstat fd %d", fd);
		experr(seek(fd, 0, SEEK_SET), EBADF, "seek fd %d", fd);
		experr(dup(fd), EBADF, "dup fd %d", fd);
		experr(dup2(fd, 5), EBADF, "dup2 fd %d", fd);
		experr(dup2(fdr, fd), EBADF, "dup2 onto fd %d", fd);
	}
	experr(errstr(buf, -1), EINVAL, "errstr length -1");
	experr(syscall(0), ENOSYS, "system call 0");
	experr(syscall(NSYSCALL), ENOSYS, "system call %d", NSYSCALL);
	experr(syscall(-1), ENOSYS, "system call -1");
	experr(syscall(1000), ENOSYS, "system call 1000");
	close(fdr);
	close(fdw);
	remove("/tmp/ut.bad");
	remove("/tmp/ut.bad2");
}

static void
errstrtest(void)
{
	char msg[ERRMAX];
	int fd;

	experr(open("/nonexistent", O_RDONLY), ENOENT, "open /nonexistent");
	if(errstr(msg, sizeof msg) < 0 || msg[0] == '\0')
		fail("errstr after a failed open: \"%s\"", msg);
	fd = open("/dev/kpctl", O_WRONLY);
	if(fd < 0){
		fail("open /dev/kpctl: %s", strerror(errno));
		return;
	}
	if(write(fd, "bogus", 5) != -1)
		fail("kpctl accepted \"bogus\"");
	else if(errstr(msg, sizeof msg) < 0 || strcmp(msg, "bad control message") != 0)
		fail("errstr after a bad kpctl message: \"%s\"", msg);
	close(fd);
}

static void
sleeptest(void)
{
	unsigned int t0, t1, hz;

	t0 = clockticks(&hz);
	if(hz == 0){
		fail("/dev/time: %s", strerror(errno));
		return;
	}
	if(sleep(100) != 0)
		fail("sleep(100): %s", strerror(errno));
	t1 = clockticks(&hz);
	if(t1 - t0 + 1 < hz/10)
		fail("sleep(100) took %u ticks at %u Hz", t1 - t0, hz);
}

static void
proftest(void)
{
	static unsigned short counts[8192];
	static uintptr_t samples[64];
	long i, n, sum;

	if(pcsample(samples, 64) != 0)
		fail("first pcsample did not return 0");
	if(profil(counts, sizeof counts, 0x1000, 0x4000) < 0)
		fail("profil: %s", strerror(errno));
	spin(5);
	if(profil(NULL, 0, 0, 0) < 0)
		fail("profil off: %s", strerror(errno));
	n = pcsample(samples, 0);
	if(n <= 0 || n > 64)
		fail("pcsample stored %ld samples in 5 ticks", n);
	for(i = 0; i < n && i < 64; i++)
		if(samples[i] < 0x1000 || samples[i] >= (uintptr_t)etext){
			fail("pcsample: sample %ld is 0x%x, outside the text", i, samples[i]);
			break;
		}
	if(pcsample(samples, 0) != 0)
		fail("pcsample after an empty invocation did not return 0");
	sum = 0;
	for(i = 0; i < 8192; i++)
		sum += counts[i];
	if(sum == 0)
		fail("profil counted nothing in 5 ticks");

	experr(profil((unsigned short*)0xC0000000, 64, 0x1000, 0x10000), EFAULT, "profil into the kernel");
	experr(profil((unsigned short*)0xFFFFF000, 64, 0x1000, 0x10000), EFAULT, "profil into the top page");
	experr(profil((unsigned short*)(USEREND - 16), 64, 0x1000, 0x10000), EFAULT, "profil across the end of user space");
	experr(profil((unsigned short*)(buf + 1), 64, 0x1000, 0x10000), EINVAL, "profil odd buffer");
	experr(profil(counts, 64, 0x1000, 0x10001), EINVAL, "profil scale 0x10001");
	experr(pcsample((uintptr_t*)0xC0000000, 16), EFAULT, "pcsample into the kernel");
	experr(pcsample((uintptr_t*)0xFFFFF000, 16), EFAULT, "pcsample into the top page");
	experr(pcsample((uintptr_t*)(USEREND - 16), 16), EFAULT, "pcsample across the end of user space");
	experr(pcsample(samples, -1), EINVAL, "pcsample -1 samples");
	profil(NULL, 0, 0, 0);
}

/*
 * getwd's buffer is checked as every call's is, and setnoteid takes a
 * group or 0 for a new one (^C itself is tested at the
 * console, tools/test/console.sh).
 */
static void
notewdtest(void)
{
	char buf[64];
	unsigned int i;

	if(chdir("/tmp") < 0 || getwd(buf, sizeof buf) < 0 || strcmp(buf, "/tmp") != 0)
		fail("getwd in /tmp: %s", strerror(errno));
	if(getwd(buf, 5) < 0 || strcmp(buf, "/tmp") != 0)
		fail("getwd into exactly enough room: %s", strerror(errno));
	experr(getwd(buf, 4), ERANGE, "getwd into 4 bytes");
	experr(getwd(buf, 0), EINVAL, "getwd into 0 bytes");
	experr(getwd(buf, -1), EINVAL, "getwd length -1");
	for(i = 0; i < NBAD; i++)
		experr(getwd((char*)bad[i].addr, 16), EFAULT, "getwd into %s", bad[i].name);
	experr(getwd((char*)(USEREND - 2), 16), EFAULT, "getwd across the end of user space");
	chdir("/");
	experr(setnoteid(-1), EINVAL, "setnoteid -1");
	if(setnoteid(0) != getpid())
		fail("setnoteid(0): not a group named by the pid");
	if(setnoteid(123456) != 123456)
		fail("setnoteid(123456): not joined");
	setnoteid(0);
}

static struct {
	char	*name;
	void	(*f)(void);
} tests[] = {
	{ "fork", forktest },
	{ "exec", exectest },
	{ "pipe", pipetest },
	{ "file", filetest },
	{ "dir", dirtest },
	{ "dup", duptest },
	{ "sbrk", sbrktest },
	{ "malloc", malloctest },
	{ "badarg", badargtest },
	{ "errstr", errstrtest },
	{ "sleep", sleeptest },
	{ "prof", proftest },
	{ "notewd", notewdtest },
};

int
main(int argc, char *argv[])
{
	unsigned int i;

	if(argc > 1 && strcmp(argv[1], "-exit") == 0)
		return argc == 3 && argv[3] == NULL ? atoi(argv[2]) : 99;
	for(i = 0; i < sizeof tests / sizeof tests[0]; i++){
		printf("usertests: %s\n", tests[i].name);
		tests[i].f();
	}
	if(failures > 0){
		printf("usertests: %d failures\n", failures);
		return 1;
	}
	printf("usertests: ok\n");
	return 0;
}
