/*
 * atk_create [rounds]: open(2) with O_CREAT against a file that others
 * make and remove at once, on several processors (tools/test/faults.sh).
 * Three threads open one file with O_CREAT and close it, rounds times
 * each, while a fourth removes it without pause: every open succeeds,
 * as the file is made if it does not exist.  (One made by another
 * between open's look and its create was refused with EEXIST, and one
 * removed between the look and the open with ENOENT.)  And a file
 * bound over another, then removed, is gone for good: open with
 * O_CREAT of the name it was bound over fails with ENOENT, at once.
 * Prints "atk_create: ok", or what failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "lib/check.h"

enum { Nopen = 3 };

#define FILE	"/tmp/atk_create"

static volatile int nleft = Nopen;	/* openers not yet done */
static int rounds = 300;
static int nerr[2];			/* opens refused with EEXIST and with ENOENT */

static void
opener(int i)
{
	int r, fd;

	(void)i;
	for(r = 0; r < rounds; r++){
		/* A delay that differs by round and thread, for the turns of run-qemu.sh -d. */
		spinloop(1 + (r * 7919 + i * 104729) % 3000);
		if((fd = open(FILE, O_WRONLY|O_CREAT)) >= 0)
			close(fd);
		else if(errno == EEXIST)
			__atomic_add_fetch(&nerr[0], 1, __ATOMIC_SEQ_CST);
		else if(errno == ENOENT)
			__atomic_add_fetch(&nerr[1], 1, __ATOMIC_SEQ_CST);
		else
			fail("open", "round %d: %s", r, strerror(errno));
	}
	__atomic_sub_fetch(&nleft, 1, __ATOMIC_SEQ_CST);
}

static void
remover(int i)
{
	(void)i;
	while(nleft > 0)
		remove(FILE);
}

int
main(int argc, char *argv[])
{
	int i;

	if(argc > 2 || (argc == 2 && (rounds = argcount(argv[1], "atk_create [rounds]")) == 0)){
		fprintf(stderr, "usage: atk_create [rounds]\n");
		return 1;
	}
	for(i = 0; i < Nopen; i++)
		thread(opener, i);
	thread(remover, 0);
	waitn(Nopen + 1);
	remove(FILE);
	if(nerr[0] + nerr[1] > 0)
		fail("create", "of %d opens with O_CREAT, %d refused with EEXIST and %d with ENOENT",
			Nopen * rounds, nerr[0], nerr[1]);
	if((i = create(FILE ".a", O_WRONLY, 0664)) < 0 || close(i) < 0 || (i = create(FILE, O_WRONLY, 0664)) < 0
	|| close(i) < 0 || bind(FILE ".a", FILE, MREPL) < 0 || remove(FILE ".a") < 0)
		fatal("bind");
	if((i = open(FILE, O_WRONLY|O_CREAT)) >= 0 || errno != ENOENT)
		fail("stale", "open with O_CREAT through a bind of a removed file: %d, %s", i, strerror(errno));
	if(unmount(NULL, FILE) < 0 || remove(FILE) < 0)
		fatal("unmount");
	printf("atk_create: %s\n", nfail ? "failed" : "ok");
	return nfail != 0;
}
