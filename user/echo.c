/* echo [-n] [arg ...]: print the arguments, and a newline unless -n. */
#include <stdio.h>
#include <string.h>

int
main(int argc, char *argv[])
{
	int i, nl = 1;

	if(argc > 1 && strcmp(argv[1], "-n") == 0){
		nl = 0;
		argc--;
		argv++;
	}
	for(i = 1; i < argc; i++){
		fputs(argv[i], stdout);
		if(i + 1 < argc)
			putchar(' ');
	}
	if(nl)
		putchar('\n');
	return 0;
}
