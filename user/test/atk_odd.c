/*
 * atk_odd TEST [ROUNDS]: directories read at odd offsets and lengths,
 * control files sent what they do not take, channels that forked
 * processes share used and closed at once, and binds that make cycles
 * while others walk and read through them (tools/test/edge.sh).  Each
 * prints "atk_odd: TEST: ok", or a line per broken promise and then
 * "atk_odd: TEST: failed"; the script checks that the kernel lives
 * on, its text unchanged and its pages and heap back.
 *
 *	dirs	every device's directory and the root's, read from
 *		offsets that are no multiple of a Dir (1, a Dir less 1,
 *		near 2^31) with lengths that are none either: each read
 *		gives whole Dirs, no more than asked, each name ended,
 *		and writes nothing past what it returns; a length under
 *		a Dir is EINVAL; a buffer whose last Dir runs into a page
 *		not there, EFAULT, with nothing written.
 *	ctl	every control file (kpctl, consctl, power, spinctl)
 *		sent messages it does not take (empty, blanks, unknown
 *		words, a known word with too many or too few, bad
 *		numbers, a NUL inside, 63 and 64 bytes, a buffer into a
 *		page not there): each refused, EINVAL with "bad control
 *		message" (or EFAULT), the kernel's state unchanged.
 *	fds	a pipe, a file, /dev/ps and kpproc open in a parent and
 *		shared by forked children that read, write, seek, dup,
 *		dup2 over each other and close them at once, some killed
 *		as they do: every byte written to the pipe read once.
 *	binds	threads bind a directory onto itself, "/" under /tmp (a
 *		cycle a walk can follow to the length of a path), and
 *		two directories each onto the other, make and undo
 *		unions, and remove and make again what is bound, while
 *		others walk the cycles and read the unions at odd
 *		offsets: every call ends; every bind left is then
 *		reached by its name and undone (clean), every file
 *		removed, and the mount table takes its binds again.
 *	execdev	exec of device files (the console and eia1 among them,
 *		which wait for input), a pipe, directories and kpgmon:
 *		each fails, or dies when killed.
 *	storm	children whose three threads turn profil on over one
 *		buffer and exec at once while the main thread moves the
 *		heap, each killed, threads too, at a moment that moves
 *		round: each dies or exits, and the kernel lives on.
 *	clean DIR	the cleaning alone: every bind onto DIR or under
 *		it undone, and all of it removed (after fuzz, say).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "lib/check.h"

enum {
	PG	= 4096,
	DIRSZ	= sizeof(struct Dir),
	Guard	= 0xA5,
	Nmount	= 32,		/* the mount table (kern/dat.h) */
};

/* A page of heap whose next page is not there: its address. */
static char *
edgepage(void)
{
	char *p = heapat(PG, PG);

	if(sbrk(0) != p + PG)
		fatal("sbrk");
	return p;
}

/* dirs: one read of fd at off, n bytes into buf; checked. */
static void
dirread1(const char *path, int fd, long off, long n, char *buf, long room)
{
	struct Dir *d;
	long r, i, at;

	memset(buf, Guard, room);
	if(seek(fd, off, SEEK_SET) != off){
		failcase("seek to %ld: %ld", off, errno);
		return;
	}
	r = read(fd, buf, n);
	if(n < DIRSZ){
		if(r != -1 || errno != EINVAL)
			failcase("read of %ld bytes, under a Dir: %ld", n, r);
		return;
	}
	if(r < 0 || r > n || r % DIRSZ != 0){
		printf("atk_odd: dirs: %s\n", path);
		failcase("read at %ld: %ld", off, r);
		return;
	}
	for(i = r; i < room; i++)
		if((unsigned char)buf[i] != Guard){
			printf("atk_odd: dirs: %s at %ld\n", path, off);
			failcase("read of %ld wrote byte %ld", r, i);
			break;
		}
	for(i = 0; i < r; i += DIRSZ){
		d = (struct Dir*)(buf + i);
		if(memchr(d->name, '\0', sizeof d->name) == NULL || d->name[0] == '\0')
			failcase("read at %ld: entry %ld with a bad name", off, i / DIRSZ);
	}
	at = seek(fd, 0, SEEK_CUR);
	if(at < 0 || (r > 0 && at != off + r) || (r == 0 && at != off))
		failcase("offset after a read of %ld: %ld", r, at);
}

static void
dirs(void)
{
	static const char *paths[] = { "/", "/dev", "/bin", "#c", "#t", "#T", "#S", "#/", "/tmp" };
	static const long offs[] = { 0, 1, DIRSZ - 1, DIRSZ + 1, 3*DIRSZ + 7, 0x7FFFFFF0, 0x7FFFFFFF };
	static const long lens[] = { 1, DIRSZ - 1, DIRSZ, DIRSZ + 1, 2*DIRSZ - 1, 3*DIRSZ + 5, 4096 + 3 };
	static char buf[8192];
	char *edge;
	unsigned i, j, k;
	long r;
	int fd;

	for(i = 0; i < sizeof paths / sizeof paths[0]; i++){
		if((fd = open(paths[i], O_RDONLY)) < 0){
			if(strcmp(paths[i], "#S") == 0 && errno == ENOENT)
				continue;	/* only in the test kernel */
			failcase("open of directory %ld: %ld", i, errno);
			continue;
		}
		for(j = 0; j < sizeof offs / sizeof offs[0]; j++)
			for(k = 0; k < sizeof lens / sizeof lens[0]; k++)
				dirread1(paths[i], fd, offs[j], lens[k], buf, sizeof buf);
		close(fd);
	}
	/* The last Dir into a page that is not there: EFAULT, nothing written. */
	edge = edgepage();
	if((fd = open("/bin", O_RDONLY)) < 0)
		fatal("open /bin");
	for(i = 1; i < 2*DIRSZ; i += 13){
		memset(edge, Guard, PG);
		seek(fd, 0, SEEK_SET);
		r = read(fd, edge + PG - 2*DIRSZ + i, 2*DIRSZ);
		if(r != -1 || errno != EFAULT)
			failcase("read into a page not there: %ld, errno %ld", r, errno);
		for(j = 0; j < PG; j++)
			if((unsigned char)edge[j] != Guard){
				failcase("a failed read wrote byte %ld (start %ld)", j, i);
				break;
			}
		if(seek(fd, 0, SEEK_CUR) != 0)
			failcase("a failed read moved the offset to %ld%ld", seek(fd, 0, SEEK_CUR), 0);
	}
	close(fd);
}

/* ctl: msg to path must be refused with EINVAL (or EFAULT), "bad control message". */
static void
refuse(const char *path, int fd, const char *msg, long n)
{
	char err[64];
	long r;

	errno = 0;
	r = write(fd, msg, n);
	if(r != -1 || errno != EINVAL){
		printf("atk_odd: ctl: %s took \"%.*s\" (%ld bytes)\n", path, (int)(n < 40 ? n : 40), msg, n);
		failcase("write: %ld, errno %ld", r, errno);
		return;
	}
	errstr(err, sizeof err);
	if(strstr(err, "bad") == NULL){
		printf("atk_odd: ctl: %s: \"%.*s\": %s\n", path, (int)(n < 40 ? n : 40), msg, err);
		failcase("an error that does not say the message is bad%ld%ld", 0, 0);
	}
}

static void
ctl(void)
{
	static const char *common[] = {
		"", " ", "\n", "\t \n", "bogus", "x y z", "a b c d e f g h i", "start stop",
		"stop now", "off 1 2 3", "rawon rawoff", "fg", "fg 1 2", "fg -1", "fg x",
		"fg 99999999999", "pid", "pid -1", "pid 1 2", "pid x", "pid 0x10",
		"interval", "interval bogus", "interval random fixed", "arcs", "arcs maybe",
		"stacks", "stacks 1", "a", "a -1", "a 4294967296", "a 1 2", "b x", "t",
		"off x", "off 256", "off -1", "off 1 2", "of", "offf", "on", "OFF",
		"START", "Start", "startclr x", "stopp",
	};
	static const char *files[] = { "#T/kpctl", "#c/consctl", "#c/power", "#S/spinctl" };
	char long63[64], long64[65], nul[16], *edge, before[512], after[512];
	unsigned i, j;
	int fd;

	if(readwhole("#T/kpctl", before, sizeof before) < 0)
		fatal("kpctl");
	memset(long63, ' ', sizeof long63);
	memcpy(long63, "stop", 4);
	memset(long64, ' ', sizeof long64);
	memcpy(long64, "stop", 4);
	edge = edgepage();
	for(i = 0; i < sizeof files / sizeof files[0]; i++){
		if((fd = open(files[i], O_WRONLY)) < 0){
			if(i == 3 && errno == ENOENT)
				continue;	/* #S: only in the test kernel */
			failcase("open of control file %ld: errno %ld", i, errno);
			continue;
		}
		for(j = 0; j < sizeof common / sizeof common[0]; j++){
			/* Those each file takes: kpctl's stop, pid and stacks off are no harm, but are not sent. */
			if(i == 2 && strcmp(common[j], "off") == 0)
				continue;
			refuse(files[i], fd, common[j], strlen(common[j]));
		}
		memcpy(nul, "stop\0start", 10);
		refuse(files[i], fd, nul, 10);
		memcpy(nul, "off\0", 4);
		refuse(files[i], fd, nul, 4);
		/* 64 bytes or more is refused whatever it says; 63 blanks after "stop" only by those that do not take stop. */
		refuse(files[i], fd, long64, 64);
		refuse(files[i], fd, long64, 65);
		if(i != 0)
			refuse(files[i], fd, long63, 63);
		/* A message that runs into a page not there: EFAULT, nothing done. */
		memcpy(edge + PG - 3, "off", 3);
		if(write(fd, edge + PG - 3, 4) != -1 || errno != EFAULT)
			failcase("write into a page not there: errno %ld%ld", errno, 0);
		if(write(fd, (char*)0xBFFFFFFF, 2) != -1 || errno != EFAULT)
			failcase("write across KZERO: errno %ld%ld", errno, 0);
		if(write(fd, "stop", -1) != -1 || errno != EINVAL)
			failcase("write of -1 bytes: errno %ld%ld", errno, 0);
		close(fd);
	}
	if(readwhole("#T/kpctl", after, sizeof after) < 0)
		fatal("kpctl");
	if(strcmp(before, after) != 0){
		printf("atk_odd: ctl: kpctl was: %safter: %s", before, after);
		failcase("refused messages changed kprof%ld%ld", 0, 0);
	}
	/* Files that take no messages refuse to open for writing. */
	static const char *rdonly[] = { "#T/kpdata", "#T/kpstack", "#c/time", "#c/ps", "#c/sysstat" };
	for(i = 0; i < sizeof rdonly / sizeof rdonly[0]; i++)
		if((fd = open(rdonly[i], O_WRONLY)) >= 0 || errno != EACCES){
			failcase("open of read-only file %ld to write: errno %ld", i, errno);
			if(fd >= 0)
				close(fd);
		}
	/* Odd modes: made by create, opened with O_CREAT, O_APPEND or O_TRUNC. */
	if((fd = create("#c/null", O_WRONLY, 0666)) >= 0 || errno != EEXIST)
		failcase("create of #c/null: %ld, errno %ld", fd, errno);
	if((fd = create("#c/new", O_WRONLY, 0666)) >= 0 || errno != EACCES)
		failcase("create in #c: %ld, errno %ld", fd, errno);
	if((fd = open("#|/new", O_WRONLY|O_CREAT)) >= 0 || errno != EACCES)
		failcase("open with O_CREAT in #|: %ld, errno %ld", fd, errno);
	if((fd = open("#T/kpnew", O_RDONLY|O_CREAT)) >= 0 || errno != EACCES)
		failcase("open with O_CREAT in #T: %ld, errno %ld", fd, errno);
	if((fd = open("#c/null", O_RDWR|O_APPEND|O_CREAT|O_TRUNC)) < 0)
		failcase("open of #c/null with every flag: errno %ld%ld", errno, 0);
	else{
		if(write(fd, "x", 1) != 1 || read(fd, nul, 1) != 0)
			failcase("#c/null with every flag: errno %ld%ld", errno, 0);
		close(fd);
	}
	if((fd = open("#T/kpctl", O_RDWR|O_APPEND)) < 0)
		failcase("open of kpctl with O_APPEND: errno %ld%ld", errno, 0);
	else{
		refuse("#T/kpctl", fd, "bogus", 5);
		close(fd);
	}
	if((fd = open("#T/kpctl", O_WRONLY|O_TRUNC)) < 0)
		failcase("open of kpctl with O_TRUNC: errno %ld%ld", errno, 0);
	else
		close(fd);
	if((fd = open("#|/data", O_RDONLY|O_TRUNC)) >= 0 || errno != EINVAL)
		failcase("open of a pipe O_RDONLY|O_TRUNC: %ld, errno %ld", fd, errno);
	if((fd = open("#|/data1", O_WRONLY|O_TRUNC)) >= 0 || errno != EACCES)
		failcase("open of a pipe with O_TRUNC: %ld, errno %ld", fd, errno);
	for(i = 4; i < 32; i++){
		if(i == 6 || i == 9 || i == 10)	/* O_CREAT, O_TRUNC, O_APPEND */
			continue;
		if((fd = open("#c/null", O_RDONLY | 1<<i)) >= 0 || errno != EINVAL)
			failcase("open with mode bit %ld: errno %ld", i, errno);
	}
}

/* fds: what the children share, and what each kind of child does. */
enum { Nwriter = 3, Nreader = 2, Nother = 4, Nbytes = 20000 };
static int pfd[2], ffd, psfd, kpfd, resfd[2];

/* A descriptor number of the child's own, above the shared ones: dup and dup2 it about. */
static int
shuffle(int fd, int base, unsigned *seed)
{
	struct Dir d;
	int nfd;

	*seed = *seed * 1103515245 + 12345;
	switch((*seed >> 16) % 4){
	case 0:
		if((nfd = dup(fd)) >= 0){
			close(fd);
			return nfd;
		}
		break;
	case 1:
		nfd = base + (*seed >> 20) % 6;	/* a free one, not another's */
		if(nfd != fd && fstat(nfd, &d) < 0 && dup2(fd, nfd) == nfd){
			close(fd);
			return nfd;
		}
		break;
	}
	return fd;
}

static void
writer(int i)
{
	char buf[100];
	unsigned seed = i * 7919 + 1;
	int fd = pfd[1], n, sent = 0;

	close(pfd[0]);
	memset(buf, 'w', sizeof buf);
	while(sent < Nbytes){
		fd = shuffle(fd, 10, &seed);
		n = 1 + (seed >> 8) % sizeof buf;
		if(n > Nbytes - sent)
			n = Nbytes - sent;
		if(write(fd, buf, n) != n)
			_exit(2);
		sent += n;
	}
	_exit(0);
}

static void
reader(int i)
{
	char buf[257];
	unsigned seed = i * 104729 + 3;
	int fd = pfd[0], r;
	long got = 0;

	close(pfd[1]);
	for(;;){
		fd = shuffle(fd, 10, &seed);
		if((r = read(fd, buf, 1 + (seed >> 8) % sizeof buf)) <= 0)
			break;
		got += r;
	}
	write(resfd[1], &got, sizeof got);
	_exit(r < 0);
}

/* The file, ps and kpproc: reads, writes and seeks on shared offsets, closes and dups. */
static void
other(int i)
{
	char buf[600];
	unsigned seed = i * 31 + 5;
	int fd[3] = { ffd, psfd, kpfd }, k, r, n;
	long off;

	close(pfd[0]);
	close(pfd[1]);
	for(r = 0; r < 4000; r++){
		seed = seed * 1103515245 + 12345;
		k = (seed >> 12) % 3;
		fd[k] = shuffle(fd[k], 10 + 6*k, &seed);
		n = 1 + (seed >> 4) % sizeof buf;
		switch((seed >> 9) % 4){
		case 0:
			if(read(fd[k], buf, n) < 0 || 0)
				_exit(3);
			break;
		case 1:
			off = seek(fd[k], (seed >> 3) % 3000, SEEK_SET);
			if(off < 0)
				_exit(4);
			break;
		case 2:
			if(k == 0 && write(fd[k], buf, n) != n)
				_exit(5);
			break;
		case 3:
			if(k > 0 && seek(fd[k], 0, SEEK_SET) != 0)
				_exit(6);
			break;
		}
	}
	_exit(0);
}

static void
fds(int rounds)
{
	int pid[Nwriter + Nreader + Nother], i, n, round, status, w;
	long got, total;

	for(round = 0; round < rounds; round++){
		if(pipe(pfd) < 0 || pipe(resfd) < 0)
			fatal("pipe");
		if((ffd = open("/tmp/atk_odd.f", O_RDWR|O_CREAT|O_TRUNC)) < 0
		|| (psfd = open("/dev/ps", O_RDONLY)) < 0 || (kpfd = open("#T/kpproc", O_RDONLY)) < 0)
			fatal("open");
		n = 0;
		for(i = 0; i < Nwriter; i++)
			if((pid[n++] = fork()) == 0)
				writer(i);
		for(i = 0; i < Nreader; i++)
			if((pid[n++] = fork()) == 0)
				reader(i);
		for(i = 0; i < Nother; i++)
			if((pid[n++] = fork()) == 0)
				other(i + round);
		close(pfd[0]);
		close(pfd[1]);
		close(resfd[1]);
		/* Kill one of the others as it goes, and close the parent's copies under them. */
		sleep(5 + round % 7);
		close(ffd);
		close(psfd);
		close(kpfd);
		kill(pid[Nwriter + Nreader + round % Nother]);
		for(i = 0; i < n; i++){
			if((w = wait(&status)) < 0)
				fatal("wait");
			if(status != 0 && !(w == pid[Nwriter + Nreader + round % Nother] && status == 255))
				failcase("a child exited %ld (pid %ld)", status, w);
		}
		for(total = 0; read(resfd[0], &got, sizeof got) == sizeof got; )
			total += got;
		close(resfd[0]);
		if(total != (long)Nwriter * Nbytes)
			failcase("the readers read %ld bytes of %ld", total, (long)Nwriter * Nbytes);
		remove("/tmp/atk_odd.f");
	}
}

/*
 * execdev: exec of what is no program: device files, a pipe, a
 * directory, kpgmon's copy.  Each fails, or waits for input (the
 * console, eia1) and dies when killed.
 */
static void
execdev(void)
{
	static char *paths[] = { "/dev/cons", "#t/eia1", "#t/eia0", "#T/kpgmon", "#T/kpdata", "/dev/ps",
		"#|/data", "#|/data1", "#|", "/dev/null", "#c", "/", "#c/consctl", "#c/time", "/dev/kpctl" };
	char *argv[] = { "x", NULL };
	int pid[sizeof paths / sizeof paths[0]], i, n = sizeof paths / sizeof paths[0], status, w;

	for(i = 0; i < n; i++)
		if((pid[i] = fork()) == 0){
			exec(paths[i], argv);
			_exit(errno == 0 ? 100 : errno);
		}
	sleep(300);
	for(i = 0; i < n; i++)
		kill(pid[i]);
	for(i = 0; i < n; i++){
		if((w = wait(&status)) < 0)
			fatal("wait");
		if(status == 0 || status == 100)
			failcase("an exec that ran: status %ld (pid %ld)", status, w);
	}
}

/*
 * storm: children whose three threads turn profil on over a shared
 * buffer and exec /bin/echo at once while the main thread moves the
 * heap, each child and its threads killed at a moment that moves
 * round: every child dies or exits, and the kernel lives on.
 */
static unsigned short *prbuf;

static void
stormthread(int i)
{
	static char *argv[] = { "echo", "-n", NULL };

	profil(prbuf, 4096, 0x1000, 0x8000 + i);
	spinloop(1000 + i * 3000);
	exec("/bin/echo", argv);
	_exit(1);
}

static void
storm(int rounds)
{
	int r, c, i, status, tp[2], pid;
	char *p;

	for(r = 0; r < rounds; r++){
		/* The child sends its threads' pids: the pids after its own may be others'. */
		if(pipe(tp) < 0)
			fatal("pipe");
		if((c = fork()) == 0){
			close(tp[0]);
			prbuf = (unsigned short*)heapat(PG, 2*PG);
			for(i = 0; i < 3; i++){
				pid = thread(stormthread, i);
				write(tp[1], &pid, sizeof pid);
			}
			close(tp[1]);
			for(i = 0; i < 200; i++){
				if((p = sbrk(PG)) != (char*)-1){
					p[0] = 1;
					sbrk(-PG);
				}
			}
			while(wait(NULL) >= 0)
				;
			_exit(0);
		}
		if(c < 0)
			fatal("fork");
		close(tp[1]);
		if(r % 2)
			spinloop(1 + (r * 7919) % 2000000);
		else
			sleep(r % 23);
		kill(c);
		while(read(tp[0], &pid, sizeof pid) == sizeof pid)
			kill(pid);
		close(tp[0]);
		if(wait(&status) != c || (status != 0 && status != 255))
			failcase("a child of the storm: status %ld (round %ld)", status, r);
	}
}

static void	clean(const char*);

/* binds: the threads go round until stop. */
static volatile int stop;
static volatile long nwalk, nbind;

static void
binder(int i)
{
	int fd;

	while(!stop){
		switch(i){
		case 0:	/* "/" under itself, and a directory onto itself */
			if(bind("/", "/tmp/atk_odd/r", MREPL) == 0)
				__atomic_add_fetch(&nbind, 1, __ATOMIC_SEQ_CST);
			bind("/tmp/atk_odd", "/tmp/atk_odd", MAFTER);
			unmount("/", "/tmp/atk_odd/r");
			unmount(NULL, "/tmp/atk_odd");
			break;
		case 1:	/* two directories each onto the other */
			bind("/tmp/atk_odd/a", "/tmp/atk_odd/b", MBEFORE);
			bind("/tmp/atk_odd/b", "/tmp/atk_odd/a", MAFTER);
			bind("/tmp/atk_odd/a", "/tmp/atk_odd/a/a1", MREPL);
			unmount(NULL, "/tmp/atk_odd/b");
			unmount(NULL, "/tmp/atk_odd/a");
			unmount(NULL, "/tmp/atk_odd/a/a1");
			break;
		case 2:	/* what is bound, removed and made again */
			if(remove("/tmp/atk_odd/a/a1") == 0)
				mkdir("/tmp/atk_odd/a/a1");
			if((fd = create("/tmp/atk_odd/b/f", O_WRONLY, 0664)) >= 0){
				write(fd, "f", 1);
				close(fd);
			}
			remove("/tmp/atk_odd/b/f");
			break;
		}
	}
}

static void
walker(int i)
{
	static const char *paths[] = {
		"/tmp/atk_odd/r/tmp/atk_odd/r/tmp/atk_odd/r/tmp/atk_odd/r/tmp/atk_odd/r/bin",
		"/tmp/atk_odd/a/a1/a1/a1/a1/a1",
		"/tmp/atk_odd/b",
		"/tmp/atk_odd/a",
		"/tmp/atk_odd",
		"/tmp/atk_odd/r/tmp",
	};
	char buf[3*DIRSZ + 11], deep[256];
	struct Dir d;
	unsigned k = i;
	int fd, j;

	strcpy(deep, "/tmp/atk_odd/r");
	while(strlen(deep) + 20 < sizeof deep)
		strcpy(deep + strlen(deep), "/tmp/atk_odd/r");
	while(!stop){
		k = k * 1103515245 + 12345;
		if((fd = open(paths[(k >> 8) % 6], O_RDONLY)) >= 0){
			for(j = 0; j < 8; j++){
				seek(fd, (k >> (j + 4)) % (4*DIRSZ), SEEK_SET);
				if(read(fd, buf, sizeof buf) < 0 && errno != ENOENT)
					failcase("read of a union: errno %ld%ld", errno, 0);
			}
			close(fd);
		}
		stat(deep, &d);
		chdir(paths[(k >> 12) % 6]);
		chdir("/");
		__atomic_add_fetch(&nwalk, 1, __ATOMIC_SEQ_CST);
	}
}

static void
binds(int ms)
{
	char path[64];
	struct Dir d;
	int i;

	mkdir("/tmp/atk_odd");
	mkdir("/tmp/atk_odd/r");
	mkdir("/tmp/atk_odd/a");
	mkdir("/tmp/atk_odd/a/a1");
	mkdir("/tmp/atk_odd/b");
	for(i = 0; i < 3; i++)
		thread(binder, i);
	for(i = 0; i < 3; i++)
		thread(walker, i);
	sleep(ms);
	stop = 1;
	waitn(6);
	/* A file made through a union may be left in either directory: clean finds it. */
	clean("/tmp/atk_odd");
	mkdir("/tmp/atk_odd");
	mkdir("/tmp/atk_odd/a");
	if(nwalk == 0 || nbind == 0)
		failcase("%ld walks, %ld binds", nwalk, nbind);
	/* The table takes its 32 binds again, less those the boot made. */
	for(i = 0; i < Nmount; i++){
		snprintf(path, sizeof path, "/tmp/atk_odd/m%d", i);
		if(mkdir(path) < 0 || bind("/tmp/atk_odd/a", path, MREPL) < 0)
			break;
	}
	if(i < Nmount/2)
		failcase("only %ld binds after the cycles (errno %ld)", i, errno);
	for(i = 0; i < Nmount; i++){
		snprintf(path, sizeof path, "/tmp/atk_odd/m%d", i);
		unmount(NULL, path);
		remove(path);
	}
	remove("/tmp/atk_odd/a");
	remove("/tmp/atk_odd");
	if(stat("#//tmp/atk_odd", &d) == 0)
		failcase("/tmp/atk_odd left after the cleaning%ld%ld", 0, 0);
}

/*
 * clean DIR: undo every bind onto DIR and what is under it, and remove
 * them all.  The tree is read through "#/", which passes every bind;
 * unmount walks the names, through binds, so it goes round until no
 * unmount succeeds.  What is left is printed.
 */
enum { Nclean = 256 };
static char *cleaned[Nclean];
static int ncleaned;

static void
tree(const char *path)
{
	char sub[256];
	struct Dir d[8];
	long r, i;
	int fd;

	if(ncleaned == Nclean || (cleaned[ncleaned] = malloc(strlen(path) + 1)) == NULL)
		return;
	strcpy(cleaned[ncleaned++], path);
	snprintf(sub, sizeof sub, "#/%s", path);
	if((fd = open(sub, O_RDONLY)) < 0)
		return;
	while((r = read(fd, d, sizeof d)) > 0)
		for(i = 0; i < r / DIRSZ; i++)
			if(d[i].mode & DMDIR){
				snprintf(sub, sizeof sub, "%s/%s", path, d[i].name);
				tree(sub);
			}else if(ncleaned < Nclean && (cleaned[ncleaned] = malloc(strlen(path) + NAMELEN + 1)) != NULL)
				snprintf(cleaned[ncleaned++], strlen(path) + NAMELEN + 1, "%s/%s", path, d[i].name);
	close(fd);
}

static void
clean(const char *dir)
{
	char p[256];
	int i, more, n = 0;

	tree(dir);
	do{
		more = 0;
		for(i = 0; i < ncleaned; i++)
			if(unmount(NULL, cleaned[i]) == 0)
				more = ++n;
	}while(more);
	/* What is left bound cannot be reached by its name, or cannot be undone. */
	for(i = 0; i < ncleaned; i++)
		if(unmount(NULL, cleaned[i]) == 0 || errno != EINVAL){
			printf("atk_odd: %s: unmount %s: %s\n", testcase, cleaned[i], strerror(errno));
			failcase("a bind left%ld%ld", 0, 0);
		}
	for(i = ncleaned - 1; i >= 0; i--){
		snprintf(p, sizeof p, "#/%s", cleaned[i]);
		if(remove(p) < 0){
			printf("atk_odd: %s: remove %s: %s\n", testcase, p, strerror(errno));
			failcase("a file left%ld%ld", 0, 0);
		}
		free(cleaned[i]);
	}
	if(strcmp(testcase, "clean") == 0)
		printf("atk_odd: clean: %d names, %d unmounts\n", ncleaned, n);
	ncleaned = 0;
}

int
main(int argc, char *argv[])
{
	int n = 0;

	static char usage[] = "atk_odd dirs|ctl|fds|binds|execdev|storm [rounds] | clean dir";

	if(argc < 2 || argc > 3){
		fprintf(stderr, "usage: %s\n", usage);
		return 1;
	}
	testcase = argv[1];
	if(argc == 3 && strcmp(testcase, "clean") != 0)
		n = argcount(argv[2], usage);
	if(strcmp(testcase, "dirs") == 0)
		dirs();
	else if(strcmp(testcase, "ctl") == 0)
		ctl();
	else if(strcmp(testcase, "fds") == 0)
		fds(n > 0 ? n : 10);
	else if(strcmp(testcase, "binds") == 0)
		binds(n > 0 ? n : 2000);
	else if(strcmp(testcase, "storm") == 0)
		storm(n > 0 ? n : 100);
	else if(strcmp(testcase, "execdev") == 0)
		execdev();
	else if(strcmp(testcase, "clean") == 0 && argc == 3){
		clean(argv[2]);
		return 0;
	}
	else{
		fprintf(stderr, "atk_odd: unknown test %s\n", testcase);
		return 1;
	}
	printf("atk_odd: %s: %s\n", testcase, nfail ? "failed" : "ok");
	return nfail != 0;
}
