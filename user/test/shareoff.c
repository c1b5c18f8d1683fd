/*
 * shareoff [records]: two processes use one descriptor (shared by
 * fork, and by dup in each) at once, on two processors if there are
 * two, and its one offset must come out as if their calls took turns.
 * Each writes the given number of 32-byte records (default 2000), its
 * letter and a sequence number, to the shared descriptor of a new file,
 * both starting at the same clock tick;
 * then both read the file back through another shared descriptor, a
 * record at a time.  The file must hold every record exactly once,
 * each whole at a multiple of 32 bytes, each process's in its order;
 * and the two readers together must have read each record exactly once.
 * Last, a process waiting for a pipe's descriptor that another holds
 * in a read must still die when killed.
 * Prints "shareoff: ok" or a FAIL line for each thing wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"

enum { Rec = 32, Max = 20000 };

static char	*file = "/tmp/shareoff";
static int	failures;

static void
fail(char *what, long a, long b)
{
	printf("shareoff: FAIL %s (%ld, %ld)\n", what, a, b);
	failures++;
}

/* Record i of process letter c: "c iiiiii" and filler, a newline last. */
static void
record(char *r, int c, int i)
{
	memset(r, c, Rec);
	snprintf(r, Rec, "%c %06d ", c, i);
	r[strlen(r)] = c;
	r[Rec - 1] = '\n';
}

/*
 * Both start at tick go, each busy on its own processor until then
 * (a processor with nothing to run looks for work at its next tick).
 */
static void
await(unsigned int go)
{
	unsigned int hz;

	while((int)(clockticks(&hz) - go) < 0)
		;
}

/* At tick go, write n records as c to fd, alternating with a dup of it. */
static void
writer(int fd, int c, int n, unsigned int go)
{
	char r[Rec];
	int i, d;

	if((d = dup(fd)) < 0)
		exit(2);
	await(go);
	for(i = 0; i < n; i++){
		record(r, c, i);
		if(write(i & 1 ? d : fd, r, Rec) != Rec)
			exit(3);
	}
}

/*
 * Read fd a record at a time, to its end, into seen (seen[c-'a'][i]
 * counts record i of c); returns how many were read, or -1.
 */
static int
reader(int fd, unsigned char *seen, int n, unsigned int go)
{
	char r[Rec];
	int got = 0, i;
	long m;

	await(go);
	while((m = read(fd, r, Rec)) == Rec){
		i = atoi(r + 2);
		if((r[0] != 'a' && r[0] != 'b') || i < 0 || i >= n)
			return -1;
		seen[(r[0] - 'a') * n + i]++;
		got++;
	}
	return m == 0 ? got : -1;
}

int
main(int argc, char *argv[])
{
	static unsigned char seen[2 * Max], other[2 * Max];
	char *buf, r[Rec];
	int fd, pid, st, n = 2000, i, c, p[2], next[2], got;
	unsigned int go, hz;
	long m;
	long len;

	if(argc > 2 || (argc == 2 && ((n = parsenum(argv[1])) <= 0 || n > Max))){
		fprintf(stderr, "usage: shareoff [records, 1 to %d]\n", Max);
		return 1;
	}
	remove(file);
	if((fd = open(file, O_RDWR|O_CREAT|O_TRUNC)) < 0){
		fail("create", fd, 0);
		return 1;
	}
	go = clockticks(&hz) + 3;
	if((pid = fork()) == 0){
		writer(fd, 'b', n, go);
		exit(0);
	}
	writer(fd, 'a', n, go);
	if(pid < 0 || wait(&st) != pid || st != 0)
		fail("writer b", pid, st);
	close(fd);

	/* The file: every record whole, once, each writer's in order. */
	len = 2L * n * Rec;
	if((buf = malloc(len + 1)) == NULL || (fd = open(file, O_RDONLY)) < 0){
		fail("reopen", 0, 0);
		return 1;
	}
	if((got = read(fd, buf, len + 1)) != len)
		fail("file length", got, len);
	close(fd);
	next[0] = next[1] = 0;
	for(i = 0; i + Rec <= got; i += Rec){
		c = buf[i];
		if(c != 'a' && c != 'b'){
			fail("record's letter at offset", i, c);
			break;
		}
		record(r, c, next[c - 'a']);
		if(memcmp(buf + i, r, Rec) != 0){
			fail(c == 'a' ? "a's record not whole or out of order at" : "b's record not whole or out of order at", i, next[c - 'a']);
			break;
		}
		next[c - 'a']++;
	}
	if(next[0] != n || next[1] != n)
		fail("records of a, b", next[0], next[1]);

	/* Two readers of one descriptor: each record read exactly once. */
	if((fd = open(file, O_RDONLY)) < 0 || pipe(p) < 0){
		fail("reopen to read", fd, 0);
		return 1;
	}
	go = clockticks(&hz) + 3;
	if((pid = fork()) == 0){
		memset(seen, 0, sizeof seen);
		got = reader(fd, seen, n, go);
		write(p[1], &got, sizeof got);
		write(p[1], seen, 2 * n);
		exit(0);
	}
	close(p[1]);
	memset(seen, 0, sizeof seen);
	got = reader(fd, seen, n, go);
	if(read(p[0], &i, sizeof i) != sizeof i || i < 0 || got < 0)
		fail("readers", got, i);
	got += i;
	for(m = 0; m < 2 * n && (i = read(p[0], other + m, 2 * n - m)) > 0; m += i)
		;
	if(m != 2 * n)
		fail("reader's counts", m, 2 * n);
	for(i = 0; i < 2 * n; i++)
		seen[i] += other[i];
	wait(&st);
	if(got != 2 * n)
		fail("records read", got, 2 * n);
	for(i = 0; i < 2 * n; i++)
		if(seen[i] != 1){
			fail("record read other than once", i, seen[i]);
			break;
		}
	close(fd);
	remove(file);

	/* A's read of an empty pipe holds the channel; B waits, and is killed. */
	if(pipe(p) < 0){
		fail("pipe", -1, 0);
		return 1;
	}
	if((pid = fork()) == 0){
		read(p[0], r, 1);
		exit(0);
	}
	sleep(50);
	if((i = fork()) == 0){
		read(p[0], r, 1);
		exit(0);
	}
	sleep(50);
	if(kill(i) < 0 || wait(&st) != i || st != 255)
		fail("kill of a process waiting for a descriptor", i, st);
	if(write(p[1], "x", 1) != 1 || wait(&st) != pid || st != 0)
		fail("the holder's read", pid, st);
	if(failures == 0)
		printf("shareoff: ok\n");
	return failures != 0;
}
