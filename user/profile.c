/*
 * profile: the kernel profile of one command and of nothing else.
 *
 *	profile [-q] command [arg ...]
 *
 * The command runs in a child that waits on a pipe until kprof is
 * scoped to it (kpctl's pid, kprof(3)), cleared and started; it then
 * execs the command, which with all it forks is all kprof counts.
 * Once it has exited, profile stops kprof, puts the scope back to all,
 * and prints the flat profile of the kernel (/kernel), the ticks by
 * process, and the busiest folded stacks, kernel and user, the user
 * frames named by the command's program, through the formatters'
 * library that kprof(1) uses; with -q, nothing, the data left in #T's
 * files for whoever reads them (tools/profile).  Its exit status is the
 * command's.  The time at the prompt before and after is never
 * counted, so a line typed at the console measures the command alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "elfsym.h"
#include "kpdata.h"
#include "kpproc.h"
#include "kpstack.h"

enum { Ntop = 10 };	/* folded stacks printed */

static char kernel[] = "/kernel";
static char kpdata[] = "/dev/kpdata";

/* Send kpctl a message; exit with the reason if it refuses. */
static void
ctl(int fd, const char *msg)
{
	if(write(fd, msg, strlen(msg)) != (long)strlen(msg))
		fatal("/dev/kpctl: %s: %s", msg, strerror(errno));
}

/* The program that name runs, as the shell finds it: in /bin unless it has a slash. */
static char*
program(char *path, int n, char *name)
{
	if(strchr(name, '/') == NULL && strlen(name) < (size_t)n - 5){
		snprintf(path, n, "/bin/%s", name);
		return path;
	}
	return name;
}

/* In the child: wait for the go, then become the command. */
static void
child(int go, char **argv)
{
	char path[256], c;

	if(read(go, &c, 1) != 1)
		exit(1);	/* profile failed, and said so */
	close(go);
	exec(program(path, sizeof path, argv[0]), argv);
	fprintf(stderr, "profile: %s: %s\n", argv[0], strerror(errno));
	exit(1);
}

int
main(int argc, char *argv[])
{
	Symtab k, u;
	Stacks st;
	uint32_t *cell;
	char msg[32];
	char path[256];
	int fd[2], kp, pid, w, status, named, quiet, dashes;
	const char *err;

	argv0 = "profile";
	quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	argc -= quiet;
	argv += quiet;
	dashes = argc > 1 && strcmp(argv[1], "--") == 0;
	argc -= dashes;
	argv += dashes;
	if(argc < 2 || (!dashes && argv[1][0] == '-')){
		fprintf(stderr, "usage: profile [-q] command [arg ...]\n");
		return 1;
	}
	if((err = symload(&k, kernel)) != NULL)
		fatal("%s", err);
	if((kp = open("/dev/kpctl", O_WRONLY)) < 0)
		fatal("/dev/kpctl: %s", strerror(errno));
	if(pipe(fd) < 0)
		fatal("pipe: %s", strerror(errno));
	if((pid = fork()) < 0)
		fatal("fork: %s", strerror(errno));
	if(pid == 0){
		close(fd[1]);
		close(kp);
		child(fd[0], argv + 1);
	}
	close(fd[0]);
	snprintf(msg, sizeof msg, "pid %d", pid);
	ctl(kp, msg);
	ctl(kp, "startclr");
	write(fd[1], "g", 1);
	close(fd[1]);
	status = 1;
	while((w = wait(&status)) != pid && w >= 0)
		;
	ctl(kp, "stop");
	ctl(kp, "pid all");
	close(kp);
	if(quiet){
		symfree(&k);
		return status;
	}

	/* The stacks are named first: kpflat reorders the symbols. */
	cell = kpread(kpdata, kpnbins(&k));
	memset(&st, 0, sizeof st);
	named = symload(&u, program(path, sizeof path, argv[1])) == NULL;
	if(cell[KPTOTAL] != 0)
		stackload(&st, &k, named ? &u : NULL, "/dev/kpstack");
	kpflat(&k, cell, kpclock(&k, kpdata, 0));
	free(cell);
	printf("\nticks by process:\n");
	kpprocprint("/dev/kpproc");
	printf("\nbusiest stacks:\n");
	stacktop(&st, Ntop);
	stackfree(&st);
	if(named)
		symfree(&u);
	symfree(&k);
	return status;
}
