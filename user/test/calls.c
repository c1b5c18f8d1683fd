/*
 * calls: system calls counted, for the kernel's call graph
 * (tools/test/callgraph.sh).
 *
 *	calls [-c copies] n	each of copies processes (1 by default),
 *				all at once, seeks /kernel n times
 *	calls -f n		turns kprof's arcs on and off n times
 *
 * A seek's path in the kernel is syscall, sysseek, then fdchan,
 * qlockintr, seekchan and qunlock, and no other program seeks; so the
 * call graph must show sysseek called copies*n times from syscall.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: calls [-c copies] n\n       calls -f n\n");
	exit(1);
}

/* n seeks of /kernel. */
static void
seeks(int n)
{
	int fd;

	if((fd = open("/kernel", O_RDONLY)) < 0){
		perror("calls: /kernel");
		exit(1);
	}
	while(n-- > 0)
		if(seek(fd, 0, 0) != 0){
			perror("calls: seek");
			exit(1);
		}
	close(fd);
}

/* arcs on, then off, n times. */
static void
flips(int n)
{
	int fd;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0){
		perror("calls: /dev/kpctl");
		exit(1);
	}
	while(n-- > 0)
		if(write(fd, "arcs on", 7) != 7 || write(fd, "arcs off", 8) != 8){
			perror("calls: /dev/kpctl");
			exit(1);
		}
	close(fd);
}

int
main(int argc, char *argv[])
{
	int n, copies = 1, i;
	int st, bad = 0;

	if(argc == 3 && strcmp(argv[1], "-f") == 0){
		if((n = parsenum(argv[2])) < 0)
			usage();
		flips(n);
		return 0;
	}
	if(argc == 4 && strcmp(argv[1], "-c") == 0){
		copies = parsenum(argv[2]);
		argv += 2;
	}else if(argc != 2)
		usage();
	n = parsenum(argv[1]);
	if(n < 0 || copies < 1)
		usage();
	for(i = 0; i < copies; i++)
		switch(fork()){
		case -1:
			perror("calls: fork");
			exit(1);
		case 0:
			seeks(n);
			exit(0);
		}
	for(i = 0; i < copies; i++)
		if(wait(&st) < 0 || st != 0)
			bad = 1;
	if(bad)
		fprintf(stderr, "calls: a copy failed\n");
	else
		printf("calls: %d copies, %d seeks each\n", copies, n);
	return bad;
}
