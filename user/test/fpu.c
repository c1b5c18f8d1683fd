/*
 * fpu KIND: check that each process has its own x87 and SSE registers.
 *
 *	keep N		N rounds: put values in every x87 and SSE register and in
 *			both control words, keep them over clock ticks while a
 *			second process spins clobbering every FPU register, and
 *			over a sleep; then read them back
 *	fork		put values in the registers and fork: the child must see
 *			the parent's values, and the parent keep them
 *	clean		the registers must be as fninit leaves them, SSE zero:
 *			what every program starts with
 *	dirty		fill every register, then exec "fpu clean"
 *	pending		leave an unmasked x87 error pending over clock ticks,
 *			then wait for it: killed with trap 16, and only then
 *
 * Prints "fpu: KIND ok" (status 0) or what differs (status 1).  No C
 * code runs between loading the registers and reading them back: gcc
 * may move doubles through the x87 stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <pcsample.h>

/* The registers, as hold loads and stores them; the offsets are in its code. */
typedef struct Regs Regs;
struct Regs {
	uint64_t	st[8];		/* st(0) to st(7), as doubles: offset 0 */
	uint8_t		xmm[8][16];	/* offset 64 */
	uint16_t	fcw;		/* offset 192 */
	uint16_t	pad;
	uint32_t	mxcsr;		/* offset 196 */
};

/* What hold does while the registers are loaded. */
#define SPIN	0
#define SLEEP	1
#define FORK	2

uintptr_t samples[4];	/* pcsample's: the last is set after four ticks in this process */

/*
 * int hold(Regs *in, Regs *out, int how): load every register from in,
 * then spin until samples[3] is set, or sleep 30 ms, or fork; then
 * store every register in out.  Returns 0, or fork's result.
 */
int hold(Regs*, Regs*, int);
/* void loadregs(Regs *in): hold's first half. */
void loadregs(Regs*);

#define S(x) #x
#define STR(x) S(x)

asm(".text\n"
	"loadregs:\n"
	"	movl 4(%esp), %eax\n"
	"load:\n"
	"	fninit\n"
	"	fldcw 192(%eax)\n"
	"	ldmxcsr 196(%eax)\n"
	"	fldl 56(%eax); fldl 48(%eax); fldl 40(%eax); fldl 32(%eax)\n"
	"	fldl 24(%eax); fldl 16(%eax); fldl 8(%eax); fldl (%eax)\n"
	"	movdqu 64(%eax), %xmm0; movdqu 80(%eax), %xmm1\n"
	"	movdqu 96(%eax), %xmm2; movdqu 112(%eax), %xmm3\n"
	"	movdqu 128(%eax), %xmm4; movdqu 144(%eax), %xmm5\n"
	"	movdqu 160(%eax), %xmm6; movdqu 176(%eax), %xmm7\n"
	"	ret\n"
	"hold:\n"
	"	pushl %ebx\n"
	"	movl 8(%esp), %eax\n"
	"	call load\n"
	"	xorl %ebx, %ebx\n"
	"	movl 16(%esp), %ecx\n"
	"	cmpl $" STR(SPIN) ", %ecx\n"
	"	jne 2f\n"
	"1:	cmpl $0, samples+12\n"
	"	je 1b\n"
	"	jmp 4f\n"
	"2:	cmpl $" STR(SLEEP) ", %ecx\n"
	"	jne 3f\n"
	"	pushl $30\n"
	"	pushl $0\n"		/* where a stub's return address would be */
	"	movl $" STR(SYS_sleep) ", %eax\n"
	"	int $" STR(T_SYSCALL) "\n"
	"	addl $8, %esp\n"
	"	jmp 4f\n"
	"3:	movl $" STR(SYS_fork) ", %eax\n"
	"	int $" STR(T_SYSCALL) "\n"
	"	movl %eax, %ebx\n"
	"4:	movl 12(%esp), %eax\n"
	"	fnstcw 192(%eax)\n"
	"	stmxcsr 196(%eax)\n"
	"	fstpl (%eax); fstpl 8(%eax); fstpl 16(%eax); fstpl 24(%eax)\n"
	"	fstpl 32(%eax); fstpl 40(%eax); fstpl 48(%eax); fstpl 56(%eax)\n"
	"	movdqu %xmm0, 64(%eax); movdqu %xmm1, 80(%eax)\n"
	"	movdqu %xmm2, 96(%eax); movdqu %xmm3, 112(%eax)\n"
	"	movdqu %xmm4, 128(%eax); movdqu %xmm5, 144(%eax)\n"
	"	movdqu %xmm6, 160(%eax); movdqu %xmm7, 176(%eax)\n"
	"	movl %ebx, %eax\n"
	"	popl %ebx\n"
	"	ret\n");

static uint32_t
rand32(void)
{
	return (uint32_t)rand() << 16 ^ rand();
}

/*
 * Random register values: normal doubles (exactly what fldl and fstpl
 * carry), every exception masked, and the rounding modes in rc.
 */
static void
randregs(Regs *r, int rc)
{
	int i, j;

	memset(r, 0, sizeof *r);
	for(i = 0; i < 8; i++){
		r->st[i] = (uint64_t)(0x3C0 + rand() % 128) << 52 | (uint64_t)(rand32() & 0xFFFFF) << 32 | rand32();
		for(j = 0; j < 16; j++)
			r->xmm[i][j] = rand();
	}
	r->fcw = 0x007F | (rc & 3) << 10 | (2 + rand() % 2) << 8;	/* 53 or 64 bits */
	r->mxcsr = 0x1F80 | (rc & 3) << 13;
}

/* Say which registers of out differ from in; 0 if none. */
static int
differ(char *what, Regs *in, Regs *out)
{
	int i, bad = 0;

	for(i = 0; i < 8; i++)
		if(in->st[i] != out->st[i]){
			printf("fpu: %s: st(%d) %#llx, want %#llx\n", what, i,
				(unsigned long long)out->st[i], (unsigned long long)in->st[i]);
			bad = 1;
		}
	for(i = 0; i < 8; i++)
		if(memcmp(in->xmm[i], out->xmm[i], 16) != 0){
			printf("fpu: %s: xmm%d differs\n", what, i);
			bad = 1;
		}
	if(in->fcw != out->fcw){
		printf("fpu: %s: control word %#x, want %#x\n", what, out->fcw, in->fcw);
		bad = 1;
	}
	if(in->mxcsr != out->mxcsr){
		printf("fpu: %s: mxcsr %#x, want %#x\n", what, out->mxcsr, in->mxcsr);
		bad = 1;
	}
	return bad;
}

/* Spin forever loading other values into every FPU register. */
static void
clobber(void)
{
	Regs r;

	for(;;){
		randregs(&r, rand());
		loadregs(&r);
	}
}

static int
keep(long n)
{
	Regs in, out;
	long i;
	int pid, bad = 0;

	fflush(stdout);
	if((pid = fork()) < 0){
		perror("fpu: fork");
		return 1;
	}
	if(pid == 0)
		clobber();
	for(i = 0; i < n && !bad; i++){
		randregs(&in, i);
		memset(samples, 0, sizeof samples);
		pcsample(samples, 4);
		hold(&in, &out, SPIN);
		bad |= differ("over ticks", &in, &out);
		hold(&in, &out, SLEEP);
		bad |= differ("over a sleep", &in, &out);
	}
	pcsample(NULL, 0);
	kill(pid);
	wait(NULL);
	return bad;
}

static int
forked(void)
{
	Regs in, out;
	int pid, st, bad;

	randregs(&in, 3);
	fflush(stdout);
	pid = hold(&in, &out, FORK);
	if(pid < 0){
		perror("fpu: fork");
		return 1;
	}
	if(pid == 0)
		_exit(differ("child", &in, &out));
	bad = differ("parent", &in, &out);
	if(wait(&st) != pid || st != 0)
		bad = 1;
	return bad;
}

/* The registers as a new program finds them: fninit's state, all else zero. */
static int
clean(void)
{
	static uint8_t fx[512] __attribute__((aligned(16)));
	uint16_t fcw;
	uint32_t mxcsr;
	int i;

	asm volatile("fxsave %0" : "=m"(fx));
	memcpy(&fcw, fx, 2);
	memcpy(&mxcsr, fx + 24, 4);
	if(fcw != 0x37F || mxcsr != 0x1F80){
		printf("fpu: clean: control word %#x, mxcsr %#x\n", fcw, mxcsr);
		return 1;
	}
	/* Bytes 28-31 are the processor's MXCSR mask, 288 on are unused. */
	for(i = 2; i < 288; i++)
		if((i < 24 || i >= 32) && fx[i] != 0){
			printf("fpu: clean: fxsave byte %d is %#x\n", i, fx[i]);
			return 1;
		}
	return 0;
}

static int
dirty(void)
{
	static char *argv[] = { "fpu", "clean", NULL };
	Regs r;

	randregs(&r, 1);
	loadregs(&r);
	exec("/bin/fpu", argv);
	perror("fpu: exec");
	return 1;
}

static int
pending(void)
{
	memset(samples, 0, sizeof samples);
	pcsample(samples, 4);
	/* Zero divide unmasked: 1/0 leaves the error for the next waiting instruction. */
	asm volatile("fninit; fldcw %0; fldz; fld1; fdivp\n"
		"1: cmpl $0, samples+12; je 1b\n"
		"fwait" : : "m"((uint16_t){0x37B}) : "memory");
	printf("fpu: pending: fwait went on\n");
	return 1;
}

int
main(int argc, char *argv[])
{
	long n = 0;
	int bad;

	if(argc == 2 && strcmp(argv[1], "clean") == 0)
		bad = clean();
	else if(argc == 3 && strcmp(argv[1], "keep") == 0 && (n = parsenum(argv[2])) > 0)
		bad = keep(n);
	else if(argc == 2 && strcmp(argv[1], "fork") == 0)
		bad = forked();
	else if(argc == 2 && strcmp(argv[1], "dirty") == 0)
		bad = dirty();
	else if(argc == 2 && strcmp(argv[1], "pending") == 0)
		bad = pending();
	else{
		fprintf(stderr, "usage: fpu keep N|fork|clean|dirty|pending\n");
		return 2;
	}
	if(!bad)
		printf("fpu: %s ok\n", argv[1]);
	return bad;
}
