/* sleep seconds: wait that long. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	long s;

	if(argc != 2 || (s = parsenum(argv[1])) < 0){
		fprintf(stderr, "usage: sleep seconds\n");
		return 1;
	}
	return sleep(s * 1000) < 0;
}
