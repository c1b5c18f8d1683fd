/*
 * atk_procs [wait]: fill the process table with processes that each
 * fork again as soon as a slot is free, so that the table stays full.
 * Then exit, leaving them as orphans, or with "wait" stay in the
 * foreground, where ^C must end every one of them: the kill reaches
 * children forked while it was being delivered too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

static void
refill(void)
{
	for(;;)
		fork();		/* parent and child both go on refilling */
}

int
main(int argc, char *argv[])
{
	int n, pid;

	for(n = 0; (pid = fork()) >= 0; n++)
		if(pid == 0)
			refill();
	printf("atk_procs: %d processes forking\n", n);
	if(argc > 1 && strcmp(argv[1], "wait") == 0)
		for(;;)
			sleep(1000);
	return 0;
}
