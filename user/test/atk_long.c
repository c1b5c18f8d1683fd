/*
 * atk_long sbrk|fork|exec|headers|dirs|free|hide|check|walk: a child sleeps 100 ms while its
 * parent makes long system calls: sbrk of 96 MB (every page zeroed),
 * fork of a 48 MB process (every page copied), exec of a program whose
 * bss is 96 MB, exec of programs with 30000 program headers, all but
 * their own empty, by four processes at once, or reads of a directory
 * of 900 files whole, by four processes at once.  The child prints how
 * long its sleep took: the scheduling points in page mapping, copying,
 * and reading headers and directories must let it wake on time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "lib/check.h"

enum { MB = 1024*1024 };

/* /bin/echo into elf, size bytes at most: its length, or -1; and where its program headers are. */
static long
readecho(char *elf, long size, unsigned *phoff, unsigned short *phnum)
{
	long n;
	int fd;

	if((fd = open("/bin/echo", O_RDONLY)) < 0)
		return -1;
	n = read(fd, elf, size);
	close(fd);
	memmove(phoff, elf + 28, 4);
	memmove(phnum, elf + 44, 2);
	return n;
}

/* /bin/echo as /tmp/bigbss, its writable segment's memsz grown by 96 MB. */
static int
mkbig(void)
{
	static char elf[256*1024];
	unsigned *ph, i, phoff;
	unsigned short phnum;
	long n;
	int fd;

	if((n = readecho(elf, sizeof elf, &phoff, &phnum)) < 0)
		return -1;
	for(i = 0; i < phnum; i++){
		ph = (unsigned*)(elf + phoff + 32*i);
		if(ph[0] == 1 && ph[6] & 2)
			ph[5] += 96*MB;
	}
	if((fd = create("/tmp/bigbss", O_WRONLY, 0775)) < 0)
		return -1;
	write(fd, elf, n);
	close(fd);
	return 0;
}

/*
 * /bin/echo as /tmp/manyphN, N from 0 to Nhdr-1, its program headers
 * moved past its end, Nph of them: its own last, the rest before them
 * empty (PT_NULL), most of a MB that exec reads a header at a time.
 * Each process execs a copy of its own: on one file they would take
 * turns at its lock, and sleep.
 */
enum { Nhdr = 4, Nph = 30000 };

static int
mkheaders(void)
{
	static char elf[256*1024], zero[64*1024];
	unsigned phoff, nzero, k, all = Nph;
	unsigned short phnum;
	char name[32];
	long n;
	int fd, i;

	if((n = readecho(elf, sizeof elf, &phoff, &phnum)) < 0)
		return -1;
	memmove(elf + 28, &n, 4);
	memmove(elf + 44, &all, 2);
	for(i = 0; i < Nhdr; i++){
		snprintf(name, sizeof name, "/tmp/manyph%d", i);
		if((fd = create(name, O_WRONLY, 0775)) < 0)
			return -1;
		write(fd, elf, n);
		for(nzero = 32*(all - phnum); nzero > 0; nzero -= k){
			k = nzero < sizeof zero ? nzero : sizeof zero;
			write(fd, zero, k);
		}
		write(fd, elf + phoff, 32*phnum);
		close(fd);
	}
	return 0;
}

/* /tmp/dirs, a directory of (at most) 900 empty files: the root file system's 1024 nodes, less those in use. */
static int
mkdirs(void)
{
	char name[32];
	int i, fd;

	if(mkdir("/tmp/dirs") < 0)
		return -1;
	for(i = 0; i < 900; i++){
		snprintf(name, sizeof name, "/tmp/dirs/%d", i);
		if((fd = create(name, O_WRONLY, 0664)) < 0)
			break;
		close(fd);
	}
	return i > 500 ? 0 : -1;
}

/* Read /tmp/dirs whole, n times. */
static void
readdirs(int n)
{
	static struct Dir d[1024];
	int fd;

	while(n-- > 0){
		if((fd = open("/tmp/dirs", O_RDONLY)) < 0 || read(fd, d, sizeof d) < 500*(long)sizeof d[0])
			printf("atk_long: read of /tmp/dirs failed\n");
		close(fd);
	}
}

/*
 * free: a prober that reads the clock again and again for 300 ms, and
 * says the longest it went without a turn (timed by the time-stamp
 * counter, in ticks at their mean rate: a processor with interrupts
 * off loses ticks, which then cannot time it), while this process grows
 * by 96 MB and gives it back, twice, and two children grow by 96 MB
 * and exit, and one more is killed as it spins with 96 MB, to die at
 * a clock tick, a trap from user mode: on 1 processor a gap is a
 * stretch the others kept it.
 */
static void
prober(char *kind)
{
	unsigned t, start, hz;
	unsigned long long c, last, first, gap = 0;

	if(fork() == 0){
		start = clockticks(&hz);
		first = last = tsc();
		while((t = clockticks(&hz)) - start < hz*3/10){
			if((c = tsc()) - last > gap)
				gap = c - last;
			last = c;
		}
		printf("atk_long: %s: longest gap %u ticks at %u Hz\n", kind,
			(unsigned)((gap * (t - start) + (last - first) / 2) / (last - first)), hz);
		exit(0);
	}
}

static int
freeing(void)
{
	int i, st, pid, p[2];
	char c;

	prober("free");
	for(i = 0; i < 2; i++)
		if(sbrk(96*MB) == (void*)-1 || sbrk(-96*MB) == (void*)-1)
			printf("atk_long: sbrk failed\n");
	/* And processes that exit with 96 MB, which exit frees. */
	for(i = 0; i < 2; i++)
		if(fork() == 0){
			if(sbrk(96*MB) == (void*)-1)
				printf("atk_long: sbrk failed\n");
			exit(0);
		}else
			wait(&st);
	if(pipe(p) < 0 || (pid = fork()) < 0)
		printf("atk_long: fork failed\n");
	else if(pid == 0){
		if(sbrk(96*MB) == (void*)-1)
			printf("atk_long: sbrk failed\n");
		write(p[1], "", 1);
		for(;;)
			;
	}else{
		read(p[0], &c, 1);
		kill(pid);
		wait(&st);
		close(p[0]);
		close(p[1]);
	}
	wait(&st);
	return 0;
}

/*
 * hide: as free, but in a process with a thread asleep beside, so
 * that sbrk's shrink only hides the pages (kern/image.c) and its
 * growth shows them again, each zeroed: 40 MB three times; then, the
 * thread gone and the hidden pages freed, with another thread beside,
 * 96 MB hidden at once, twice: shown again, they need no free pages,
 * of which there are fewer than 96 MB's.
 */
static void
hideheap(unsigned mb, int rounds)
{
	int i, st, p[2];
	char c;

	if(pipe(p) < 0)
		exit(1);
	if(rfork(RFPROC|RFMEM) == 0){
		close(p[1]);	/* its own table's: the read ends when this process closes its p[1] */
		read(p[0], &c, 1);
		_exit(0);
	}
	for(i = 0; i < rounds; i++)
		if(sbrk(mb*MB) == (void*)-1 || sbrk(-mb*MB) == (void*)-1)
			printf("atk_long: sbrk failed\n");
	close(p[0]);
	close(p[1]);
	wait(&st);
}

static int
hiding(void)
{
	int st;

	prober("hide");
	if(fork() == 0){
		hideheap(40, 3);
		/* Alone in the image again: a shrink frees what is hidden. */
		if(sbrk(4096) == (void*)-1 || sbrk(-4096) == (void*)-1)
			printf("atk_long: sbrk failed\n");
		hideheap(96, 2);
		exit(0);
	}
	wait(&st);
	wait(&st);
	return 0;
}

/*
 * check: as free, beside reads of nothing (/dev/null) into a buffer
 * of 96 MB, which each call checks is the process's, page by page.
 */
static int
checking(void)
{
	char *buf;
	int i, fd, st;

	prober("check");
	if((buf = sbrk(96*MB)) == (void*)-1 || (fd = open("/dev/null", O_RDONLY)) < 0)
		return 1;
	for(i = 0; i < 200; i++)
		if(read(fd, buf, 96*MB) != 0)
			printf("atk_long: read of /dev/null failed\n");
	wait(&st);
	return 0;
}

/*
 * walk: as free, the prober beside stats of a path of 125 elements
 * through /tmp/walk, 850 files and b, bound under itself as b.
 */
static int
walking(void)
{
	char name[32], path[256];
	struct Dir d;
	int i, n, st;

	if(mkdir("/tmp/walk") < 0)
		return 1;
	for(i = 0; i < 850; i++){
		snprintf(name, sizeof name, "/tmp/walk/%d", i);
		close(create(name, O_WRONLY, 0664));
	}
	if(mkdir("/tmp/walk/b") < 0 || bind("/tmp/walk", "/tmp/walk/b", MREPL) < 0)
		printf("atk_long: cannot bind /tmp/walk\n");
	strcpy(path, "/tmp/walk");
	for(n = strlen(path); n < 250; n += 2)
		strcpy(path + n, "/b");
	prober("walk");
	for(i = 0; i < 60; i++)
		if(stat(path, &d) < 0)
			printf("atk_long: stat of the long path failed\n");
	wait(&st);
	unmount(NULL, "/tmp/walk/b");
	remove("/tmp/walk/b");
	for(i = 0; i < 850; i++){
		snprintf(name, sizeof name, "/tmp/walk/%d", i);
		remove(name);
	}
	remove("/tmp/walk");
	return 0;
}

int
main(int argc, char *argv[])
{
	char *kind = argc > 1 ? argv[1] : "sbrk";
	static char *eargv[] = { "bigbss", "exec ran", NULL };
	unsigned t0, t1, hz;
	int pid, st, i;
	char name[32];

	if(strcmp(kind, "free") == 0)
		return freeing();
	if(strcmp(kind, "walk") == 0)
		return walking();
	if(strcmp(kind, "hide") == 0)
		return hiding();
	if(strcmp(kind, "check") == 0)
		return checking();
	if(strcmp(kind, "exec") == 0 && mkbig() < 0){
		printf("atk_long: cannot make /tmp/bigbss\n");
		return 1;
	}
	if(strcmp(kind, "dirs") == 0 && mkdirs() < 0){
		printf("atk_long: cannot make /tmp/dirs\n");
		return 1;
	}
	if(strcmp(kind, "headers") == 0 && mkheaders() < 0){
		printf("atk_long: cannot make /tmp/manyph\n");
		return 1;
	}
	if((pid = fork()) == 0){
		t0 = clockticks(&hz);
		sleep(100);
		t1 = clockticks(&hz);
		printf("atk_long: %s: sleep(100) took %u ms\n", kind, (t1 - t0)*1000/hz);
		printf("atk_long: %s: %u ticks at %u Hz\n", kind, t1 - t0, hz);
		exit(0);
	}
	sleep(20);	/* the child is asleep */
	if(strcmp(kind, "sbrk") == 0){
		if(sbrk(96*MB) == (void*)-1)
			printf("atk_long: sbrk failed\n");
	}else if(strcmp(kind, "fork") == 0){
		if(sbrk(48*MB) == (void*)-1)
			printf("atk_long: sbrk failed\n");
		t0 = clockticks(&hz);
		if((pid = fork()) == 0)
			exit(0);
		t1 = clockticks(&hz);
		printf("atk_long: fork %d took %u ms\n", pid, (t1 - t0)*1000/hz);
		if(pid > 0)
			wait(&st);
	}else if(strcmp(kind, "exec") == 0){
		if(fork() == 0){
			exec("/tmp/bigbss", eargv);
			printf("atk_long: exec failed\n");
			exit(1);
		}
	}else if(strcmp(kind, "headers") == 0){
		/*
		 * Each exec reads for some ms: Nhdr processes exec their
		 * copies in turn, so that no processor is free when the
		 * sleep ends.
		 */
		for(i = 0; i < Nhdr; i++)
			if(fork() == 0){
				snprintf(name, sizeof name, "/tmp/manyph%d", i);
				for(i = 0; i < 8; i++)
					if((pid = fork()) == 0){
						exec(name, eargv);
						printf("atk_long: exec failed\n");
						exit(1);
					}else if(pid > 0)
						wait(&st);
				exit(0);
			}
	}else if(strcmp(kind, "dirs") == 0){
		for(i = 0; i < 4; i++)
			if(fork() == 0){
				readdirs(15);
				exit(0);
			}
	}
	while(wait(&st) >= 0)
		;
	if(strcmp(kind, "dirs") == 0){
		for(i = 0; i < 900; i++){
			snprintf(name, sizeof name, "/tmp/dirs/%d", i);
			remove(name);
		}
		remove("/tmp/dirs");
	}
	return 0;
}
