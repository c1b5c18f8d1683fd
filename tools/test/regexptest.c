/*
 * Host test driver for the regular expressions of user/lib/regexp.c:
 * regexptest PATTERN STRING ...  prints, for each string, 1 if it
 * contains a match and 0 if not; a bad pattern: its error, status 1.
 */
#include <stdio.h>
#include <string.h>
#include "regexp.h"

int
main(int argc, char *argv[])
{
	Regexp *re;
	const char *err;
	int i;

	if(argc < 2){
		fprintf(stderr, "usage: regexptest pattern string ...\n");
		return 2;
	}
	if((re = regcomp(argv[1], &err)) == NULL){
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for(i = 2; i < argc; i++)
		printf("%d\n", regexec(re, argv[i], strlen(argv[i])));
	regfree(re);
	return 0;
}
