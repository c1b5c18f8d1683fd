/*
 * runtest: keep the kernel busy for a while, to have something to
 * profile (see kprof(3)).
 *
 *	runtest [seconds]
 *
 * Does rounds of varied work until the given number of seconds
 * (default 3; a fraction to the millisecond, as 0.3) has passed on
 * the clock of /dev/time: loops of small system calls, 4KB chunks
 * through a pipe to a child, fork, exec and wait of /bin/echo, and
 * writing, reading back and removing a file in /tmp.  Then prints one
 * line saying how much of each it did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"

enum {
	DEFSECS	= 3,		/* seconds to run without an argument */
	NCALL	= 100,		/* system-call loops in a round */
	CHUNK	= 4096,		/* bytes in each pipe write and file write */
	NCHUNK	= 16,		/* chunks through the pipe in a round */
	FILESZ	= 64*1024,	/* bytes in the scratch file */
};

static char	pattern[FILESZ];	/* what goes through pipes and files */
static char	back[FILESZ];		/* what comes back */

static struct {
	long	rounds;		/* of all the kinds below */
	long	calls;		/* system-call loops */
	long	chunks;		/* pipe writes */
	long	execs;		/* of /bin/echo */
	long	files;		/* written, read and removed */
} count;

static void
fatal(const char *what)
{
	fprintf(stderr, "runtest: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
usage(void)
{
	fprintf(stderr, "usage: runtest [seconds]\n");
	exit(1);
}

/* Small system calls: getpid, a read of /dev/null, a stat. */
static void
calls(void)
{
	struct Dir d;
	char c;
	int i, fd;

	for(i = 0; i < NCALL; i++){
		getpid();
		fd = open("/dev/null", O_RDONLY);
		if(fd < 0)
			fatal("/dev/null");
		if(read(fd, &c, 1) != 0)
			fatal("reading /dev/null");
		close(fd);
		if(stat("/dev/null", &d) < 0)
			fatal("stat /dev/null");
		count.calls++;
	}
}

/* Read from fd until end of file; exit 0 if exactly want bytes came. */
static void
drain(int fd, long want)
{
	long n, got;

	got = 0;
	while((n = read(fd, back, CHUNK)) > 0)
		got += n;
	exit(n == 0 && got == want ? 0 : 1);
}

/* Write NCHUNK chunks into a pipe for a child to read. */
static void
pipes(void)
{
	int p[2], i, pid, status;

	if(pipe(p) < 0)
		fatal("pipe");
	pid = fork();
	if(pid < 0)
		fatal("fork");
	if(pid == 0){
		close(p[1]);
		drain(p[0], (long)NCHUNK*CHUNK);
	}
	close(p[0]);
	for(i = 0; i < NCHUNK; i++){
		if(write(p[1], pattern, CHUNK) != CHUNK)
			fatal("writing the pipe");
		count.chunks++;
	}
	close(p[1]);
	if(wait(&status) != pid || status != 0){
		fprintf(stderr, "runtest: pipe reader failed\n");
		exit(1);
	}
}

/* Run /bin/echo with its output going to /dev/null. */
static void
execs(void)
{
	char *argv[] = { "echo", "runtest", NULL };
	int pid, fd, status;

	pid = fork();
	if(pid < 0)
		fatal("fork");
	if(pid == 0){
		fd = open("/dev/null", O_WRONLY);
		if(fd < 0)
			fatal("/dev/null");
		dup2(fd, 1);
		close(fd);
		exec("/bin/echo", argv);
		fatal("exec /bin/echo");
	}
	if(wait(&status) != pid || status != 0){
		fprintf(stderr, "runtest: /bin/echo failed\n");
		exit(1);
	}
	count.execs++;
}

/* Write a file in /tmp, read it back, check it, and remove it. */
static void
files(void)
{
	char path[64];
	long n, got;
	int fd, i;

	snprintf(path, sizeof path, "/tmp/runtest.%d", getpid());
	fd = create(path, O_WRONLY, 0666);
	if(fd < 0)
		fatal(path);
	for(i = 0; i < FILESZ; i += CHUNK)
		if(write(fd, pattern + i, CHUNK) != CHUNK)
			fatal("writing the file");
	close(fd);

	fd = open(path, O_RDONLY);
	if(fd < 0)
		fatal(path);
	got = 0;
	while(got < FILESZ && (n = read(fd, back + got, CHUNK)) > 0)
		got += n;
	close(fd);
	if(got != FILESZ || memcmp(pattern, back, FILESZ) != 0){
		fprintf(stderr, "runtest: %s: read back %ld bytes, not what was written\n", path, got);
		exit(1);
	}
	if(remove(path) < 0)
		fatal(path);
	count.files++;
}

int
main(int argc, char *argv[])
{
	long ms;
	unsigned int start, t, hz;
	int i;

	ms = DEFSECS*1000;
	if(argc > 2)
		usage();
	if(argc == 2){
		if((ms = parsems(argv[1])) <= 0)
			usage();
	}
	for(i = 0; i < FILESZ; i++)
		pattern[i] = 'a' + i % 26;

	start = clockticks(&hz);
	if(hz == 0)
		fatal("/dev/time");
	do{
		calls();
		pipes();
		execs();
		files();
		count.rounds++;
		t = clockticks(&hz);
	}while((unsigned long long)(t - start) * 1000 < (unsigned long long)ms * hz);

	printf("runtest: %u ticks at %u hz, %ld rounds: %ld syscall loops, "
		"%ld pipe chunks, %ld execs, %ld files\n",
		t - start, hz, count.rounds, count.calls, count.chunks,
		count.execs, count.files);
	return 0;
}
