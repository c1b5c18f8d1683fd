/*
 * profdemo: a program whose profile is known, to try the profilers on.
 *
 *	profdemo [seconds]
 *
 * spin3 and spin1 run the same loop, spin3 three times as many rounds
 * of it.  main calls them in turn, a small chunk of work each, so that
 * at any moment about three quarters of the time so far has gone to
 * spin3 and one quarter to spin1.  It stops after the given seconds
 * (default 2) on the clock of /dev/time.  So
 *
 *	profdemo.prof 2; prof /bin/profdemo.prof
 *
 * shows spin3 at about 75% and spin1 at about 25%.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

enum {
	DEFSECS	= 2,		/* seconds to run without an argument */
	CHUNK	= 1000,		/* rounds of spin1's loop in a call */
	NPAIR	= 64,		/* calls of each between looks at the clock */
};

static volatile unsigned int	sink;	/* what the loops add to, so they are not optimized away */

static void
usage(void)
{
	fprintf(stderr, "usage: profdemo [seconds]\n");
	exit(1);
}

/* The clock, in ticks, from fd open on /dev/time ("TICKS HZ\n"); sets *hz. */
static unsigned long
now(int fd, unsigned long *hz)
{
	char buf[64], *p;
	unsigned long t;
	long n;

	seek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof buf - 1);
	if(n <= 0){
		fprintf(stderr, "profdemo: can't read /dev/time\n");
		exit(1);
	}
	buf[n] = '\0';
	t = strtoul(buf, &p, 10);
	*hz = strtoul(p, NULL, 10);
	return t;
}

static __attribute__((noinline)) void
spin3(void)
{
	int i;

	for(i = 0; i < 3*CHUNK; i++)
		sink += i;
}

static __attribute__((noinline)) void
spin1(void)
{
	int i;

	for(i = 0; i < CHUNK; i++)
		sink += i;
}

int
main(int argc, char *argv[])
{
	unsigned long start, hz, calls;
	long secs;
	char *end;
	int fd, i;

	secs = DEFSECS;
	if(argc > 2)
		usage();
	if(argc == 2){
		secs = strtol(argv[1], &end, 10);
		if(*end != '\0' || end == argv[1] || secs < 0)
			usage();
	}
	fd = open("/dev/time", O_RDONLY);
	if(fd < 0){
		perror("profdemo: /dev/time");
		exit(1);
	}
	start = now(fd, &hz);
	calls = 0;
	while(now(fd, &hz) - start < secs*hz){
		for(i = 0; i < NPAIR; i++){
			spin3();
			spin1();
		}
		calls += NPAIR;
	}
	close(fd);
	printf("profdemo: %lu calls each of spin3 and spin1 in %ld s\n", calls, secs);
	return 0;
}
