/* sleep seconds: wait that long. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	char *end;
	long s;

	if(argc != 2 || (s = strtol(argv[1], &end, 10)) < 0 || *end != '\0'){
		fprintf(stderr, "usage: sleep seconds\n");
		return 1;
	}
	return sleep(s * 1000) < 0;
}
