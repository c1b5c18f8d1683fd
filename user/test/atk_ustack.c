/*
 * atk_ustack CASE ROUNDS: a frame-pointer chain that kprof's walk of
 * the user stack (kern/kpwalk.c) must end, having read nothing but
 * this process's own user memory.  With kprof scoped to itself, it
 * spins ROUNDS rounds with ebp set to the chain, in user mode and in
 * system calls, then reads /dev/kpstack: every user pc there must be
 * in its text or one of the chain's words, and no user stack longer
 * than the chain allows: 3, the pc, the word a system call leaves on
 * top, and a frame; or 4, the real chain of a system call made
 * through ctl from main, called by _start.  Prints "atk_ustack: CASE ok", or what failed.
 *
 *	kernel	ebp in kernel text
 *	kret	a frame whose return address is in the kernel
 *	self	a frame that points to itself
 *	down	a frame that points below itself
 *	top	a frame in the last word of user space, its return address past the top
 *	unmapped	ebp in a hole, in the nil page, and odd
 *	freed	a chain in a heap page that another thread takes away and gives
 *		back (sbrk) as fast as it can, on another processor if there is one
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "kern/sys.h"
#include "kern/kprof.h"

enum {
	Mark	= 0x777,	/* what a system call of the spin leaves on top of the stack */
	Page	= 4096,
	Nchain	= Page / 64,	/* frames of the freed case's chain, 64 bytes apart */
};

extern char	etext[];

static unsigned	allowed[Nchain + 8];	/* the chain's words that may show as pcs */
static int	nallowed;
static int	depth;		/* user pcs a line may have at most */
static volatile int	stop;	/* the freed case's thread stops */

/* Spin n rounds with ebp = bp: a busy loop in user mode, then getpid. */
static void
spin(unsigned bp, int n)
{
	asm volatile(
		"push %%ebp\n"
		"mov %0, %%ebp\n"
		"1: mov $2000, %%edx\n"
		"2: dec %%edx\n"
		"jnz 2b\n"
		"push %2\n"
		"mov %3, %%eax\n"
		"int %4\n"
		"add $4, %%esp\n"
		"dec %%ecx\n"
		"jnz 1b\n"
		"pop %%ebp\n"
		: "+c"(n)
		: "S"(bp), "i"(Mark), "i"(SYS_getpid), "i"(T_SYSCALL)
		: "eax", "edx", "memory");
}

static void
ctl(const char *msg)
{
	int fd;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0 || write(fd, msg, strlen(msg)) != (long)strlen(msg)){
		printf("atk_ustack: /dev/kpctl: %s: %s\n", msg, strerror(errno));
		exit(1);
	}
	close(fd);
}

static int
ok(unsigned pc)
{
	int i;

	if(pc >= UTZERO && pc <= (unsigned)etext)
		return 1;
	for(i = 0; i < nallowed; i++)
		if(allowed[i] == pc)
			return 1;
	return 0;
}

/* Check kpstack's user stacks; the number of lines with one. */
static int
check(const char *name)
{
	static char buf[256*1024];
	char *p, *e;
	unsigned pc;
	long n, len;
	int fd, nu, lines, user;

	if((fd = open("/dev/kpstack", O_RDONLY)) < 0){
		printf("atk_ustack: /dev/kpstack: %s\n", strerror(errno));
		exit(1);
	}
	for(len = 0; len < (long)sizeof buf - 1 && (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0; len += n)
		;
	close(fd);
	buf[len] = '\0';
	lines = 0;
	for(p = buf; *p != '\0'; p = e + (*e == '\n')){
		strtoul(p, &e, 10);
		for(user = -1, nu = 0; *e == ' '; ){
			pc = strtoul(e + 1, &e, 16);
			if(pc == KPUMARK)
				user = 0;
			else if(user >= 0){
				nu++;
				if(!ok(pc)){
					printf("atk_ustack: %s: FAIL: user pc %08x is neither its text nor its chain\n", name, pc);
					exit(1);
				}
			}
		}
		if(nu > depth){
			printf("atk_ustack: %s: FAIL: a user stack of %d pcs, %d at most\n", name, nu, depth);
			exit(1);
		}
		lines += user >= 0;
	}
	return lines;
}

/* The freed case's other thread: take the page away and give it back, its chain written again. */
static void
taker(unsigned *pg)
{
	int i;

	while(!stop){
		if(sbrk(-Page) == (void*)-1 || sbrk(Page) != (void*)pg)
			break;
		for(i = 0; i < Nchain; i++){
			pg[16*i] = (unsigned)(pg + 16*(i + 1));
			pg[16*i + 1] = 0x900 + i;
		}
	}
	stop = 2;
	_exit(0);
}

int
main(int argc, char *argv[])
{
	static unsigned f[8];
	unsigned *pg, top[2];
	char msg[32];
	int rounds, lines, i;

	if(argc != 3 || (rounds = parsenum(argv[2])) <= 0){
		fprintf(stderr, "usage: atk_ustack case rounds\n");
		return 1;
	}
	allowed[nallowed++] = Mark;
	snprintf(msg, sizeof msg, "pid %d", getpid());
	ctl(msg);
	ctl("startclr");
	if(strcmp(argv[1], "kernel") == 0){
		depth = 4;
		spin(0xC0100000, rounds);
	}else if(strcmp(argv[1], "kret") == 0){
		f[0] = (unsigned)&f[2];
		f[1] = 0x501;
		f[2] = 0;
		f[3] = 0xC0100010;
		allowed[nallowed++] = 0x501;
		depth = 4;
		spin((unsigned)f, rounds);
	}else if(strcmp(argv[1], "self") == 0){
		f[0] = (unsigned)f;
		f[1] = 0x601;
		allowed[nallowed++] = 0x601;
		depth = 4;
		spin((unsigned)f, rounds);
	}else if(strcmp(argv[1], "down") == 0){
		f[4] = (unsigned)f;
		f[5] = 0x701;
		f[0] = (unsigned)&f[2];
		f[1] = 0x702;
		allowed[nallowed++] = 0x701;
		allowed[nallowed++] = 0x702;
		depth = 4;
		spin((unsigned)&f[4], rounds);
	}else if(strcmp(argv[1], "top") == 0){
		pg = (unsigned*)(USEREND - 8);
		top[0] = pg[0];
		top[1] = pg[1];
		pg[0] = USEREND - 4;
		pg[1] = 0x801;
		allowed[nallowed++] = 0x801;
		depth = 4;
		spin(USEREND - 8, rounds);
		spin(USEREND - 4, rounds);
		pg[0] = top[0];
		pg[1] = top[1];
	}else if(strcmp(argv[1], "unmapped") == 0){
		depth = 4;
		spin(0x80000000, rounds);
		spin(0x10, rounds);
		spin(0x1001, rounds);
		spin(USEREND - 1, rounds);
	}else if(strcmp(argv[1], "freed") == 0){
		sbrk(Page - (unsigned)sbrk(0) % Page);
		if((pg = sbrk(Page)) == (void*)-1){
			printf("atk_ustack: sbrk: %s\n", strerror(errno));
			return 1;
		}
		for(i = 0; i < Nchain; i++){
			allowed[nallowed++] = 0x900 + i;
			pg[16*i] = (unsigned)(pg + 16*(i + 1));
			pg[16*i + 1] = 0x900 + i;
		}
		depth = KPUFRAMES;
		i = rfork(RFPROC|RFMEM);
		if(i < 0){
			printf("atk_ustack: rfork: %s\n", strerror(errno));
			return 1;
		}
		if(i == 0)
			taker(pg);
		spin((unsigned)pg, rounds);
		stop = 1;
		while(stop != 2)
			sleep(1);
		wait(NULL);
	}else{
		fprintf(stderr, "atk_ustack: %s: no such case\n", argv[1]);
		return 1;
	}
	ctl("stop");
	ctl("pid all");
	lines = check(argv[1]);
	if(lines == 0){
		printf("atk_ustack: %s: FAIL: no tick found a user stack\n", argv[1]);
		return 1;
	}
	printf("atk_ustack: %s ok: %d user stacks\n", argv[1], lines);
	return 0;
}
