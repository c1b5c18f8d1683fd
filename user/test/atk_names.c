/*
 * atk_names: odd names through every call that takes one: device
 * letters that do not exist, '#' alone, device roots with a spec after
 * the letter, walks below a file, the pipe device's files, '..' above a
 * device root.  stat, open (each mode), create, mkdir, remove, chdir,
 * bind and exec each; the kernel must survive them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *names[] = {
	"#", "#\\001", "#z", "#cfoo", "#c/../..", "#c/cons/x", "#|", "#|/data",
	"#|/data1", "#|/data/..", "#|/x", "#T/kpdata/..", "#//tmp", "#/",
	"/dev/cons/..", "#t/eia1", "#S/spinctl", "/tmp/../../..", "#|/data1/",
};

int
main(void)
{
	static char *argv[] = { "x", NULL };
	struct Dir d;
	unsigned i;
	int fd, m, pid, st;

	for(i = 0; i < sizeof names/sizeof names[0]; i++){
		stat(names[i], &d);
		for(m = 0; m < 3; m++)
			if((fd = open(names[i], m)) >= 0)
				close(fd);
		if(strcmp(names[i], "#|/data") == 0 || strcmp(names[i], "#t/eia1") == 0)
			continue;	/* atk_pipeexec: a panic; eia1 waits for input */
		fflush(stdout);
		if((pid = fork()) == 0){
			chdir(names[i]);
			exec(names[i], argv);
			exit(0);
		}
		wait(&st);
		remove(names[i]);
		mkdir(names[i]);
		if((fd = create(names[i], O_RDWR, 0664)) >= 0)
			close(fd);
	}
	printf("atk_names: kernel alive\n");
	return 0;
}
