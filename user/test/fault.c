/*
 * fault [kind]: do something a user program must be killed for, so
 * the tests can see the kernel's one-line message and that all else
 * goes on.  kind: nil (read address 0, the default), kernel (write
 * kernel memory), text (write the program's own text), or insn (an
 * invalid instruction).
 */
#include <stdio.h>
#include <string.h>

int
main(int argc, char *argv[])
{
	char *kind = argc > 1 ? argv[1] : "nil";

	if(strcmp(kind, "kernel") == 0)
		*(volatile int*)0xC0100000 = 1;
	else if(strcmp(kind, "text") == 0)
		*(volatile char*)main = 0;
	else if(strcmp(kind, "insn") == 0)
		asm volatile("ud2");
	else
		printf("%d\n", *(volatile int*)0);
	printf("fault: still alive\n");
	return 1;
}
