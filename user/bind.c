/* bind [-a|-b] new old: put new on the path old (-a after, -b before it). */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct Dir d;
	int flag = MREPL, e;

	if(argc == 4 && strcmp(argv[1], "-a") == 0)
		flag = MAFTER;
	else if(argc == 4 && strcmp(argv[1], "-b") == 0)
		flag = MBEFORE;
	else if(argc != 3 || argv[1][0] == '-'){
		fprintf(stderr, "usage: bind [-a|-b] new old\n");
		return 1;
	}
	if(bind(argv[argc-2], argv[argc-1], flag) < 0){
		/* The kernel's error does not say which name it is about. */
		e = errno;
		if(stat(argv[argc-2], &d) < 0)
			warn(argv[argc-2]);
		else{
			errno = e;
			warn(argv[argc-1]);
		}
		return 1;
	}
	return 0;
}
