/*
 * atk_pipeexec: exec "#|/data", a pipe never opened.  A pipe's buffer
 * exists only once an end is open, so exec must open what it loads, as
 * any reader does; before it did, the kernel followed a nil pipe and
 * panicked.  The exec must fail (no writer: an empty program).
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
