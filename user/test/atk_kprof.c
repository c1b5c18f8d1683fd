/*
 * atk_kprof CASE [ROUNDS]: #T's control file and kpproc attacked
 * (kprof(3), kern/kpproc.c, kern/parse.c).  Each case prints "ok NAME"
 * for what held and "FAIL NAME: why" for what did not, then
 * "atk_kprof: CASE: ok" or "failed".
 *
 *	ctl	messages with NULs, without a newline, of 63, 64 and
 *		more bytes, of 8 and 9 words, from bad memory, at
 *		offsets and in pieces: each refused or taken whole, and
 *		what a refused one leaves is as it was
 *	forkpid	`pid N' for a child as fork makes it (a thread writes
 *		it as soon as the pid is there): the child is in scope,
 *		and its ticks are in kpproc, in each of ROUNDS rounds
 *	exits	ROUNDS children that spin and exit, more than kpproc
 *		keeps, while another process reads kpproc again and
 *		again: every line well formed, the overflow line last
 *	offsets	kpproc and kpctl read at every offset in pieces of
 *		1, 7 and 64 bytes, past the end, and into bad memory:
 *		the pieces make the whole
 *	torn	kpproc read in pieces from its start to its end while
 *		another process reaps ROUNDS children, each reaped
 *		child's line moving to the end: the pieces make one
 *		whole, the lines of a read whole before (which holds a
 *		line for at least a quarter of the children)
 *	gmon	kpgmon read in pieces and past its end; then, with the
 *		call graph on, held open by processes as many times as
 *		they can (an open copies it whole into the kernel's
 *		heap): fork and exec still work, and once they close,
 *		the heap is back
 *	arcs	three processes write arcs on, arcs off and startclr
 *		ROUNDS times each and read kpgmon, while two fork and
 *		make calls and kprof samples: the text's hash after arcs
 *		off is what it was before
 *	leave	(ROUNDS rounds) threads exit with their frame pointer in
 *		a page whose table the last thread frees as they go
 *	latency	(ROUNDS readers) a sleep of 100 ticks beside readers
 *		of a full kpproc ends within 110
 *	gmonwait	(ROUNDS openers) a sleep of 100 ticks beside
 *		processes that open kpgmon again and again, and beside
 *		processes that read it whole again and again, ends
 *		within 110, however big the file is
 *	kphold	(ROUNDS holders) the heap filled with files but for
 *		256 KB, then processes and threads open kpproc and read
 *		a byte of each open, each open keeping its text, until
 *		an open or read fails, while three processes read one
 *		shared open at odd offsets and reap children: each
 *		holder stops at ENOMEM or EMFILE, and the heap comes back
 *	gmonkill	(ROUNDS openers) openers of kpgmon with the call
 *		graph on, killed a few ticks into their opens, while two
 *		processes write arcs on and off, startclr, stop and start:
 *		each opener dies or ends, and the text and heap stay
 *	interval	(ROUNDS writes at most, for tools/test/kpattack.sh's
 *		gdb) two threads write interval random while kprof
 *		counts, until intervalstop is set; then kprof's clock
 *		still ticks at its rate
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "kern/sys.h"
#include "lib/check.h"

enum {
	Forkmem	= 2*1024*1024,	/* the forking case's memory for fork to copy */
	Spin	= 2000000,	/* a child's spin: a few ticks at 1000 Hz */
	Big	= 64*1024,	/* room for kpproc */
	Gmonmax	= 16*1024*1024,	/* for kpgmon: more than the kernel's heap */
};

static char	big[Big], piece[Big];

static int
ctlfd(void)
{
	int fd;

	if((fd = open("/dev/kpctl", O_RDWR)) < 0)
		fatal("/dev/kpctl");
	return fd;
}

/* Write n bytes of msg to kpctl on a fresh open: what write returned, errno in *err. */
static long
ctln(const void *msg, long n, int *err)
{
	long r;
	int fd = ctlfd();

	errno = 0;
	r = write(fd, msg, n);
	*err = errno;
	close(fd);
	return r;
}

static void
ctl(const char *msg)
{
	int err;

	if(ctln(msg, strlen(msg), &err) != (long)strlen(msg)){
		errno = err;
		fatal(msg);
	}
}

/* The status line's word after `pid', and whether kprof is on. */
static void
status(char *scope, int n, int *on)
{
	char s[256], *p;

	if(readwhole("/dev/kpctl", s, sizeof s) < 0)
		fatal("read /dev/kpctl");
	*on = strncmp(s, "on ", 3) == 0;
	p = strstr(s, " pid ");
	snprintf(scope, n, "%s", p != NULL ? p + 5 : "?");
	for(p = scope; *p != '\0' && *p != ' ' && *p != '\n'; p++)
		;
	*p = '\0';
}

/* Message msg, n bytes, must be refused with err, and change nothing. */
static void
refused(const char *name, const void *msg, long n, int err)
{
	char before[32], after[32];
	int on0, on1, e;
	long r;

	status(before, sizeof before, &on0);
	r = ctln(msg, n, &e);
	status(after, sizeof after, &on1);
	if(r != -1 || e != err)
		fail(name, "write returned %ld, errno %d, not -1 and %d", r, e, err);
	else if(strcmp(before, after) != 0 || on0 != on1)
		fail(name, "refused, but the status went from %s %s to %s %s",
			on0 ? "on" : "off", before, on1 ? "on" : "off", after);
	else
		ok(name);
}

/* Message msg, n bytes, must be taken whole, and leave the scope want. */
static void
taken(const char *name, const void *msg, long n, const char *want)
{
	char scope[32];
	int on, e;
	long r;

	r = ctln(msg, n, &e);
	status(scope, sizeof scope, &on);
	if(r != n)
		fail(name, "write returned %ld, errno %d, not %ld", r, e, n);
	else if(strcmp(scope, want) != 0)
		fail(name, "scope %s, not %s", scope, want);
	else
		ok(name);
}

static void
ctlcase(void)
{
	char msg[256], me[16], *end;
	int fd, i;
	long r;

	snprintf(me, sizeof me, "%d", getpid());
	ctl("pid all");
	/* A NUL ends no message: what follows it is part of it. */
	refused("nul-after-start", "stop\0start", 10, EINVAL);
	snprintf(msg, sizeof msg, "pid %s", me);
	refused("nul-in-pid", msg, strlen(msg) + 2, EINVAL);
	refused("nul-first", "\0pid 1", 6, EINVAL);
	refused("nul-alone", "\0", 1, EINVAL);
	refused("empty", "", 0, EINVAL);
	refused("blanks", " \t\n\n", 4, EINVAL);
	/* Numbers: junk, signs, hex, overflow, none. */
	refused("pid-none", "pid", 3, EINVAL);
	refused("pid-neg", "pid -1", 6, EINVAL);
	refused("pid-plus", "pid +1", 6, EINVAL);
	refused("pid-hex", "pid 0x1", 7, EINVAL);
	refused("pid-2^32", "pid 4294967297", 14, EINVAL);
	refused("pid-huge", "pid 99999999999999999999999999999999999999999999999999", 54, EINVAL);
	refused("pid-gone", "pid 99999999", 12, ESRCH);
	refused("pid-zero", "pid 0", 5, ESRCH);
	refused("pid-two", "pid 1 1", 7, EINVAL);
	refused("unknown", "start please", 12, EINVAL);
	refused("case", "START", 5, EINVAL);
	refused("interval-junk", "interval sometimes", 18, EINVAL);
	/* Length: the message and its end fit in 64 bytes, or it is refused. */
	memset(msg, ' ', sizeof msg);
	memmove(msg, "pid ", 4);
	memmove(msg + 4, me, strlen(me));
	taken("63-bytes", msg, 63, me);
	ctl("pid all");
	refused("64-bytes", msg, 64, EINVAL);
	refused("255-bytes", msg, 255, EINVAL);
	refused("2^31-1-bytes", msg, 0x7fffffff, EFAULT);
	refused("negative-length", msg, -1, EINVAL);
	/* Words: eight are looked up, nine are too many. */
	refused("8-words", "pid 1 2 3 4 5 6 7", 17, EINVAL);
	refused("9-words", "pid 1 2 3 4 5 6 7 8", 19, EINVAL);
	refused("many-words", "a b c d e f g h i j k l m n o p q r s t u v w x y z", 51, EINVAL);
	/* Memory: unmapped, kernel, straddling the end of the data. */
	refused("nil-buffer", NULL, 5, EFAULT);
	refused("kernel-buffer", (void*)0xC0100000, 5, EFAULT);
	refused("top-buffer", (void*)(USEREND - 2), 5, EFAULT);
	end = sbrk(0);
	memmove(end - 4, "pid ", 4);
	refused("past-the-end", end - 4, 8, EFAULT);
	/* Without a newline, with many, in pieces, at an offset. */
	snprintf(msg, sizeof msg, "pid %s", me);
	taken("no-newline", msg, strlen(msg), me);
	snprintf(msg, sizeof msg, "pid all\n\n\n");
	taken("newlines", msg, strlen(msg), "all");
	fd = ctlfd();
	r = write(fd, "pi", 2);
	i = errno;
	if(r != -1 || i != EINVAL)
		fail("pieces", "\"pi\": write returned %ld, errno %d", r, i);
	else if((r = write(fd, "d 1", 3)) != -1)
		fail("pieces", "\"d 1\": write returned %ld", r);
	else
		ok("pieces");
	close(fd);
	fd = ctlfd();
	snprintf(msg, sizeof msg, "pid %s", me);
	if(seek(fd, 1000000, 0) != 1000000 || write(fd, msg, strlen(msg)) != (long)strlen(msg))
		fail("at-offset", "seek and write: %s", strerror(errno));
	else
		ok("at-offset");
	close(fd);
	ctl("pid all");
}

/* Shared with the scoper thread: it scopes kprof to target as soon as the pid exists. */
static volatile int	target, done, quit;

static void
scoper(void)
{
	char msg[32];
	int t, err;

	while(!quit){
		if((t = target) == 0 || done)
			continue;
		snprintf(msg, sizeof msg, "pid %d", t);
		if(ctln(msg, strlen(msg), &err) > 0){
			target = 0;
			done = 1;
		}
	}
	exit(0);
}

/* The ticks kpproc has for pid, user and kernel together; -1 if it has no line for it. */
static long
pidticks(int pid)
{
	char *p, *l, *k, *u;
	long r = -1;

	if(readwhole("/dev/kpproc", big, sizeof big) < 0)
		fatal("read /dev/kpproc");
	for(l = big; (p = strchr(l, '\n')) != NULL; l = p + 1){
		*p = '\0';
		if(atoi(l) != pid || (k = strrchr(l, ' ')) == NULL)
			continue;
		*k = '\0';
		if((u = strrchr(l, ' ')) != NULL)
			r = strtoul(u + 1, NULL, 10) + strtoul(k + 1, NULL, 10);
	}
	return r;
}

static void
forkpid(int rounds)
{
	int i, pid, kpid, next, lost = 0, st, go[2];
	char *mem, name[32];
	long t;

	/* Memory for fork to copy: the child is Embryo the longer. */
	if((mem = sbrk(Forkmem)) == (void*)-1)
		fatal("sbrk");
	memset(mem, 1, Forkmem);
	ctl("pid all");
	ctl("startclr");
	if((kpid = rfork(RFPROC|RFMEM)) == 0)
		scoper();
	if(kpid < 0)
		fatal("rfork");
	next = kpid + 1;
	for(i = 0; i < rounds; i++){
		done = 0;
		target = next;
		if(pipe(go) < 0)
			fatal("pipe");
		/*
		 * The child spins once the scope is set: until then it
		 * waits, and cannot exit.  32 M instructions, which under
		 * -d at 1000 Hz are 32 ticks' worth however many processors
		 * share the turns (kern/fns.h, thintick): a spin of 10 ticks
		 * of the clock beside busy processors was 3 to 5, and had
		 * none at all in some rounds as fortune drew.
		 */
		if((pid = fork()) == 0){
			close(go[1]);
			read(go[0], &st, 1);
			spinloop(8 * Spin);
			_exit(0);
		}
		close(go[0]);
		if(!forkednext(pid, &next))
			break;
		while(!done)
			sleep(1);
		close(go[1]);
		if(wait(&st) != pid)
			fatal("wait");
		if((t = pidticks(pid)) <= 0){
			if(lost++ < 3)
				printf("atk_kprof: forkpid: round %d: child %d scoped as it was forked, but %s\n",
					i, pid, t < 0 ? "has no ticks in kpproc" : "has 0 ticks");
		}
	}
	quit = 1;
	target = 0;
	if(wait(NULL) != kpid)
		failcall("wait for the scoper", -1);
	ctl("stop");
	ctl("pid all");
	snprintf(name, sizeof name, "forkpid-%d-rounds", rounds);
	if(lost != 0)
		fail(name, "%d of %d children scoped as fork made them were not counted", lost, rounds);
	else
		ok(name);
}

/* Is s a decimal number and a blank (or, for the last, the end)?  Past it in *e. */
static int
number(char *s, char **e, int last)
{
	char *p = s;

	while(*p >= '0' && *p <= '9')
		p++;
	if(p == s || *p != (last ? '\0' : ' '))
		return 0;
	*e = p + !last;
	return 1;
}

/* One line of kpproc: pid ppid name user kernel, or overflow n user kernel, last. */
static int
wellformed(char *l, int last)
{
	char *e, *k;
	int i;

	if(strncmp(l, "overflow ", 9) == 0){
		for(e = l + 9, i = 0; i < 3; i++)
			if(!number(e, &e, i == 2))
				return 0;
		return last;
	}
	if(!number(l, &e, 0) || !number(e, &e, 0))
		return 0;
	/* the name, up to the last two words */
	if((k = strrchr(e, ' ')) == NULL || k == e)
		return 0;
	for(k--; k > e && *k != ' '; k--)
		;
	return k > e && number(k + 1, &e, 0) && number(e, &e, 1);
}

static void
exits(int rounds)
{
	int i, pid, reader, bad = 0, nline = 0, over = 0;
	char *l, *p;

	ctl("pid all");
	ctl("startclr");
	if((reader = fork()) == 0){
		for(;;)
			if(readwhole("/dev/kpproc", big, sizeof big) < 0)
				_exit(1);
	}
	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0){
			spinloop(Spin / 4);
			_exit(0);
		}
		if(pid < 0 || wait(NULL) != pid){
			failcall("fork and wait", pid);
			break;
		}
	}
	kill(reader);
	wait(NULL);
	ctl("stop");
	if(readwhole("/dev/kpproc", big, sizeof big) < 0)
		fatal("read /dev/kpproc");
	for(l = big; *l != '\0'; l = p + 1){
		if((p = strchr(l, '\n')) == NULL){
			bad++;
			break;
		}
		*p = '\0';
		nline++;
		over += strncmp(l, "overflow ", 9) == 0;
		if(!wellformed(l, p[1] == '\0') && bad++ == 0)
			printf("atk_kprof: exits: bad line: %s\n", l);
	}
	if(bad != 0)
		fail("exits-lines", "%d bad lines of %d", bad, nline);
	else if(rounds > 300 && over != 1)
		fail("exits-overflow", "%d children exited, %d lines, and no overflow line", rounds, nline);
	else
		ok("exits-lines");
	ctl("pid all");
}

/* File path read at every offset in pieces of n bytes must be what one read gives. */
static void
pieces(const char *path, long n)
{
	char name[64];
	long len, off, r;
	int fd;

	snprintf(name, sizeof name, "offsets-%s-%ld", strrchr(path, '/') + 1, n);
	if((len = readwhole(path, big, sizeof big)) < 0)
		fatal(path);
	if((fd = open(path, O_RDONLY)) < 0)
		fatal(path);
	for(off = 0; off <= len + 3; off++){
		if(seek(fd, off, 0) != off)
			fatal("seek");
		r = read(fd, piece, n);
		if(r != (off >= len ? 0 : len - off < n ? len - off : n) || (r > 0 && memcmp(piece, big + off, r) != 0)){
			fail(name, "at %ld of %ld: read %ld bytes, or not the whole's", off, len, r);
			close(fd);
			return;
		}
	}
	close(fd);
	ok(name);
}

static void
offsets(void)
{
	int fd, i;
	long r;
	char *end;

	ctl("pid all");
	ctl("startclr");
	for(i = 0; i < 5; i++)
		if(fork() == 0){
			spinloop(Spin);
			_exit(0);
		}
	while(wait(NULL) > 0)
		;
	ctl("stop");
	pieces("/dev/kpproc", 1);
	pieces("/dev/kpproc", 7);
	pieces("/dev/kpproc", 64);
	pieces("/dev/kpctl", 1);
	pieces("/dev/kpctl", 7);
	if((fd = open("/dev/kpproc", O_RDONLY)) < 0)
		fatal("/dev/kpproc");
	if(seek(fd, 0x7fffffff, 0) != 0x7fffffff || (r = read(fd, piece, sizeof piece)) != 0)
		fail("offsets-far", "read at 2^31-1 did not give 0");
	else
		ok("offsets-far");
	seek(fd, 0, 0);
	end = sbrk(0);
	if((r = read(fd, end - 8, 64)) != -1 || errno != EFAULT)
		fail("offsets-past-the-end", "read into the end of the data returned %ld", r);
	else if((r = read(fd, (void*)0xC0000000, 64)) != -1 || errno != EFAULT)
		fail("offsets-kernel", "read into the kernel returned %ld", r);
	else if((r = read(fd, piece, 0)) != 0)
		fail("offsets-zero", "read of 0 bytes returned %ld", r);
	else if((r = read(fd, piece, -1)) > 0)
		fail("offsets-negative", "read of -1 bytes returned %ld", r);
	else
		ok("offsets-bad-buffers");
	close(fd);
	ctl("pid all");
}

static int
bystring(const void *a, const void *b)
{
	return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Sort the lines of the NUL-ended text s in place, by qsort on an array of them; how many. */
static int
sortlines(char *s, char **line, int max)
{
	int n = 0;
	char *p;

	for(; *s != '\0' && n < max; s = p + 1){
		if((p = strchr(s, '\n')) == NULL)
			break;
		*p = '\0';
		line[n++] = s;
	}
	qsort(line, n, sizeof line[0], bystring);
	return n;
}

static void
torn(int rounds)
{
	static char *was[512], *got[512];
	int i, nwas, ngot, go[2], spun[2], p, c2, fd;
	unsigned long t;
	long len, r;
	char c;

	ctl("pid all");
	ctl("startclr");
	if(pipe(go) < 0 || pipe(spun) < 0)
		fatal("pipe");
	if((p = fork()) == 0){
		/*
		 * Each child spins three ticks, so that kpproc has its line,
		 * and says so.  One the full table refused says so too: the
		 * parent waits for rounds of them.
		 */
		for(i = 0; i < rounds; i++)
			if((c2 = fork()) == 0){
				for(t = now(); now() - t < 3; )
					spinloop(Spin / 100);
				write(spun[1], "s", 1);
				_exit(0);
			}else if(c2 < 0)
				write(spun[1], "s", 1);
		read(go[0], &c, 1);
		for(i = 0; i < rounds; i++){
			wait(NULL);
			sleep(1);
		}
		_exit(0);
	}
	for(i = 0; i < rounds; i++)
		read(spun[0], &c, 1);
	ctl("stop");
	if((len = readwhole("/dev/kpproc", big, sizeof big)) < 0)
		fatal("read /dev/kpproc");
	write(go[1], "g", 1);
	if((fd = open("/dev/kpproc", O_RDONLY)) < 0)
		fatal("/dev/kpproc");
	for(len = 0; (r = read(fd, piece + len, 3)) > 0; len += r)
		if(len % 30 == 0)
			sleep(1);
	close(fd);
	piece[len] = '\0';
	while(wait(NULL) != p)
		;
	nwas = sortlines(big, was, sizeof was / sizeof was[0]);
	ngot = sortlines(piece, got, sizeof got / sizeof got[0]);
	for(i = 0; i < nwas && i < ngot && strcmp(was[i], got[i]) == 0; i++)
		;
	if(nwas < rounds / 4 || i < nwas || i < ngot)
		fail("torn", "%d lines read whole, %d in pieces, the same up to %d", nwas, ngot, i);
	else
		ok("torn");
	close(go[0]);
	close(go[1]);
	close(spun[0]);
	close(spun[1]);
	ctl("pid all");
}

/* The kernel heap's bytes in use, from sysstat. */
static long
heapinuse(void)
{
	char s[128], *p;

	if(readwhole("/dev/sysstat", s, sizeof s) < 0 || (p = strstr(s, " heap ")) == NULL)
		fatal("/dev/sysstat");
	return atoi(p + 6);
}

/* A holder of kpgmon: open it until an open fails, say whether for want of memory down w, wait for r to close. */
static void
holder(int r, int w)
{
	char c;

	while(open("/dev/kpgmon", O_RDONLY) >= 0)
		;
	c = errno == ENOMEM;
	write(w, &c, 1);
	read(r, &c, 1);
	_exit(0);
}

static void
gmon(void)
{
	int hold[2], said[2], nholder, pid, st, fd;
	long before, r, off;
	char c, *argv[] = { "echo", "atk_kprof: gmon: exec ok", NULL };

	before = heapinuse();
	ctl("arcs on");
	ctl("startclr");
	for(off = 0; off < 20; off++)
		if(fork() == 0)
			_exit(0);
	while(wait(NULL) > 0)
		;
	ctl("stop");
	/* kpgmon at odd offsets: the pieces are the file. */
	if((fd = open("/dev/kpgmon", O_RDONLY)) < 0)
		fatal("/dev/kpgmon");
	for(off = 0; (r = read(fd, piece, 7)) > 0; off += r)
		;
	if(r < 0 || off < 20)
		fail("gmon-pieces", "read %ld bytes in pieces of 7, then %ld", off, r);
	else if(seek(fd, 0x7ffffff0, 0) != 0x7ffffff0 || read(fd, piece, 64) != 0)
		fail("gmon-far", "a read past the end gave something");
	else
		ok("gmon-pieces");
	close(fd);
	if(pipe(hold) < 0 || pipe(said) < 0)
		fatal("pipe");
	for(nholder = 0; nholder < 40; nholder++){
		if((pid = fork()) < 0){
			printf("atk_kprof: gmon: fork: %s\n", strerror(errno));
			break;
		}
		if(pid == 0){
			close(hold[1]);
			holder(hold[0], said[1]);
		}
		if(read(said[0], &c, 1) != 1 || c){
			nholder++;
			break;
		}
	}
	printf("atk_kprof: gmon: %d holders, heap in use %ld bytes, %ld before\n", nholder, heapinuse(), before);
	/* What the reserve is for: processes, programs, pipes. */
	if((pid = fork()) == 0){
		exec("/bin/echo", argv);
		_exit(1);
	}
	if(pid < 0 || wait(&st) != pid || st != 0)
		fail("gmon-fork-exec", "fork %d, status %d", pid, st);
	else
		ok("gmon-fork-exec");
	close(hold[1]);
	while(wait(NULL) > 0)
		;
	close(hold[0]);
	close(said[0]);
	close(said[1]);
	ctl("arcs off");
	if(heapinuse() != before)
		fail("gmon-heap-back", "heap in use %ld after, %ld before", heapinuse(), before);
	else
		ok("gmon-heap-back");
}

/*
 * arcs: togglers write arcs on and off, startclr and read kpgmon, each
 * on its own processor if there are enough, while workers make system
 * calls, fork and exit, and kprof's NMI samples them all.
 */
static void
arcs(int rounds)
{
	char sum0[32], sum1[32], msg[64];
	int i, k, pid, fd, st, bad = 0;
	long r;

	if(readwhole("/dev/textsum", sum0, sizeof sum0) < 0)
		fatal("/dev/textsum");
	ctl("pid all");
	ctl("startclr");
	for(k = 0; k < 5; k++){
		if((pid = fork()) < 0)
			fatal("fork");
		if(pid > 0)
			continue;
		for(i = 0; i < rounds; i++){
			if(k >= 3){
				/* a worker: calls, a fork, a pipe */
				getpid();
				if((pid = fork()) == 0)
					_exit(0);
				wait(NULL);
				continue;
			}
			snprintf(msg, sizeof msg, "%s", (i + k) % 3 == 0 ? "arcs on" : (i + k) % 3 == 1 ? "arcs off" : "startclr");
			if(ctln(msg, strlen(msg), &st) != (long)strlen(msg))
				_exit(1);
			if(i % 4 == k && (fd = open("/dev/kpgmon", O_RDONLY)) >= 0){
				while((r = read(fd, piece, 1000 + k)) > 0)
					;
				close(fd);
				if(r < 0)
					_exit(2);
			}
		}
		_exit(0);
	}
	while((pid = wait(&st)) > 0)
		if(st != 0 && bad++ == 0)
			printf("atk_kprof: arcs: child %d: status %d\n", pid, st);
	ctl("arcs off");
	ctl("stop");
	if(readwhole("/dev/textsum", sum1, sizeof sum1) < 0)
		fatal("/dev/textsum");
	if(bad != 0)
		fail("arcs-togglers", "%d of 5 failed", bad);
	else
		ok("arcs-togglers");
	if(strcmp(sum0, sum1) != 0)
		fail("arcs-textsum", "text hash %s after arcs off, %s before", sum1, sum0);
	else
		ok("arcs-textsum");
}

/*
 * leave: a thread exits with its frame pointer in a heap page whose
 * page table is that page's alone, while the other thread, then the
 * image's last, takes the page away with sbrk, which frees the table
 * too; another process takes the freed page as soon as it can and
 * fills it with words that, read as page table entries, are user
 * pages beyond the kernel's memory; and a third reads a long kpproc
 * again and again, so that the exiting thread waits for procs, with
 * its page directory still naming the table, before it lets go of it.
 * kprof's NMI walks that directory meanwhile.
 */
static volatile int	leaving;

static void
leaver(unsigned bp)
{
	leaving = 1;
	asm volatile("mov %0, %%ebp\n"
		"push $0\n"
		"push $0\n"
		"mov %1, %%eax\n"
		"int %2\n"
		:: "r"(bp), "i"(SYS_exit), "i"(T_SYSCALL) : "memory");
	for(;;)
		;
}

/*
 * Count everything, from zero, and fill kpproc: 280 processes that
 * each spin and exit, past the 256 it keeps, so its overflow line too.
 */
static void
fillkpproc(void)
{
	int i;

	ctl("pid all");
	ctl("startclr");
	for(i = 0; i < 280; i++){
		if(fork() == 0){
			spinloop(Spin / 10);
			_exit(0);
		}
		wait(NULL);
	}
}

static void
leave(int rounds)
{
	enum { Pg = 4096, Table = 4*1024*1024 };
	unsigned *pg, *w;
	char *brk;
	int filler, reader, i, j, pid;
	volatile int k;

	fillkpproc();
	if((filler = fork()) == 0){
		for(;;){
			if((w = sbrk(Pg)) == (void*)-1)
				_exit(1);
			for(j = 0; j < Pg/4; j++)
				w[j] = 0x20000007;	/* present, user, at 512 MB */
			sbrk(-Pg);
		}
	}
	if((reader = fork()) == 0)
		for(;;)
			if(readwhole("/dev/kpproc", big, sizeof big) < 0)
				_exit(1);
	/* The page at a table's start: the table holds it alone. */
	brk = sbrk(0);
	if(sbrk(Table - (unsigned)brk % Table) == (void*)-1 || (pg = sbrk(Pg)) == (void*)-1)
		fatal("sbrk");
	for(i = 0; i < rounds; i++){
		leaving = 0;
		for(j = 0; j < Pg/4; j += 2){
			pg[j] = (unsigned)&pg[j + 2];
			pg[j + 1] = 0x1234;
		}
		if((pid = rfork(RFPROC|RFMEM)) == 0)
			leaver((unsigned)pg);
		if(pid < 0)
			fatal("rfork");
		for(j = 0; !leaving || j < 40; j += leaving){
			if(sbrk(-Pg) == (void*)-1)
				fatal("sbrk");
			for(k = 0; k < 3000; k++)
				;
			if(sbrk(Pg) != pg)
				fatal("sbrk");
		}
		if(wait(NULL) != pid)
			fatal("wait");
	}
	kill(filler);
	kill(reader);
	while(wait(NULL) > 0)
		;
	sbrk(-Pg - (Table - (unsigned)brk % Table));
	ctl("stop");
	ok("leave");
}

/*
 * A sleep of 100 ticks, three times, beside nreader processes that
 * each run hammer without pause: the longest, in ticks.
 */
static unsigned
sleepbeside(void (*hammer)(void), int nreader)
{
	unsigned t0, t1, worst = 0;
	int i, readers[8];

	for(i = 0; i < nreader && i < 8; i++)
		if((readers[i] = fork()) == 0)
			for(;;)
				hammer();
	now();
	for(i = 0; i < 3; i++){
		t0 = now();
		sleep(100*1000/hz);
		t1 = now();
		if(t1 - t0 > worst)
			worst = t1 - t0;
	}
	for(i = 0; i < nreader && i < 8; i++)
		if(readers[i] > 0){
			kill(readers[i]);
			wait(NULL);
		}
	return worst;
}

static void
readkpproc(void)
{
	if(readwhole("/dev/kpproc", big, sizeof big) < 0)
		_exit(1);
}

/* Read kpdata whole. */
static void
readkpdata(void)
{
	if(readwhole("/dev/kpdata", big, sizeof big) < 0)
		_exit(1);
}

/*
 * latency: readers of a full kpproc, one a processor, while this
 * process sleeps 100 ticks three times: a read holds procs, the
 * scheduler's lock, while it prints 300-odd lines, and the sleeper's
 * wakeup waits for it.  Then readers of kpdata, whose read sums each
 * processor's cells: on 8 processors at 10000 Hz one read took 7
 * ticks when it had no scheduling point.
 */
static void
latency(int nreader)
{
	unsigned worst, data;

	fillkpproc();
	ctl("stop");
	worst = sleepbeside(readkpproc, nreader);
	data = sleepbeside(readkpdata, nreader);
	printf("atk_kprof: latency: sleep 100 ticks took at most %u ticks beside %d readers of kpproc, %u beside readers of kpdata\n", worst, nreader, data);
	if(worst > 110 || data > 110)
		fail("latency", "sleep 100 ticks took %u and %u", worst, data);
	else
		ok("latency");
}

static char	*gmonbuf;	/* room for all of kpgmon: Gmonmax */
static int	gmonfd;		/* kpgmon, open for readgmon */

static void
opengmon(void)
{
	int fd;

	if((fd = open("/dev/kpgmon", O_RDONLY)) >= 0)
		close(fd);
}

/* Read kpgmon whole in one read. */
static void
readgmon(void)
{
	seek(gmonfd, 0, 0);
	read(gmonfd, gmonbuf, Gmonmax);
}

/*
 * gmonwait: processes that open kpgmon again and again, and then
 * that read it whole again and again, while this one sleeps 100 ticks
 * three times beside each.  An open makes the file whole: a histogram
 * record for every 65535 ticks of the busiest bin, each of every bin,
 * so with a bin of millions (a few minutes' ticks of an idle processor
 * at 10000 Hz; kpattack.sh has gdb put them there) it is megabytes,
 * and the open and the read take scheduling points.
 */
static void
gmonwait(int nopener)
{
	unsigned o, r;

	if((gmonbuf = sbrk(Gmonmax)) == (void*)-1)
		fatal("sbrk");
	o = sleepbeside(opengmon, nopener);
	/* Opened before the readers start: an open is longer than the sleeps. */
	if((gmonfd = open("/dev/kpgmon", O_RDONLY)) < 0)
		fatal("/dev/kpgmon");
	r = sleepbeside(readgmon, nopener);
	close(gmonfd);
	printf("atk_kprof: gmonwait: sleep 100 ticks took at most %u ticks beside %d openers of kpgmon, %u beside readers\n", o, nopener, r);
	if(o > 110 || r > 110)
		fail("gmonwait", "sleep 100 ticks took %u and %u", o, r);
	else
		ok("gmonwait");
}

/*
 * interval: two threads write `interval random' to kpctl, each with a
 * spin in user mode between, while kprof counts; gdb stops the first
 * processor in its NMI as it reprograms the 8254 (a byte of the count
 * written), lets the other thread's write run meanwhile, and sets
 * intervalstop.  Then, with nothing writing kpctl, kprof's clock must
 * tick at its rate: a count whose bytes went in out of step gives it
 * periods of tens of milliseconds.
 */
static volatile int	intervalstop;
static int	intervalmax;

static void
intervaler(int i)
{
	int fd = ctlfd(), n;

	(void)i;
	for(n = 0; n < intervalmax && !intervalstop; n++){
		/*
		 * Some 8 ticks at 10000 Hz: each write starts the clock's
		 * count again, and with the two writing every half tick no
		 * NMI came for gdb to stop at, as the boot's timing fell.
		 */
		spinloop(200000);
		if(!intervalstop && write(fd, "interval random", 15) != 15)
			fatal("interval random");
	}
	close(fd);
}

static unsigned
ticksnow(void)
{
	unsigned char b[4];
	int fd;

	if((fd = open("/dev/kpdata", O_RDONLY)) < 0 || read(fd, b, 4) != 4)
		fatal("/dev/kpdata");
	close(fd);
	return (unsigned)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

static void
interval(int rounds)
{
	unsigned t0, t1;

	intervalmax = rounds;
	ctl("startclr");
	ctl("interval random");
	thread(intervaler, 0);
	thread(intervaler, 1);
	if(waitn(2) != 0)
		fatal("intervaler");
	now();
	t0 = ticksnow();
	sleep(100);
	t1 = ticksnow();
	ctl("stop");
	/* 100 ms at hz, on every processor: idle ones count too */
	printf("atk_kprof: interval: %u ticks in 100 ms at %u hz\n", t1 - t0, hz);
	if(t1 - t0 < hz / 40)
		fail("interval", "%u ticks in 100 ms at %u hz", t1 - t0, hz);
	else
		ok("interval");
}

/*
 * kphold: processes, and threads of each, open kpproc and read a byte
 * of each open at offset 0, so that each open keeps its own text,
 * until an open or a read fails, with the kernel heap nearly full of a
 * file; meanwhile three processes that share one open read it at odd
 * offsets, seek it back to 0, and reap children that exit.  Each
 * holder must stop at an error, ENOMEM or EMFILE, and once the holders
 * are killed and the file removed the heap must be back.
 */
static int	kphold0;	/* read end of a pipe nothing writes: the holders' wait */

static void
kpholder(int w)
{
	char c;
	int fd, e = 0;

	for(;;){
		if((fd = open("/dev/kpproc", O_RDONLY)) < 0){
			e = errno;
			break;
		}
		if(read(fd, &c, 1) != 1){
			e = errno;
			break;
		}
	}
	c = e == ENOMEM ? 'm' : e == EMFILE ? 'f' : 'x';
	write(w, &c, 1);
	read(kphold0, &c, 1);
	/*
	 * A holder waits for its thread, whose opens are its own: kphold
	 * waits only for its children, and a thread still exiting on
	 * another processor would have the heap short when kphold looks.
	 */
	while(wait(NULL) > 0)
		;
	_exit(0);
}

static void
kpsharer(int fd, int k)
{
	char b[97];
	int i;
	long r;

	for(i = 0; ; i++){
		if(i % 7 == k)
			seek(fd, 0, 0);
		else if(i % 11 == k)
			seek(fd, 1 + i % 4000, 0);
		r = read(fd, b, 1 + (i * 13 + k) % 96);
		if(r < 0 && errno != ENOMEM)
			_exit(3);
		if(i % 5 == 0 && fork() == 0)
			_exit(0);
		if(i % 5 == 0)
			wait(NULL);
	}
}

static void
kphold(int nholder)
{
	int said[2], hold[2], pid[64], n, i, k, fd, ff, nfile, nm = 0, nf = 0, nx = 0;
	char name[32];
	long before;
	char c;

	fillkpproc();
	ctl("stop");
	before = heapinuse();
	/* Files of 64 KB fill the heap, but for 256 KB left for the holders. */
	memset(big, 'k', sizeof big);
	for(nfile = 0; ; nfile++){
		snprintf(name, sizeof name, "/tmp/kphold.%d", nfile);
		if((ff = create(name, O_RDWR, 0666)) < 0)
			fatal(name);
		k = write(ff, big, Big - 16);
		close(ff);
		if(k != Big - 16)
			break;
	}
	if(errno != ENOMEM && errno != ENOSPC)
		fatal("fill");
	for(i = nfile; i >= 0 && i > nfile - 5; i--){
		snprintf(name, sizeof name, "/tmp/kphold.%d", i);
		remove(name);
	}
	if(pipe(said) < 0 || pipe(hold) < 0)
		fatal("pipe");
	kphold0 = hold[0];
	if((fd = open("/dev/kpproc", O_RDONLY)) < 0)
		fatal("/dev/kpproc");
	n = 0;
	for(i = 0; i < 3; i++)
		if((pid[n] = fork()) == 0)
			kpsharer(fd, i);
		else if(pid[n] > 0)
			n++;
	close(fd);
	for(i = 0; i < nholder && n < 64; i++){
		if((pid[n] = fork()) == 0){
			close(hold[1]);
			if(i % 2 == 0 && (k = rfork(RFPROC|RFMEM)) <= 0){
				if(k < 0)
					write(said[1], "x", 1);
				kpholder(said[1]);
			}
			kpholder(said[1]);
		}
		if(pid[n] < 0)
			break;
		n++;
		if(read(said[0], &c, 1) != 1)
			fatal("read");
		if(i % 2 == 0 && read(said[0], &c, 1) != 1)
			fatal("read");
		nm += c == 'm';
		nf += c == 'f';
		nx += c == 'x';
	}
	printf("atk_kprof: kphold: %d holders, %d out of memory, %d out of descriptors, %d other; heap %ld, %ld before\n",
		i, nm, nf, nx, heapinuse(), before);
	for(i = 0; i < 3; i++)
		kill(pid[i]);
	close(hold[1]);
	while(wait(NULL) > 0)
		;
	for(i = 0; i <= nfile - 5; i++){
		snprintf(name, sizeof name, "/tmp/kphold.%d", i);
		remove(name);
	}
	close(said[0]);
	close(said[1]);
	close(hold[0]);
	if(nx != 0)
		fail("kphold-errors", "%d holders stopped on another error", nx);
	else if(nm == 0)
		fail("kphold-errors", "no holder ran out of memory");
	else
		ok("kphold-errors");
	if(heapinuse() != before)
		fail("kphold-heap-back", "heap in use %ld after, %ld before", heapinuse(), before);
	else
		ok("kphold-heap-back");
}

/*
 * gmonkill: with the call graph full, openers of kpgmon are killed at
 * every few ticks into their open, while two togglers write arcs on
 * and off, startclr, stop and start; each opener dies or ends, and the
 * text and heap are as they were.
 */
static void
gmonkill(int rounds)
{
	static const char *msg[] = { "arcs on", "arcs off", "startclr", "stop", "start", "arcs on" };
	char sum0[32], sum1[32];
	int i, k, pid, tog[2], st, bad = 0, fd;
	long before;

	if(readwhole("/dev/textsum", sum0, sizeof sum0) < 0)
		fatal("/dev/textsum");
	before = heapinuse();
	ctl("pid all");
	ctl("arcs on");
	ctl("startclr");
	for(k = 0; k < 2; k++)
		if((tog[k] = fork()) == 0)
			for(i = k;; i++){
				if(ctln(msg[i % 6], strlen(msg[i % 6]), &st) < 0)
					_exit(1);
				sleep(1 + i % 3);
			}
	for(i = 0; i < rounds; i++){
		if((pid = fork()) == 0){
			for(;;){
				if((fd = open("/dev/kpgmon", O_RDONLY)) < 0)
					_exit(errno == ENOMEM ? 0 : 2);
				while(read(fd, piece, sizeof piece) > 0)
					;
				close(fd);
			}
		}
		if(pid < 0)
			fatal("fork");
		if(i % 4 != 0)
			sleep(i % 5);
		kill(pid);
		if(wait(&st) != pid || (st != 255 && st != 0))
			bad++;
	}
	for(k = 0; k < 2; k++)
		kill(tog[k]);
	while(wait(NULL) > 0)
		;
	ctl("arcs off");
	ctl("stop");
	if(readwhole("/dev/textsum", sum1, sizeof sum1) < 0)
		fatal("/dev/textsum");
	if(bad != 0)
		fail("gmonkill-status", "%d of %d openers ended otherwise", bad, rounds);
	else
		ok("gmonkill-status");
	if(strcmp(sum0, sum1) != 0)
		fail("gmonkill-textsum", "text hash %s after, %s before", sum1, sum0);
	else
		ok("gmonkill-textsum");
	if(heapinuse() != before)
		fail("gmonkill-heap-back", "heap in use %ld after, %ld before", heapinuse(), before);
	else
		ok("gmonkill-heap-back");
}

int
main(int argc, char *argv[])
{
	static char usage[] = "atk_kprof ctl|forkpid|exits|offsets|torn|gmon|arcs|leave|latency|gmonwait|interval|kphold|gmonkill [rounds]";
	int rounds = argc > 2 ? argcount(argv[2], usage) : 20;

	if(argc < 2){
		fprintf(stderr, "usage: %s\n", usage);
		return 1;
	}
	if(strcmp(argv[1], "ctl") == 0)
		ctlcase();
	else if(strcmp(argv[1], "forkpid") == 0)
		forkpid(rounds);
	else if(strcmp(argv[1], "exits") == 0)
		exits(rounds);
	else if(strcmp(argv[1], "offsets") == 0)
		offsets();
	else if(strcmp(argv[1], "torn") == 0)
		torn(rounds);
	else if(strcmp(argv[1], "gmon") == 0)
		gmon();
	else if(strcmp(argv[1], "arcs") == 0)
		arcs(rounds);
	else if(strcmp(argv[1], "leave") == 0)
		leave(rounds);
	else if(strcmp(argv[1], "latency") == 0)
		latency(rounds);
	else if(strcmp(argv[1], "gmonwait") == 0)
		gmonwait(rounds);
	else if(strcmp(argv[1], "interval") == 0)
		interval(rounds);
	else if(strcmp(argv[1], "kphold") == 0)
		kphold(rounds);
	else if(strcmp(argv[1], "gmonkill") == 0)
		gmonkill(rounds);
	else{
		fprintf(stderr, "atk_kprof: %s: no such case\n", argv[1]);
		return 1;
	}
	printf("atk_kprof: %s: %s\n", argv[1], nfail ? "failed" : "ok");
	return nfail != 0;
}
