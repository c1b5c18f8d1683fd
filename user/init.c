/*
 * init: the first process.  It opens the console as the standard
 * input, output and error.  If /boot/rc exists it runs `sh /boot/rc`
 * and powers the machine off with its exit status; otherwise it runs
 * an interactive shell, starting a new one whenever it exits.  Either
 * way it waits for orphans too, which the kernel gives to init.  It
 * never returns: the kernel cannot go on without init.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

/* Start /bin/sh with the given arguments; its pid. */
static int
spawn(char *argv[])
{
	int pid;

	fflush(stdout);
	pid = fork();
	if(pid < 0){
		perror("init: fork");
		return -1;
	}
	if(pid == 0){
		exec("/bin/sh", argv);
		perror("init: exec /bin/sh");
		exit(1);
	}
	return pid;
}

/* Wait until process pid exits, reaping any others; its status. */
static int
waitfor(int pid)
{
	int w, status;

	while((w = wait(&status)) >= 0)
		if(w == pid)
			return status;
	return 1;
}

int
main(void)
{
	static char *rc[] = { "sh", "/boot/rc", NULL };
	static char *sh[] = { "sh", NULL };
	struct Dir d;
	int pid, status;

	if(open("/dev/cons", O_RDONLY) != 0
	|| open("/dev/cons", O_WRONLY) != 1
	|| open("/dev/cons", O_WRONLY) != 2)
		return 1;
	if(stat("/boot/rc", &d) == 0){
		pid = spawn(rc);
		status = pid < 0 ? 1 : waitfor(pid);
		if(poweroff(status) < 0)
			perror("init: #c/power");
		for(;;)
			if(wait(NULL) < 0)
				sleep(1000);
	}
	for(;;){
		/* A shell that fails (say /bin/sh is gone) is retried once a second, not in a tight loop. */
		pid = spawn(sh);
		if(pid < 0 || waitfor(pid) != 0)
			sleep(1000);
	}
}
