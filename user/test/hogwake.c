/*
 * hogwake: does a sleeper wake on time while other processes hog every
 * processor with system calls that do real work in the kernel?
 *
 *	hogwake [-n hogs] [-t ticks] [-r rounds] [-s slack] [file]
 *
 * Forks hogs children (default 1) that read file (default /dev/ps)
 * from its start, over and over, as fast as they can, then sleeps
 * ticks clock ticks (default 100) rounds times (default 5) and prints
 * how long each sleep took, from /dev/time before the call to /dev/time
 * after it.  A hog spends nearly all its time in the kernel, so the
 * clock's ticks land there, not in user mode; the scheduler must still
 * take the processor from it at the end of its turn.
 *
 * Prints "ok NAME" or "FAIL NAME: why", then "hogwake: ok" and exits 0
 * if every sleep took at most ticks + slack (default 3).  Why 3 (each
 * under a tick with a hog per processor, at hz=10000 on 4 processors
 * too): the sleep's call starts within the tick after the first
 * look at the clock; the tick that ends it readies the sleeper, which
 * runs once a hog, out of its turn, next returns to user mode, at the
 * end of one read; and the second look at the clock is a few calls,
 * which a tick may split, the sleeper then waiting for a hog's turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"
#include "lib/check.h"

enum { Maxhogs = 16, Maxrounds = 64, Bufsize = 8192 };

static char	buf[Bufsize];

/* Read file from its start for ever: the work is the kernel's. */
static void
hog(const char *file)
{
	int fd;

	if((fd = open(file, O_RDONLY)) < 0)
		fatal(file);
	for(;;){
		if(seek(fd, 0, 0) < 0 || read(fd, buf, sizeof buf) < 0)
			fatal(file);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: hogwake [-n hogs] [-t ticks] [-r rounds] [-s slack] [file]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	long nhog = 1, t = 100, rounds = 5, slack = 3, i, r, most = 0;
	char *file = "/dev/ps", *flag, name[64];
	int pids[Maxhogs];
	long tooks[Maxrounds];
	unsigned long t0;

	for(i = 1; i < argc && argv[i][0] == '-'; i += 2){
		flag = argv[i];
		if(i + 1 >= argc || (r = parsenum(argv[i + 1])) < 0)
			usage();
		if(strcmp(flag, "-n") == 0 && r >= 1 && r <= Maxhogs)
			nhog = r;
		else if(strcmp(flag, "-t") == 0 && r >= 1)
			t = r;
		else if(strcmp(flag, "-r") == 0 && r >= 1 && r <= Maxrounds)
			rounds = r;
		else if(strcmp(flag, "-s") == 0)
			slack = r;
		else
			usage();
	}
	if(i < argc)
		file = argv[i++];
	if(i != argc)
		usage();
	now();
	if(t * 1000 % hz != 0){
		/* sleep takes milliseconds: a sleep of t ticks must be a whole number of them */
		fprintf(stderr, "hogwake: %ld ticks at %u hz is not a whole number of ms\n", t, hz);
		return 2;
	}
	for(i = 0; i < nhog; i++){
		if((pids[i] = fork()) < 0)
			fatal("fork");
		if(pids[i] == 0)
			hog(file);
	}
	/* A first sleep, not counted, so that every hog is reading by the first counted one. */
	sleep(t * 1000 / hz);
	/* Nothing printed meanwhile: the console's writes would be work of the sleeper's own. */
	for(r = 0; r < rounds; r++){
		t0 = now();
		if(sleep(t * 1000 / hz) < 0)
			fatal("sleep");
		tooks[r] = now() - t0;
	}
	printf("hogwake: %ld hogs on %s, sleeps of %ld ticks took", nhog, file, t);
	for(r = 0; r < rounds; r++){
		printf(" %ld", tooks[r]);
		if(tooks[r] > most)
			most = tooks[r];
	}
	printf("\n");
	for(i = 0; i < nhog; i++){
		kill(pids[i]);
		wait(NULL);
	}
	snprintf(name, sizeof name, "hogwake-%ld-hogs", nhog);
	if(most > t + slack)
		fail(name, "a sleep of %ld ticks took %ld, more than %ld", t, most, t + slack);
	else
		ok(name);
	printf("hogwake: %s\n", nfail ? "failed" : "ok");
	return nfail != 0;
}
