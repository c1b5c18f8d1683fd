/*
 * sleep seconds: wait that long.  Seconds as spin takes them (parsems),
 * so that a number too big for the milliseconds sleep(2) takes is an
 * error, not a wait of what it wrapped to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	long ms;

	if(argc != 2 || (ms = parsems(argv[1])) < 0){
		fprintf(stderr, "usage: sleep seconds\n");
		return 1;
	}
	return sleep(ms) < 0;
}
