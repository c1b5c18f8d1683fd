/* kill pid ...: kill processes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int i, status = 0;
	long pid;

	if(argc < 2){
		fprintf(stderr, "usage: kill pid ...\n");
		return 1;
	}
	for(i = 1; i < argc; i++){
		if((pid = parsenum(argv[i])) < 0){
			fprintf(stderr, "kill: %s: not a pid\n", argv[i]);
			status = 1;
		}else if(kill(pid) < 0){
			warn(argv[i]);
			status = 1;
		}
	}
	return status;
}
