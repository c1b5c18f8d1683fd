/*
 * Host test driver for the kernel's ustar reader (kern/tar.c): list an
 * archive as the kernel would see it, one line per entry ("d NAME" or
 * "f NAME SIZE CHECKSUM"), then "end" or "malformed".
 */
#include <stdio.h>
#include <stdlib.h>
#include "../../kern/tar.h"

int
main(int argc, char *argv[])
{
	static unsigned char a[8 << 20];
	unsigned int off = 0, len, i, sum;
	Tarent e;
	FILE *f;
	int r;

	if(argc != 2 || (f = fopen(argv[1], "rb")) == NULL){
		fprintf(stderr, "usage: tartest archive\n");
		return 2;
	}
	len = fread(a, 1, sizeof a, f);
	fclose(f);
	while((r = tarnext(a, len, &off, &e)) > 0){
		if(e.dir){
			printf("d %s\n", e.name);
			continue;
		}
		for(sum = 0, i = 0; i < e.size; i++)
			sum = sum*31 + e.data[i];
		printf("f %s %u %u\n", e.name, e.size, sum);
	}
	printf(r < 0 ? "malformed\n" : "end\n");
	return 0;
}
