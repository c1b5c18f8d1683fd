/*
 * segs: leave every kind of selector in each of ds, es, fs and gs over
 * a system call, and over a clock tick that interrupts user mode.
 * The selectors: each GDT index up to 7 and a few beyond the table,
 * with each RPL, in the GDT and in the LDT, and LDT selectors for
 * descriptors written into our own memory (present, not present,
 * DPL 0).  User code can hold only null and the user code and data
 * segments: those must come back unchanged; any other must kill the
 * program where it loads it, with the kernel's one-line message.
 * Each case runs in a child.  Prints "segs: N cases ok", or each
 * case that went wrong.
 *
 * segs ret N: make N system calls (getpid), each in a child, and report
 * each child's status.  A user program cannot leave a selector that
 * fails to load on the way back; a debugger can, by changing the saved
 * registers during the call (tools/test/attack.sh), to show that such
 * a fault kills the process rather than the kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>

#define S(x) #x
#define STR(x) S(x)

enum { Syscall, Tick };

/* Descriptors where an LDT at linear address 0 would find them. */
static uint64_t fakeldt[4] __attribute__((aligned(8))) = {
	0,
	0x00CFF2000000FFFFULL,	/* flat data, DPL 3 */
	0x00CF72000000FFFFULL,	/* the same, not present */
	0x00CF92000000FFFFULL,	/* flat data, DPL 0 */
};

uintptr_t samples[1];	/* pcsample's: the user pc of the last tick */

/*
 * unsigned tryREG(unsigned sel, int tick): load sel into REG, then make
 * a system call (getpid), or wait for a clock tick that interrupts the
 * loop at 1:; return what REG holds then.  ds and es are restored from
 * ss before it returns, since C code needs them.  Memory is reached
 * through ss while they may not work.
 */
#define TRY(reg) \
	unsigned try##reg(unsigned, int); \
	asm(".text\n" \
	"try" #reg ":\n" \
	"	movl 4(%esp), %eax\n" \
	"	movw %ax, %" #reg "\n" \
	"	cmpl $0, 8(%esp)\n" \
	"	jne 2f\n" \
	"	movl $" STR(SYS_getpid) ", %eax\n" \
	"	int $" STR(T_SYSCALL) "\n" \
	"	jmp 3f\n" \
	"2:	movl $0, %ss:samples\n" \
	"	pushl $1\n" \
	"	pushl $samples\n" \
	"	pushl $0\n" \
	"	movl $" STR(SYS_pcsample) ", %eax\n" \
	"	int $" STR(T_SYSCALL) "\n" \
	"	addl $12, %esp\n" \
	"1:	movl %ss:samples, %eax\n" \
	"	testl %eax, %eax\n" \
	"	jz 1b\n" \
	"	cmpl $1b, %eax\n" \
	"	jb 2b\n" \
	"	cmpl $3f, %eax\n" \
	"	jae 2b\n" \
	"3:	xorl %eax, %eax\n" \
	"	movw %" #reg ", %ax\n" \
	"	movw %ss, %dx\n" \
	"	movw %dx, %ds\n" \
	"	movw %dx, %es\n" \
	"	ret\n")

TRY(ds);
TRY(es);
TRY(fs);
TRY(gs);

static struct {
	char	*name;
	unsigned	(*try)(unsigned, int);
} regs[] = {
	{ "ds", tryds },
	{ "es", tryes },
	{ "fs", tryfs },
	{ "gs", trygs },
};

/* Null, or the user code or data segment, with any RPL. */
static int
usable(unsigned sel)
{
	return sel < 4 || (sel & ~3) == 0x18 || (sel & ~3) == 0x20;
}

/* Run one case in a child; 1 if it went wrong. */
static int
onecase(int r, unsigned sel, int how)
{
	char *when = how == Tick ? "a tick" : "a system call";
	unsigned got;
	int pid, st;

	fflush(stdout);
	if((pid = fork()) < 0){
		perror("segs: fork");
		exit(1);
	}
	if(pid == 0){
		got = regs[r].try(sel, how);
		/* Null is null, whatever its RPL. */
		if(got != sel && !(sel < 4 && got < 4)){
			printf("segs: %s %#x over %s came back %#x\n", regs[r].name, sel, when, got);
			_exit(1);
		}
		_exit(0);
	}
	if(wait(&st) != pid){
		perror("segs: wait");
		exit(1);
	}
	if(usable(sel) ? st != 0 : st != 255){
		printf("segs: %s %#x over %s: status %d\n", regs[r].name, sel, when, st);
		return 1;
	}
	return 0;
}

static int
ret(long n)
{
	unsigned s[4];
	int pid, st;

	while(n-- > 0){
		fflush(stdout);
		if((pid = fork()) < 0){
			perror("segs: fork");
			return 1;
		}
		if(pid == 0){
			getpid();
			asm volatile("movw %%ds, %w0; movw %%es, %w1; movw %%fs, %w2; movw %%gs, %w3"
				: "=r"(s[0]), "=r"(s[1]), "=r"(s[2]), "=r"(s[3]));
			printf("segs: returned with ds %#x es %#x fs %#x gs %#x\n",
				s[0] & 0xFFFF, s[1] & 0xFFFF, s[2] & 0xFFFF, s[3] & 0xFFFF);
			_exit(0);
		}
		wait(&st);
		printf("segs: status %d\n", st);
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	static unsigned beyond[] = { 0x30, 0x40, 0x8000, 0xFFF8, 0xFFFB, 0xFFFC, 0xFFFF };
	unsigned sels[80];
	int i, n = 0, r, how, cases = 0, bad = 0;
	long nret;

	if(argc == 3 && strcmp(argv[1], "ret") == 0 && (nret = parsenum(argv[2])) >= 0)
		return ret(nret);
	if(argc != 1){
		fprintf(stderr, "usage: segs [ret N]\n");
		return 2;
	}

	for(i = 0; i < 64; i++)
		sels[n++] = i;
	for(i = 0; i < (int)(sizeof beyond / sizeof beyond[0]); i++)
		sels[n++] = beyond[i];
	for(i = 1; i < 4; i++)
		sels[n++] = (uintptr_t)&fakeldt[i] | 4 | 3;
	for(how = Syscall; how <= Tick; how++)
		for(r = 0; r < 4; r++)
			for(i = 0; i < n; i++){
				bad += onecase(r, sels[i], how);
				cases++;
			}
	if(bad){
		printf("segs: %d of %d cases went wrong\n", bad, cases);
		return 1;
	}
	printf("segs: %d cases ok\n", cases);
	return 0;
}
