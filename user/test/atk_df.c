/*
 * atk_df [read|fork]: enter the kernel with the direction flag set.
 * Trap entry must clear it: the kernel's string instructions (memmove,
 * a struct copy in fork) would otherwise run backwards, copying kernel
 * memory into user memory until the kernel faulted.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[64*1024];

int
main(int argc, char *argv[])
{
	char *kind = argc > 1 ? argv[1] : "read";
	int fd, r;

	if(strcmp(kind, "fork") == 0){
		asm volatile("std");
		r = fork();
		asm volatile("cld");
		if(r == 0)
			_exit(0);
		wait(0);
		printf("atk_df: fork survived\n");
		return 0;
	}
	if((fd = open("/bin/echo", O_RDONLY)) < 0){
		printf("atk_df: open failed\n");
		return 1;
	}
	asm volatile("std");
	r = read(fd, buf + sizeof buf - 4096, 16);
	asm volatile("cld");
	printf("atk_df: read %d survived\n", r);
	return 0;
}
