/*
 * attack KIND [ARG]: try to reach privilege 0 or to make the kernel
 * fault, as a hostile program would.  Every kind must end with the
 * kernel's one-line fault message (status 255); if the attempt does
 * not fault, attack says what it got and exits 1.
 *
 *	ldtgate		build a call gate to ring 0 in our own memory, where an
 *			LDT at linear address 0 (the reset LDTR) would find it,
 *			and call through it; the code it reaches would overwrite
 *			kernel text (the multiboot header)
 *	ldtdata		build a data segment there, load it into gs, then mark
 *			it not present before a system call (whose return loads
 *			gs again)
 *	gdt SEL		far call to GDT selector SEL (kernel code, the TSS, ...)
 *	int N		the instruction int $N (only 0x40, the system call, is ours)
 *	insn NAME	a privileged instruction, or one a kernel must not let
 *			user code use: see insns below
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>

/* Descriptors, where an LDT based at 0 would find them (must be below 64K). */
static uint64_t fakeldt[4] __attribute__((aligned(8))) = { 1 };

static volatile uint32_t gatecs;	/* the cs the gate's target ran with */

/* The target of the call gate: note the privilege, and if it is 0, do harm. */
void ring0(void);
asm(".text\n"
	"ring0:\n"
	"	movl %cs, %eax\n"
	"	movl %eax, gatecs\n"
	"	testl $3, %eax\n"
	"	jnz 1f\n"
	"	movl $0, 0xC0100000\n"	/* the multiboot header: never run after boot */
	"1:	lret\n");

/* int $N for every N, each two bytes plus a ud2, so int N is at intstubs + 4*N. */
void intstubs(void);
asm(".text\n"
	"intstubs:\n"
	"	.set n, 0\n"
	"	.rept 256\n"
	"	.byte 0xcd, n\n"
	"	ud2\n"
	"	.set n, n+1\n"
	"	.endr\n");

/* The selector that names fakeldt[i] in an LDT at address 0, with RPL 3. */
static unsigned
ldtsel(int i)
{
	uintptr_t a = (uintptr_t)&fakeldt[i];

	if(a + 8 > 0x10000){
		fprintf(stderr, "attack: fakeldt at %#lx, beyond a reset LDT's limit\n", (unsigned long)a);
		exit(2);
	}
	return a | 4 | 3;
}

static void
farcall(unsigned sel)
{
	struct { uint32_t off; uint16_t sel; } __attribute__((packed)) fp = { 0, sel };

	asm volatile("lcall *%0" : : "m"(fp) : "memory");
}

static void
ldtgate(void)
{
	uint32_t off = (uint32_t)ring0;

	/* A 32-bit call gate, present, DPL 3, to kernel code (selector 8) at ring0. */
	fakeldt[1] = (uint64_t)((off & 0xFFFF0000) | 0xEC00) << 32 | (8 << 16) | (off & 0xFFFF);
	farcall(ldtsel(1));
	printf("attack: ldtgate: call gate reached code with cs %#x\n", gatecs);
}

static void
ldtdata(void)
{
	unsigned sel = ldtsel(2), gs;

	/* A flat data segment, present, DPL 3. */
	fakeldt[2] = 0x00CFF2000000FFFFULL;
	asm volatile("movw %w0, %%gs" : : "r"(sel) : "memory");
	fakeldt[2] &= ~(1ULL << 47);
	getpid();
	asm volatile("movw %%gs, %w0" : "=r"(gs) : : "memory");
	printf("attack: ldtdata: gs %#x loaded and kept\n", gs);
}

/* Instructions that need privilege 0 or an I/O permission. */
static void
insn(char *name)
{
	struct { uint16_t lim; uint32_t base; } __attribute__((packed)) dt = { 0, 0 };
	uint32_t f;

	if(strcmp(name, "in") == 0)
		asm volatile("inb $0x60, %%al" : : : "eax");
	else if(strcmp(name, "out") == 0)
		asm volatile("outb %%al, $0x80" : : "a"(0));
	else if(strcmp(name, "ins") == 0)
		asm volatile("insb" : : "D"(fakeldt), "d"(0x3F8) : "memory");
	else if(strcmp(name, "outs") == 0)
		asm volatile("outsb" : : "S"(fakeldt), "d"(0x3F8));
	else if(strcmp(name, "cli") == 0)
		asm volatile("cli");
	else if(strcmp(name, "sti") == 0)
		asm volatile("sti");
	else if(strcmp(name, "hlt") == 0)
		asm volatile("hlt");
	else if(strcmp(name, "lgdt") == 0)
		asm volatile("lgdt %0" : : "m"(dt));
	else if(strcmp(name, "lidt") == 0)
		asm volatile("lidt %0" : : "m"(dt));
	else if(strcmp(name, "lldt") == 0)
		asm volatile("lldt %w0" : : "r"(0));
	else if(strcmp(name, "ltr") == 0)
		asm volatile("ltr %w0" : : "r"(0x28));
	else if(strcmp(name, "cr0") == 0)
		asm volatile("movl %%cr0, %0" : "=r"(f));
	else if(strcmp(name, "cr3") == 0)
		asm volatile("movl %0, %%cr3" : : "r"(0));
	else if(strcmp(name, "clts") == 0)
		asm volatile("clts");
	else if(strcmp(name, "rdmsr") == 0)
		asm volatile("rdmsr" : : "c"(0x10) : "eax", "edx");
	else if(strcmp(name, "dr7") == 0)
		asm volatile("movl %0, %%dr7" : : "r"(0x3FF));
	else if(strcmp(name, "sysenter") == 0)
		asm volatile("sysenter");
	else if(strcmp(name, "int1") == 0)
		asm volatile(".byte 0xf1");	/* icebp: a debug trap, no gate check */
	else if(strcmp(name, "into") == 0)
		asm volatile("movl $0x7fffffff, %%eax; addl $1, %%eax; into" : : : "eax", "cc");
	else if(strcmp(name, "iret") == 0)
		/* Return "to" ring 0: kernel code selector, our own pc. */
		asm volatile("pushfl; pushl $8; pushl $1f; iret; 1:" : : : "memory");
	else if(strcmp(name, "iopl") == 0){
		/* popf from ring 3 cannot raise IOPL: it must still be 0, and in must fault. */
		asm volatile("pushfl; orl $0x3000, (%%esp); popfl; pushfl; popl %0" : "=r"(f));
		if(f & 0x3000)
			printf("attack: iopl: IOPL is now %d\n", (f >> 12) & 3);
		asm volatile("inb $0x60, %%al" : : : "eax");
	}else if(strcmp(name, "movss") == 0){
		/*
		 * Set TF just before mov ss, whose single-step trap mov ss
		 * holds back past the int: it may fall on the kernel's
		 * first instruction.
		 */
		asm volatile("movw %%ss, %%cx\n"
			"pushfl; orl $0x100, (%%esp); popfl\n"
			"movw %%cx, %%ss; int %1\n"
			"pushfl; andl $~0x100, (%%esp); popfl"
			: : "a"(SYS_getpid), "i"(T_SYSCALL) : "ecx", "edx", "memory", "cc");
		printf("attack: movss: stepped over the system call and went on\n");
		exit(1);
	}else{
		fprintf(stderr, "attack: unknown insn %s\n", name);
		exit(2);
	}
	printf("attack: insn %s ran\n", name);
}

static void
usage(void)
{
	fprintf(stderr, "usage: attack ldtgate|ldtdata|gdt SEL|int N|insn NAME\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	long n;

	if(argc < 2)
		usage();
	if(strcmp(argv[1], "ldtgate") == 0 && argc == 2)
		ldtgate();
	else if(strcmp(argv[1], "ldtdata") == 0 && argc == 2)
		ldtdata();
	else if(strcmp(argv[1], "gdt") == 0 && argc == 3 && (n = strtol(argv[2], NULL, 0)) >= 0){
		farcall(n);
		printf("attack: far call to %#lx returned\n", n);
	}else if(strcmp(argv[1], "int") == 0 && argc == 3 && (n = parsenum(argv[2])) >= 0 && n < 256){
		((void(*)(void))((char*)intstubs + 4*n))();
		printf("attack: int %ld returned\n", n);
	}else if(strcmp(argv[1], "insn") == 0 && argc == 3)
		insn(argv[2]);
	else
		usage();
	return 1;
}
