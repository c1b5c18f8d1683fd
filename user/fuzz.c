/*
 * fuzz N [seed]: make N random system calls, shared among NWORKER
 * worker processes, with arguments drawn from small numbers, random
 * words, kernel and unmapped addresses, good buffers and path names.
 * The kernel must survive them all.
 *
 * Some calls are tamed so that the workers can go on and harm nothing
 * else: exit, fork and exec run in a child that exits at once, exec
 * runs no real program but `echo -n`, kill only kills a child of the
 * worker's own, the paths named are scratch files in /tmp or harmless
 * ones, bind mounts only on the scratch files, sleep is short, reads
 * from the console are made to fail, writes to it are short, pipes are
 * closed at once (a worker reading its own empty pipe would block),
 * and sbrk is undone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>

#define NWORKER	4
#define PGSIZE	4096
#define BUFSZ	(2*PGSIZE)

/* Paths a call may name; the first NSCRATCH are the worker's to wreck. */
static char *paths[] = {
	"/tmp/fuzz0",
	"/tmp/fuzz1",
	"/tmp/fuzzdir",
	"/tmp/fuzzdir/d",
	"/tmp/fuzzdir/f",
	"fuzzrel",
	"",
	"/nonexistent/x",
	"/dev/null",
	"/dev/time",
	"/dev/ps",
	"/dev/kpdata",
};
#define NSCRATCH	6
#define NPATH		(sizeof paths / sizeof paths[0])

/* What is left behind, deepest first, for the parent to remove. */
static char *scratch[] = {
	"/tmp/fuzzdir/d/fuzzrel",
	"/tmp/fuzzdir/fuzzrel",
	"/tmp/fuzzdir/d",
	"/tmp/fuzzdir/f",
	"/tmp/fuzzdir",
	"/tmp/fuzz0",
	"/tmp/fuzz1",
};

static char *echo[] = { "echo", "-n", NULL };
static char *buf;	/* BUFSZ good bytes at the top of the heap */

/* An address no call may use. */
static uintptr_t
badaddr(void)
{
	switch(rand() % 4){
	case 0:
		return 0;
	case 1:
		return 0xC0000000 + rand() % 0x40000000;
	case 2:
		return 0x80000000 + rand() % PGSIZE;
	default:
		return 0xC0000000 - rand() % 64;
	}
}

/* A path from the first n of paths, or a bad pointer. */
static uintptr_t
randpath(int n)
{
	if(rand() % 4 == 0)
		return badaddr();
	return (uintptr_t)paths[rand() % n];
}

static uintptr_t
randarg(void)
{
	switch(rand() % 6){
	case 0:
		return rand() % 24 - 2;
	case 1:
		return (uintptr_t)rand() << 1 ^ rand();
	case 2:
		return badaddr();
	case 3:
		return (uintptr_t)(buf + rand() % BUFSZ);
	case 4:
		return (uintptr_t)paths[rand() % NPATH];
	default:
		return rand() % (4*BUFSZ);
	}
}

/* Is fd the console or a serial line, which a worker must not read? */
static int
isconsole(int fd)
{
	struct Dir d;

	return fstat(fd, &d) == 0 && ((d.type == 'c' && strcmp(d.name, "cons") == 0) || d.type == 't');
}

/* Make call num in a child, which exits at once if the call returns. */
static void
inchild(int num, uintptr_t *a)
{
	int pid, st;

	pid = fork();
	if(pid == 0){
		syscall(num, a[0], a[1], a[2], a[3], a[4]);
		_exit(0);
	}
	if(pid > 0)
		wait(&st);
}

/* Make one random system call. */
static void
fuzzcall(void)
{
	uintptr_t a[5];
	int num, i, pid, st;
	long r;

	num = rand() % (NSYSCALL + 6);
	for(i = 0; i < 5; i++)
		a[i] = randarg();
	switch(num){
	case SYS_exec:
		a[0] = randpath(NPATH);
		if(rand() % 8 == 0){
			a[0] = (uintptr_t)"/bin/echo";
			a[1] = (uintptr_t)echo;
		}
		inchild(num, a);
		return;
	case SYS_exit:
	case SYS_fork:
		inchild(num, a);
		return;
	case SYS_kill:
		pid = fork();
		if(pid == 0){
			sleep(rand() % 20);
			_exit(0);
		}
		if(pid > 0){
			syscall(num, pid);
			wait(&st);
		}
		return;
	case SYS_open:
	case SYS_create:
	case SYS_stat:
	case SYS_remove:
	case SYS_chdir:
	case SYS_mkdir:
		a[0] = randpath(NPATH);
		break;
	case SYS_bind:
		a[0] = randpath(NPATH);
		a[1] = randpath(NSCRATCH);
		break;
	case SYS_sleep:
		a[0] = rand() % 20 - 2;
		break;
	case SYS_read:
		if(isconsole(a[0]))
			a[0] = -1;
		break;
	case SYS_write:
		if(isconsole(a[0]))
			a[2] = rand() % 8;
		break;
	}
	r = syscall(num, a[0], a[1], a[2], a[3], a[4]);
	if(num == SYS_sbrk && r != -1)
		sbrk(-(int)a[0]);
	if(num == SYS_pipe && r != -1){
		close(((int*)a[0])[0]);
		close(((int*)a[0])[1]);
	}
}

/*
 * A worker: read /dev/null instead of the console, work in the
 * scratch directory, put its buffer just below unmapped memory, and
 * make n calls.
 */
static void
worker(long n)
{
	char *p;
	int fd, i;

	fd = open("/dev/null", O_RDONLY);
	if(fd > 0){
		dup2(fd, 0);
		close(fd);
	}
	chdir("/tmp/fuzzdir");
	p = sbrk(0);
	p = sbrk((PGSIZE - (uintptr_t)p % PGSIZE) % PGSIZE + BUFSZ);
	if(p == (char*)-1){
		perror("fuzz: sbrk");
		exit(1);
	}
	buf = (char*)sbrk(0) - BUFSZ;
	for(i = 0; i < BUFSZ; i++)
		buf[i] = rand();
	while(n-- > 0)
		fuzzcall();
	exit(0);
}

int
main(int argc, char *argv[])
{
	long n, share;
	int w, pid, st, bad;
	unsigned int i, seed;

	if(argc < 2 || argc > 3){
		fprintf(stderr, "usage: fuzz N [seed]\n");
		return 1;
	}
	n = strtol(argv[1], NULL, 0);
	seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	mkdir("/tmp/fuzzdir");
	fflush(stdout);
	for(w = 0; w < NWORKER; w++){
		share = n / NWORKER + (w < n % NWORKER);
		pid = fork();
		if(pid < 0){
			perror("fuzz: fork");
			return 1;
		}
		if(pid == 0){
			srand(seed*NWORKER + w);
			worker(share);
		}
	}
	bad = 0;
	while((pid = wait(&st)) >= 0)
		if(st != 0){
			printf("fuzz: worker %d: status %d\n", pid, st);
			bad++;
		}
	for(i = 0; i < sizeof scratch / sizeof scratch[0]; i++)
		remove(scratch[i]);
	if(bad > 0){
		printf("fuzz: %ld calls, %d workers failed\n", n, bad);
		return 1;
	}
	printf("fuzz: %ld calls, ok\n", n);
	return 0;
}
