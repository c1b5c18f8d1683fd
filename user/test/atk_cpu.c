/*
 * atk_cpu: processor features a user program may reach for, each in a
 * child of its own: eflags bits that the system-call gate does not
 * clear (NT with a return through iret, TF, AC), icebp (int1, which
 * skips the gate's privilege check), and bound.  Each child must die
 * with the one-line fault message or go on; the kernel must survive
 * all of them.  (DF has a program of its own: atk_df.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
nt(void)
{
	/* NT set, then a system call, then iret with NT: a task return */
	asm volatile("pushfl; orl $0x4000, (%%esp); popfl" ::: "memory");
	getpid();
	asm volatile("pushfl; pushl %%cs; pushl $1f; iret; 1:" ::: "memory");
}

static void
tf(void)
{
	asm volatile("pushfl; orl $0x100, (%%esp); popfl; int $0x40; nop" : : "a"(5) : "edx", "memory");
}

static void
ac(void)
{
	static char b[16];

	asm volatile("pushfl; orl $0x40000, (%%esp); popfl" ::: "memory");
	getpid();
	*(volatile int*)(b + 1) = 1;
}

static void
icebp(void)
{
	asm volatile(".byte 0xf1");
}

static void
bound(void)
{
	static int lim[2] = { 10, 20 };

	asm volatile("bound %0, %1" : : "r"(5), "m"(lim));
}

static struct {
	char	*name;
	void	(*f)(void);
} kind[] = {
	{ "nt", nt },
	{ "tf", tf },
	{ "ac", ac },
	{ "icebp", icebp },
	{ "bound", bound },
};

int
main(int argc, char *argv[])
{
	unsigned i;
	int pid, st;

	for(i = 0; i < sizeof kind/sizeof kind[0]; i++){
		if(argc > 1 && strcmp(argv[1], kind[i].name) != 0)
			continue;
		fflush(stdout);
		if((pid = fork()) == 0){
			kind[i].f();
			printf("atk_cpu: %s: went on\n", kind[i].name);
			exit(0);
		}
		wait(&st);
		printf("atk_cpu: %s: status %d\n", kind[i].name, st);
	}
	printf("atk_cpu: kernel alive\n");
	return 0;
}
