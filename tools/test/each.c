/*
 * A host tool's sanitizer build, run on many files from one process:
 * survives (tools/test/host.bash) runs it on each of hundreds of
 * damaged files.  Linked with -Wl,--wrap=main, so that the C runtime
 * calls __wrap_main, here, and the tool's own main is __real_main.
 *
 *	NAME-each ERRFILE FILE... -- ARG...
 *
 * runs the tool's main with ARG..., each {} in them standing for FILE,
 * for each FILE in turn, each run in a child forked from this process
 * before it has done anything: the child starts where a new process
 * of the sanitizer build would start its main, with no global or heap
 * of the tool touched, but without the exec, the dynamic linking and
 * the sanitizers' set-up, which were most of each run's time.  A run's
 * stdout goes to /dev/null and its stderr to ERRFILE.  A run fails if
 * it exits with more than 1 (a result or an error is 0 or 1), is
 * killed, or says "Sanitizer" or "runtime error" on stderr: then this
 * prints "FILE STATUS" and exits 1, leaving the run's stderr in ERRFILE.
 * Exits 0 if no run failed, 2 if it could not run them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int __real_main(int, char **, char **);

/* Whether the file's text holds a sanitizer's report. */
static int
reported(const char *path)
{
	static char buf[1 << 16];
	char *all = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, found;

	if ((fd = open(path, O_RDONLY)) < 0)
		return 1;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		all = realloc(all, len + n);
		if (all == NULL)
			return 1;
		memcpy(all + len, buf, n);
		len += n;
	}
	close(fd);
	if (len == 0)
		return 0;
	found = memmem(all, len, "Sanitizer", 9) != NULL ||
	    memmem(all, len, "runtime error", 13) != NULL;
	free(all);
	return found;
}

/* One run of the tool's main on file, in a child; its exit status. */
static int
run(char *errfile, char *file, int nargs, char **args, char **envp)
{
	char **argv;
	pid_t pid;
	int i, st, fd;

	fflush(NULL);
	if ((pid = fork()) < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) < 0 || dup2(fd, 1) < 0 ||
		    (fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0 || dup2(fd, 2) < 0)
			_exit(2);
		argv = calloc(nargs + 1, sizeof *argv);
		if (argv == NULL)
			_exit(2);
		for (i = 0; i < nargs; i++)
			argv[i] = strcmp(args[i], "{}") == 0 ? file : args[i];
		exit(__real_main(nargs, argv, envp));
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int
__wrap_main(int argc, char **argv, char **envp)
{
	int i, sep, st;

	for (sep = 2; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
		;
	if (argc < 3 || sep == argc) {
		fprintf(stderr, "usage: %s errfile file... -- arg...\n", argv[0]);
		return 2;
	}
	/* The tool's argv[0], then its arguments. */
	argv[sep] = argv[0];
	for (i = 2; i < sep; i++) {
		st = run(argv[1], argv[i], argc - sep, argv + sep, envp);
		if (st > 1 || reported(argv[1])) {
			printf("%s %d\n", argv[i], st);
			return 1;
		}
	}
	return 0;
}
