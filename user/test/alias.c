/*
 * alias rounds count: sleep to each of the scheduler's ticks, then spin
 * count iterations of #S's spina (bound at /dev), rounds times.  With
 * count half a tick's worth, the process is in spina half the time, at
 * the same phase of every tick: a sampling clock of the same rate and a
 * fixed phase sees it there at every sample or at none (tools/test/
 * kprof.sh, which checks that kprof's random intervals see the half).
 * It starts kprof itself (startclr), a quarter of a tick into its first
 * round, so that a fixed clock's phase is the middle of the spin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	char msg[32], half[32];
	long rounds, count, i;
	int fd, ctl, n, h;

	if(argc != 3 || (rounds = parsenum(argv[1])) < 0 || (count = parsenum(argv[2])) < 0){
		fprintf(stderr, "usage: alias rounds count\n");
		return 1;
	}
	if((fd = open("/dev/spinctl", O_WRONLY)) < 0 || (ctl = open("/dev/kpctl", O_WRONLY)) < 0){
		perror("alias: /dev/spinctl or /dev/kpctl");
		return 1;
	}
	n = snprintf(msg, sizeof msg, "a %ld", count);
	h = snprintf(half, sizeof half, "a %ld", count/2);
	sleep(1);
	if(write(fd, half, h) != h || write(ctl, "startclr", 8) != 8 || write(fd, half, h) != h){
		perror("alias: first round");
		return 1;
	}
	for(i = 1; i < rounds; i++){
		sleep(1);
		if(write(fd, msg, n) != n){
			perror("alias: spinctl");
			return 1;
		}
	}
	printf("alias: %ld rounds of %ld\n", rounds, count);
	return 0;
}
