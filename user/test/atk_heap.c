/*
 * atk_heap: try to take the whole kernel heap for files in /tmp, past
 * the 2 MB that files leave for processes.  Fill the heap with files
 * until the root file system refuses (heap free just over its reserve),
 * make one pipe so that free heap drops below the reserve, and grow
 * files again: they must still be refused.  (The check compared with
 * heapfree() - Reserve, which wrapped round below the reserve, and then
 * no process could be made again, not even to remove the files.)
 *
 * atk_heap root: with a directory bound after the root (bind -a), take
 * the rest of the heap with pipes and channels, in threads, until not
 * one channel more fits; then give back one, and open "/" with one
 * channel's room fewer each time: it is the union, marker and all, or
 * refused for want of memory, never the root alone.  (A walk onto a
 * mount point whose union's channel could not be made went on under
 * the bind.)  Before that, fork fails with ENOMEM, not EAGAIN: there
 * is no room for its kernel stack, though the process table has.  Its
 * files and all go after.
 *
 * atk_heap pages: take every free page with sbrk, a megabyte at a
 * time and then a page at a time, until ENOMEM; give them back, and
 * take as many again, which now come from the pages freed rather than
 * from those never used; give them back.  A word in each page is
 * written the first time and must read as zero the second (sbrk
 * zeroes what it maps).
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "lib/check.h"

enum {
	Nthr	= 40,	/* threads that hold pipes: 14 each, 2 MB in all */
	Nfd	= 32,	/* descriptors a process (kern/dat.h) */
};

#define MARK	"/tmp/atk_heap_r/marker"

static int nfile;

/* Files of size s, as many as fit; how many. */
static int
fill(unsigned s)
{
	char name[32];
	int fd, k = 0;

	for(;;){
		snprintf(name, sizeof name, "/tmp/h%d", nfile);
		if((fd = create(name, O_WRONLY, 0664)) < 0)
			return k;
		nfile++;
		if(seek(fd, s - 1, SEEK_SET) < 0 || write(fd, "x", 1) != 1){
			close(fd);
			remove(name);
			nfile--;
			return k;
		}
		close(fd);
		k++;
	}
}

static void
fillall(void)
{
	unsigned s;

	for(s = 4*1024*1024; s >= 256; s /= 2)
		fill(s);
}

static void
sysstat(char *when)
{
	char buf[128];

	readwhole("/dev/sysstat", buf, sizeof buf);
	printf("atk_heap: %s: %s", when, buf);
}

/* Shared by the threads of root: whose turn it is to take heap, and what is left. */
static volatile int turn = -1, full, holder, freereq, freedone, release;
static volatile int phase;	/* 0: pipes, 1: channels */

/*
 * Thread i, at its turn: pipes until the heap or its descriptors run
 * out, then channels ("#/"); the next thread's turn if it has no
 * descriptor left.  Then hold them, giving one back if main asks.
 */
static void
taker(int i)
{
	int fd[Nfd], n = 0, p[2], r;

	while(turn != i && !release)
		sleep(1);
	while(!release && !full){
		if(phase == 0 && (r = pipe(p)) == 0){
			fd[n++] = p[0];
			fd[n++] = p[1];
		}else if(phase == 1 && (r = open("#/", O_RDONLY)) >= 0)
			fd[n++] = r;
		else if(errno == ENOMEM && phase == 0)
			phase = 1;
		else if(errno == ENOMEM){
			holder = n > 0 ? i : i - 1;
			full = 1;
		}else{
			turn = i + 1;
			break;
		}
	}
	while(!release){
		if(holder == i && freereq != freedone){
			close(fd[--n]);
			freedone++;
		}
		sleep(1);
	}
	while(n > 0)
		close(fd[--n]);
}

/* Is the marker in directory fd? */
static int
hasmarker(int fd)
{
	struct Dir d[16];
	long n, i;

	while((n = read(fd, d, sizeof d)) > 0)
		for(i = 0; i < n / (long)sizeof d[0]; i++)
			if(strcmp(d[i].name, "marker") == 0)
				return 1;
	return 0;
}

static void
root(void)
{
	char name[32];
	int i, k, fd, fds[Nfd], nfd = 0;

	mkdir("/tmp/atk_heap_r");
	if((fd = create(MARK, O_WRONLY, 0664)) < 0 || close(fd) < 0 || bind("/tmp/atk_heap_r", "/", MAFTER) < 0)
		fatal("bind");
	for(i = 0; i < Nthr; i++)
		thread(taker, i);
	fillall();
	turn = 0;
	while(!full && turn < Nthr)
		sleep(1);
	if(!full)
		fail("root", "the heap outlasted %d threads of pipes", Nthr);
	else{
		/* No room for a kernel stack: the heap is full, not the process table. */
		if((i = fork()) == 0)
			_exit(0);
		if(i > 0)
			waitn(1);
		if(i >= 0 || errno != ENOMEM)
			fail("root", "fork with the heap full: %d, %s", i, strerror(errno));
		freereq++;
		while(freedone != freereq)
			sleep(1);
		for(k = 0; k < Nfd - 4; k++){
			if((fd = open("/", O_RDONLY)) < 0){
				if(errno != ENOMEM)
					fail("root", "open /: %s", strerror(errno));
				break;
			}
			i = hasmarker(fd);
			close(fd);
			if(!i){
				fail("root", "open / with %d channels held after the heap ran out: the root alone, not the union", k);
				break;
			}
			if((fds[nfd++] = open("#/", O_RDONLY)) < 0)
				fatal("#/");
		}
		if(k == Nfd - 4)
			fail("root", "%d channels held and still room", k);
	}
	while(nfd > 0)
		close(fds[--nfd]);
	release = 1;
	waitn(Nthr);
	if(unmount(NULL, "/") < 0 || remove(MARK) < 0 || remove("/tmp/atk_heap_r") < 0)
		fatal("unmount");
	while(nfile > 0){
		snprintf(name, sizeof name, "/tmp/h%d", --nfile);
		remove(name);
	}
	if(nfail == 0)
		ok("root");
}

/* Is the first word of each page in [p, p+n) zero?  If mark, make it not so. */
static int
pagezero(char *p, unsigned long n, int mark)
{
	unsigned long i;
	int z = 1;

	for(i = (4096 - (unsigned long)p % 4096) % 4096; i + 4 <= n; i += 4096){
		if(*(unsigned int*)(p + i) != 0)
			z = 0;
		if(mark)
			*(unsigned int*)(p + i) = 0xa5a5a5a5;
	}
	return z;
}

/* sbrk by step until ENOMEM; the bytes taken. */
static unsigned long
takeall(unsigned long step)
{
	unsigned long n = 0;

	while(sbrk(step) != (void*)-1)
		n += step;
	if(errno != ENOMEM)
		fail("pages", "sbrk(%lu) after %lu bytes: %s", step, n, strerror(errno));
	return n;
}

static void
pages(void)
{
	char *base = sbrk(0);
	unsigned long n, again;

	n = takeall(1024*1024);
	n += takeall(4096);
	if(n < 16*1024*1024)
		fail("pages", "only %lu bytes of pages for the taking", n);
	if(!pagezero(base, n, 1))
		fail("pages", "the pages taken are not zero");
	if(sbrk(-(long)n) == (void*)-1)
		failcall("sbrk giving every page back", -1);
	again = takeall(1024*1024);
	again += takeall(4096);
	if(again != n)
		fail("pages", "%lu bytes the first time, %lu the second", n, again);
	else if(!pagezero(base, again, 0))
		fail("pages", "pages freed and taken again are not zero");
	if(sbrk(-(long)again) == (void*)-1)
		failcall("sbrk giving every page back again", -1);
	printf("atk_heap: pages: %lu KB taken twice\n", n / 1024);
}

int
main(int argc, char *argv[])
{
	int p[2];

	if(argc == 2 && strcmp(argv[1], "pages") == 0){
		pages();
		printf("atk_heap: pages: %s\n", nfail ? "FAIL" : "ok");
		return nfail != 0;
	}

	if(argc == 2 && strcmp(argv[1], "root") == 0){
		root();
		printf("atk_heap: root: %s\n", nfail ? "FAIL" : "ok");
		return nfail != 0;
	}

	sysstat("before");
	fillall();
	sysstat("files refused");
	if(pipe(p) < 0)
		printf("atk_heap: pipe failed\n");
	fillall();
	sysstat("after the reserve");
	printf("atk_heap: %d files\n", nfile);
	return 0;
}
