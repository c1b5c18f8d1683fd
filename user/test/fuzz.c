/*
 * fuzz N [seed]: make N random system calls, shared among NWORKER
 * worker processes, with arguments drawn from small numbers, random
 * words, kernel and unmapped addresses, good buffers and path names.
 * The kernel must survive them all.
 *
 * Some calls are tamed so that the workers can go on and harm nothing
 * else: the standard input and output are /dev/null, not the console;
 * exit, fork, rfork and exec run in a child that exits at once (and so
 * does the child rfork may make, a thread or not); exec runs no
 * real program but `echo -n`; kill only kills a child of the worker's
 * own; the paths named are scratch files in /tmp or harmless ones;
 * bind mounts only on the scratch files; sleep is short (at most a
 * millisecond: a sleeping worker is time the test waits for); pipes are
 * closed at once (a worker reading its own empty pipe would block);
 * and sbrk is undone.
 *
 * Each call is made with random selectors in ds, es, fs and gs (any a
 * user program can load) and random FPU registers, which must all be
 * the same after it: a worker exits with status 3 if a segment
 * register changed, 4 if an FPU register did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

#define NWORKER	4
#define PGSIZE	4096
#define BUFSZ	(2*PGSIZE)

/*
 * Paths a call may name.  The first NSCRATCH are the workers' to
 * wreck, deepest first, so that the parent can remove them in order.
 * Only "" is relative (to the working directory, which stays among
 * the scratch ones), so nothing else can appear.
 */
static char *paths[] = {
	"/tmp/fuzz/d/f",
	"/tmp/fuzz/a",
	"/tmp/fuzz/b",
	"/tmp/fuzz/d",
	"/tmp/fuzz",
	"",
	"/nonexistent/x",
	"/dev/null",
	"/dev/time",
	"/dev/ps",
	"/dev/kpdata",
};
#define NSCRATCH	5
#define NPATH		(sizeof paths / sizeof paths[0])

static char *echo[] = { "echo", "-n", NULL };
static char *buf;	/* BUFSZ good bytes at the top of the heap */
static uint32_t mxcsrmask;	/* the MXCSR bits this processor has */

#define S(x) #x
#define STR(x) S(x)

/* The selectors user code can load: null, user code and data, any RPL. */
static uint16_t usesel[] = { 0, 1, 2, 3, 0x18, 0x19, 0x1A, 0x1B, 0x20, 0x21, 0x22, 0x23 };

/*
 * long segcall(int num, uintptr_t a[4], uint16_t sel[4]): system call
 * num with arguments a and with sel[0] to sel[3] in ds, es, fs and gs;
 * sel gets what they hold after it.  ds and es come back from ss
 * before C code runs again; sel is reached through ss meanwhile.
 */
long segcall(int, uintptr_t*, uint16_t*);
asm(".text\n"
	"segcall:\n"
	"	pushl %ebp\n"
	"	movl %esp, %ebp\n"
	"	pushl %ebx\n"
	"	movl 12(%ebp), %ecx\n"
	"	pushl 12(%ecx); pushl 8(%ecx); pushl 4(%ecx); pushl (%ecx)\n"
	"	pushl $0\n"		/* where a stub's return address would be */
	"	movl 16(%ebp), %ebx\n"
	"	movw 6(%ebx), %ax; movw %ax, %gs\n"
	"	movw 4(%ebx), %ax; movw %ax, %fs\n"
	"	movw 2(%ebx), %ax; movw %ax, %es\n"
	"	movw (%ebx), %ax; movw %ax, %ds\n"
	"	movl 8(%ebp), %eax\n"
	"	int $" STR(T_SYSCALL) "\n"
	"	movw %ds, %ss:(%ebx); movw %es, %ss:2(%ebx)\n"
	"	movw %fs, %ss:4(%ebx); movw %gs, %ss:6(%ebx)\n"
	"	movw %ss, %cx; movw %cx, %ds; movw %cx, %es\n"
	"	addl $20, %esp\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n");

/*
 * Make system call num with random segment registers and FPU state,
 * and check that the kernel kept them.
 */
static long
hostilecall(int num, uintptr_t *a)
{
	static uint32_t fp[128] __attribute__((aligned(16)));
	static uint8_t before[512] __attribute__((aligned(16))), after[512] __attribute__((aligned(16)));
	uint16_t sel[4], want[4];
	uint32_t x;
	long r;
	int i;

	for(i = 0; i < 4; i++)
		want[i] = sel[i] = usesel[rand() % (sizeof usesel / sizeof usesel[0])];
	/* xorshift from one rand(): 128 rand()s a call would slow fuzz down. */
	x = rand() | 1;
	for(i = 0; i < 128; i++){
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		fp[i] = x;
	}
	fp[6] &= mxcsrmask;	/* MXCSR, at byte 24 */
	asm volatile("fxrstor %1; fxsave %0" : "=m"(before) : "m"(fp));
	r = segcall(num, a, sel);
	asm volatile("fxsave %0" : "=m"(after));
	for(i = 0; i < 4; i++)
		if(sel[i] != want[i] && !(sel[i] < 4 && want[i] < 4))
			exit(3);
	if(memcmp(before, after, sizeof before) != 0)
		exit(4);
	return r;
}

/* An address no call may use: nil, in the kernel, or unmapped. */
static uintptr_t
badaddr(void)
{
	switch(rand() % 3){
	case 0:
		return 0;
	case 1:
		return 0xC0000000 + rand() % 0x40000000;
	default:
		return 0x80000000 + rand() % PGSIZE;
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

/*
 * Any argument.  Addresses just below the end of user space give
 * buffers that run off it; they are no paths, since the strings of
 * argv lie there and might name a real file.
 */
static uintptr_t
randarg(void)
{
	switch(rand() % 7){
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
	case 5:
		return 0xC0000000 - rand() % 64;
	default:
		return rand() % PGSIZE;	/* a length, or an address in unmapped page 0 */
	}
}

/* Make call num in a child, which exits at once if the call returns. */
static void
inchild(int num, uintptr_t *a)
{
	int pid, st;

	pid = fork();
	if(pid == 0){
		syscall(num, a[0], a[1], a[2], a[3]);
		_exit(0);
	}
	if(pid > 0)
		wait(&st);
}

/* Make one random system call. */
static void
fuzzcall(void)
{
	uintptr_t a[4];
	int num, i, pid, st;
	long r;

	num = rand() % (NSYSCALL + 6);
	for(i = 0; i < 4; i++)
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
	case SYS_rfork:
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
		a[0] = rand() % 4 - 2;
		break;
	}
	r = hostilecall(num, a);
	if(num == SYS_sbrk && r != -1)
		sbrk(-(int)a[0]);
	if(num == SYS_pipe && r != -1){
		close(((int*)a[0])[0]);
		close(((int*)a[0])[1]);
	}
}

/*
 * A worker: put its buffer just below unmapped memory, put /dev/null
 * in place of the console, work in the scratch directory, and make n
 * calls.
 */
static void
worker(long n)
{
	char *p;
	int fd, i;

	p = sbrk(0);
	p = sbrk((PGSIZE - (uintptr_t)p % PGSIZE) % PGSIZE + BUFSZ);
	fd = open("/dev/null", O_RDWR);
	if(p == (char*)-1 || fd < 0){
		perror("fuzz: worker");
		exit(1);
	}
	buf = (char*)sbrk(0) - BUFSZ;
	asm volatile("fxsave %0" : "=m"(*(uint8_t(*)[512])buf));
	memcpy(&mxcsrmask, buf + 28, 4);
	if(mxcsrmask == 0)
		mxcsrmask = 0xFFBF;	/* what a processor that stores none has */
	for(i = 0; i < BUFSZ; i++)
		buf[i] = rand();
	for(i = 0; i < 3; i++)
		if(fd != i)
			dup2(fd, i);
	if(fd > 2)
		close(fd);
	chdir("/tmp/fuzz");
	while(n-- > 0)
		fuzzcall();
	exit(0);
}

int
main(int argc, char *argv[])
{
	long n, share, seed = 1;
	int i, w, pid, st, bad;

	if(argc < 2 || argc > 3 || (n = parsenum(argv[1])) < 0
	|| (argc == 3 && (seed = parsenum(argv[2])) < 0)){
		fprintf(stderr, "usage: fuzz N [seed]\n");
		return 1;
	}
	mkdir("/tmp/fuzz");
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
	for(i = 0; i < NSCRATCH; i++)
		remove(paths[i]);
	if(bad > 0){
		printf("fuzz: %ld calls, %d workers failed\n", n, bad);
		return 1;
	}
	printf("fuzz: %ld calls, ok\n", n);
	return 0;
}
