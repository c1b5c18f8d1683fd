/*
 * atk_edge TEST: attacks at the edges of what the kernel's calls take
 * (tools/test/edge.sh).  Each prints "atk_edge: TEST: ok", or a line
 * per broken promise and then "atk_edge: TEST: failed".
 *
 *	offsets	every file of /dev and #T read at offsets up to
 *		0x7FFFFFFF, and writes to devices that ignore the offset
 *		(null, the console, kpctl) made there: the offset stays
 *		one that seek(2) gives and takes; a write of nothing at
 *		4 MB takes no heap.
 *	deep	directories nested as deep as a path reaches, walked
 *		with "../" chains, bound, and removed.
 *	seg	this program run with a bss segment in the stack's 4 MB,
 *		each thread's own (exec(2)): it runs, forks, makes
 *		threads, and profil there is refused while they live.
 *	pipekill	writers of one pipe killed as they wait for room,
 *		and a reader killed under waiting writers.
 *	pidexit	kpctl's pid N written at children as they are made,
 *		exit and are waited for.
 *	name	this program run from a file whose name holds a newline,
 *		by paths ending in "/" and "/.": /dev/ps keeps a line a
 *		process, and the name is the file's, '?' for the newline.
 *	devbind	a file bound over #c's power and time, by their names
 *		in /dev and #c: #c/power and #c/time stay the device's.
 *	devmode	every file of every device opened to read, to write and
 *		both: it opens if and only if its permissions allow,
 *		else EACCES.
 *	fileunion	a file bound before or after a file, bare and with a
 *		bind there already: refused with ENOTDIR, and the file
 *		shows what it showed.
 *	rdtrunc	open and create with O_TRUNC but not to write: refused
 *		with EINVAL, the file whole, or not made.
 *	devdir	a directory bound onto the directory of #c, #t and #T,
 *		which no walk passes through: refused with EINVAL.
 *	rmbind	directories bound onto, then removed: their binds'
 *		heap comes back with them.
 *	pstorn	/dev/ps read in pieces of 3 bytes while another process
 *		forks and reaps children, lines coming and going: each
 *		read from its start to its end is one whole list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include "lib/check.h"

enum {
	PG	= 4096,
	USHARED	= 0xBFC00000,	/* the stack's 4 MB start here (kern/mem.h) */
	USTACK	= 0xBFFF0000,	/* and its 64 KB here */
};

#define USED(x)	((void)(x))

/*
 * deep: /tmp/deep/d/d/... as deep as a path reaches (255 bytes, its
 * NUL making PATHMAX), each made relative to the last.  From the
 * deepest, relative paths that climb ("..", "../f", "../" k times)
 * work, though dot and the path together pass PATHMAX, and only one
 * that does not ("f") is too long; a bind of its
 * parent onto /tmp/deep is walked through; then all are removed on
 * the way up.
 */
static void
deep(void)
{
	char path[256], wd[300];
	int depth, i, k, fd = -1;
	struct Dir d;

	if(mkdir("/tmp/deep") < 0 || chdir("/tmp/deep") < 0)
		fatal("/tmp/deep");
	for(depth = 0; mkdir("d") == 0; depth++)
		if(chdir("d") < 0)
			failcase("chdir into the dir made at depth %ld", depth, 0);
	if(errno != ENAMETOOLONG || depth != (256 - 1 - 9) / 2)
		failcase("mkdir at depth %ld: errno %ld", depth, errno);
	if(getwd(wd, sizeof wd) < 0 || strlen(wd) != 255)
		failcase("getwd: %ld bytes", strlen(wd), 0);
	if(getwd(wd, 255) != -1 || errno != ERANGE)
		failcase("getwd one short: errno %ld", errno, 0);
	if(chdir("..") < 0 || (fd = create("f", O_RDWR, 0664)) < 0 || write(fd, "abc", 3) != 3 || chdir("d") < 0)
		failcase("chdir .. and create from the deepest: errno %ld", errno, 0);
	close(fd);
	if(stat("../f", &d) < 0 || d.length != 3)
		failcase("stat ../f from the deepest: errno %ld", errno, 0);
	for(k = 0; k < 80; k++){
		for(i = 0; i < k; i++)
			memmove(path + 3*i, "../", 3);
		memmove(path + 3*k, "f", 2);
		if((stat(path, &d) == 0) != (k == 1) || (k != 1 && errno != (k == 0 ? ENAMETOOLONG : ENOENT)))
			failcase("stat of ../ %ld times then f: errno %ld", k, errno);
	}
	if(bind("..", "/tmp/deep", MREPL) < 0 || stat("/tmp/deep/f", &d) < 0 || d.length != 3)
		failcase("the deepest's parent bound onto /tmp/deep: errno %ld", errno, 0);
	if(unmount(NULL, "/tmp/deep") < 0 || stat("/tmp/deep/d", &d) < 0)
		failcase("unmount: errno %ld", errno, 0);
	if(remove("../f") < 0)
		failcase("remove ../f: errno %ld", errno, 0);
	for(i = depth - 1; i >= 0; i--)
		if(chdir("..") < 0 || remove("d") < 0){
			failcase("remove at depth %ld: errno %ld", i, errno);
			break;
		}
	if(chdir("/") < 0 || remove("/tmp/deep") < 0)
		failcase("remove /tmp/deep: errno %ld", errno, 0);
}

/* seek(fd, 0, SEEK_CUR) must give an offset seek takes: from 0 to 0x7FFFFFFF. */
static void
offsetok(char *what, int fd, long want)
{
	long r;

	if((r = seek(fd, 0, SEEK_CUR)) != want)
		printf("atk_edge: offsets: FAIL %s: offset %ld (errno %d), not %ld\n", what, r, errno, want), nfail++;
}

/* The kernel heap in use, from /dev/sysstat. */
static long
heapnow(void)
{
	char buf[128], *p;

	readwhole("/dev/sysstat", buf, sizeof buf);
	if((p = strstr(buf, "heap ")) == NULL)
		fatal("no heap in /dev/sysstat");
	return strtol(p + 5, NULL, 10);
}

/* offsets: files read at offsets up to 0x7FFFFFFF; writes there to devices that ignore it. */
static void
offsets(void)
{
	static char *files[] = { "/dev/time", "/dev/ps", "/dev/sysstat", "/dev/textsum",
		"/dev/proctime", "/dev/kpctl", "/dev/kpdata", "/dev/kpproc", "/dev/kpcpu", "/dev/kpstack",
		"/dev/kpgmon", "/dev/null", "/bin/echo" };
	static long offs[] = { 0x7FFFFFFF, 0x7FFFFFF0, 0x40000000, 0x10000000 };
	char buf[256];
	unsigned i, j;
	long r = 0, h;
	int fd;

	for(i = 0; i < sizeof files / sizeof files[0]; i++){
		if((fd = open(files[i], O_RDONLY)) < 0){
			failcase("open failed", 0, 0);
			continue;
		}
		for(j = 0; j < sizeof offs / sizeof offs[0]; j++)
			if(seek(fd, offs[j], SEEK_SET) != offs[j] || (r = read(fd, buf, sizeof buf)) != 0)
				printf("atk_edge: offsets: FAIL %s at %#lx: read %ld\n", files[i], offs[j], r), nfail++;
		close(fd);
	}
	/* null and kpctl ignore the offset: a write at 0x7FFFFFF0 moves it to the top, no further */
	if((fd = open("/dev/null", O_RDWR)) < 0)
		fatal("open /dev/null");
	seek(fd, 0x7FFFFFF0, SEEK_SET);
	if(write(fd, buf, 200) != 200)
		failcase("write to null failed", 0, 0);
	offsetok("null", fd, 0x7FFFFFFF);
	if(write(fd, buf, 1) != 1 || read(fd, buf, 10) != 0)
		failcase("null at 0x7FFFFFFF", 0, 0);
	offsetok("null again", fd, 0x7FFFFFFF);
	if(seek(fd, -10, SEEK_CUR) != 0x7FFFFFF5)
		failcase("null: seek -10 from the top", 0, 0);
	close(fd);
	if((fd = open("/dev/kpctl", O_RDWR)) < 0)
		fatal("open /dev/kpctl");
	seek(fd, 0x7FFFFFFD, SEEK_SET);
	if(write(fd, "stop\n", 5) != 5)
		failcase("kpctl stop failed", 0, 0);
	offsetok("kpctl", fd, 0x7FFFFFFF);
	if(read(fd, buf, sizeof buf) != 0)
		failcase("kpctl read at 0x7FFFFFFF", 0, 0);
	offsetok("kpctl read", fd, 0x7FFFFFFF);
	close(fd);
	if((fd = open("/dev/cons", O_WRONLY)) < 0)
		fatal("open /dev/cons");
	seek(fd, 0x7FFFFFFF, SEEK_SET);
	write(fd, "atk_edge: offsets: cons at 0x7FFFFFFF\n", 38);
	offsetok("cons", fd, 0x7FFFFFFF);
	close(fd);
	/* a file's offset is as it was: a write that would pass 4 MB fails and moves nothing */
	if((fd = create("/tmp/off", O_RDWR|O_TRUNC, 0664)) < 0)
		fatal("create /tmp/off");
	seek(fd, 0x7FFFFFFF, SEEK_SET);
	if(write(fd, "x", 1) != -1 || errno != EFBIG)
		failcase("file write at 0x7FFFFFFF", 0, 0);
	offsetok("file", fd, 0x7FFFFFFF);
	seek(fd, 4*1024*1024 - 1, SEEK_SET);
	if(write(fd, "x", 1) != 1 || write(fd, "x", 1) != -1 || errno != EFBIG)
		failcase("file write at 4 MB", 0, 0);
	offsetok("file at 4 MB", fd, 4*1024*1024);
	close(fd);
	/* nor does one with O_APPEND, which writes at the end */
	if((fd = open("/tmp/off", O_WRONLY|O_APPEND)) < 0)
		fatal("open /tmp/off");
	seek(fd, 1000, SEEK_SET);
	if(write(fd, "x", 1) != -1 || errno != EFBIG)
		failcase("append at 4 MB", 0, 0);
	offsetok("append at 4 MB", fd, 1000);
	close(fd);
	remove("/tmp/off");
	/* a write of nothing past the end neither fills the gap nor makes room for it */
	if((fd = create("/tmp/off", O_RDWR|O_TRUNC, 0664)) < 0)
		fatal("create /tmp/off");
	h = heapnow();
	seek(fd, 4*1024*1024 - 1, SEEK_SET);
	if(write(fd, "x", 0) != 0)
		failcase("write of 0 bytes at 4 MB - 1", 0, 0);
	if(heapnow() - h >= 1024*1024)
		failcase("write of 0 bytes took %ld bytes of heap", heapnow() - h, 0);
	if(seek(fd, 0, SEEK_END) != 0)
		failcase("write of 0 bytes made the file longer", 0, 0);
	close(fd);
	remove("/tmp/off");
}

typedef struct {
	unsigned type, offset, vaddr, paddr, filesz, memsz, flags, align;
} Phdr;

static char elf[512*1024];
static volatile int stop;
static unsigned char *segp;
static unsigned segn;

static void
segthread(int arg)
{
	unsigned i;

	while(!stop)
		for(i = 0; i < segn; i += PG)
			segp[i] = arg;
}

/*
 * The program again, with a bss segment of n bytes at va, in the
 * stack's 4 MB: zero, no heap (it would start above USHARED), profil
 * there taken alone and rfork refused under it; then threads, whose
 * stores there (above USHARED) are their own, as on the stack (exec(2)),
 * and profil there refused while they live; a fork copies it.  Its
 * exit status says which failed, 0 for none.
 */
static int
segchild(char *va, char *n)
{
	unsigned i;
	int st;

	segp = (unsigned char*)strtoul(va, 0, 0);
	segn = strtoul(n, 0, 0);
	for(i = 0; i < segn; i += PG)
		if(segp[i] != 0)
			return 2;
	for(i = 0; i < segn; i += PG)
		segp[i] = 1;
	if(sbrk(PG) != (void*)-1 || errno != ENOMEM)
		return 3;
	if(profil((unsigned short*)segp, segn < 8192 ? segn : 8192, 0x1000, 0x10000) < 0)
		return 4;
	if(rfork(RFPROC|RFMEM) != -1 || errno != EBUSY)
		return 5;
	profil(0, 0, 0, 0);
	for(i = 0; i < 3; i++)
		thread(segthread, i + 2);
	if(profil((unsigned short*)segp, segn < 8192 ? segn : 8192, 0x1000, 0x10000) != -1 || errno != EINVAL)
		return 6;
	if(fork() == 0)
		_exit(segp[segn - PG] != 1);
	wait(&st);
	sleep(5);
	stop = 1;
	if(st != 0 || waitn(3) != 0)
		return 7;
	for(i = 0; i < segn; i += PG)
		if((uintptr_t)segp + i >= USHARED && segp[i] != 1)
			return 8;
	return 0;
}

/* seg: the program with a segment in the stack's 4 MB, at each place it can go. */
static void
seg(void)
{
	static struct { char *name; unsigned vaddr, memsz; } v[] = {
		{ "at-USHARED", USHARED, PG },
		{ "across-USHARED", USHARED - PG, 2*PG },
		{ "all-of-the-top", USHARED, USTACK - USHARED },
		{ "under-the-stack", USTACK - PG, PG },
	};
	char va[16], n[16], *av[] = { "atk_edge", "segchild", va, n, NULL };
	unsigned i, phoff, off1;
	unsigned short phnum;
	long len = 0;
	int fd, st;

	if((fd = open("/bin/atk_edge", O_RDONLY)) < 0 || (len = read(fd, elf, sizeof elf)) <= 0)
		fatal("read /bin/atk_edge");
	close(fd);
	memmove(&phnum, elf + 44, 2);
	memmove(&phoff, elf + 28, 4);
	memmove(&off1, elf + phoff + 4, 4);
	if(phoff + 32*(phnum + 1) > off1)
		fatal("no room for a program header");
	phnum++;
	memmove(elf + 44, &phnum, 2);
	for(i = 0; i < sizeof v / sizeof v[0]; i++){
		*(Phdr*)(elf + phoff + 32*(phnum - 1)) = (Phdr){ 1, 0, v[i].vaddr, 0, 0, v[i].memsz, 6, PG };
		if((fd = create("/tmp/seg", O_WRONLY|O_TRUNC, 0775)) < 0 || write(fd, elf, len) != len)
			fatal("write /tmp/seg");
		close(fd);
		snprintf(va, sizeof va, "%#x", v[i].vaddr);
		snprintf(n, sizeof n, "%#x", v[i].memsz);
		fflush(stdout);
		if(fork() == 0){
			exec("/tmp/seg", av);
			_exit(1);
		}
		wait(&st);
		if(st != 0)
			printf("atk_edge: seg: FAIL %s: status %d\n", v[i].name, st), nfail++;
		remove("/tmp/seg");
	}
}

/*
 * pipekill: eight writers of 10,000 bytes at a time on one pipe, killed
 * one by one as they wait for room while the reader takes a little:
 * each dies of the kill (255), and the reader reads to the end.  Then
 * a reader killed under four waiting writers: they die of EPIPE (255).
 */
static void
pipekill(void)
{
	static char blk[10000];
	int fd[2], pid[8], i, r, st, round;
	char buf[512];

	for(round = 0; round < 30; round++){
		if(pipe(fd) < 0)
			fatal("pipe");
		for(i = 0; i < 8; i++)
			if((pid[i] = fork()) == 0){
				close(fd[0]);
				for(;;)
					if(write(fd[1], blk, sizeof blk) < 0)
						_exit(7);
			}
		close(fd[1]);
		for(i = 0; i < 8; i++){
			read(fd[0], buf, round % 7 * 50 + 1);
			kill(pid[(i * 3 + round) % 8]);
		}
		while((r = read(fd[0], buf, sizeof buf)) > 0)
			;
		if(r < 0)
			failcase("read after the writers died: errno %ld", errno, 0);
		for(i = 0; i < 8; i++)
			if(wait(&st) < 0 || st != 255)
				failcase("writer: status %ld", st, 0);
		close(fd[0]);
	}
	for(round = 0; round < 20; round++){
		if(pipe(fd) < 0)
			fatal("pipe");
		for(i = 0; i < 5; i++)
			if((pid[i] = fork()) == 0){
				if(i == 4)
					for(;;)
						read(fd[0], buf, 1);
				close(fd[0]);
				for(;;)
					write(fd[1], blk, sizeof blk);
			}
		close(fd[0]);
		close(fd[1]);
		sleep(round % 3);
		kill(pid[4]);
		for(i = 0; i < 5; i++)
			if(wait(&st) < 0 || st != 255)
				failcase("reader killed: status %ld", st, 0);
	}
}

/*
 * pidexit: a thread writes kpctl's pid N for the next pids, and for
 * each child as soon as fork returns it, while the children exit (some
 * forking a grandchild that init reaps) and are waited for: each write
 * is taken or fails with ESRCH, each child exits 3.
 */
static volatile int target;

static void
scoper(int arg)
{
	char msg[32];
	int fd, n, last = 0;

	USED(arg);
	if((fd = open("/dev/kpctl", O_WRONLY)) < 0)
		fatal("open /dev/kpctl");
	while(!stop){
		if(target == last)
			continue;
		last = target;
		for(n = 0; n < 3; n++){
			snprintf(msg, sizeof msg, "pid %d", last + n);
			if(write(fd, msg, strlen(msg)) < 0 && errno != ESRCH)
				failcase("pid: errno %ld", errno, 0);
		}
	}
	close(fd);
}

static void
pidexit(void)
{
	char buf[256];
	int fd, i, pid, st;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0 || write(fd, "startclr", 8) != 8)
		fatal("kpctl startclr");
	thread(scoper, 0);
	for(i = 0; i < 400; i++){
		target = getpid() + 1 + i % 3;
		if((pid = fork()) == 0){
			if(i % 2 == 0 && fork() == 0)
				_exit(4);
			_exit(3);
		}
		target = pid;
		if(wait(&st) != pid || st != 3)
			failcase("child: status %ld in round %ld", st, i);
	}
	stop = 1;
	if(waitn(1) != 0)
		failcase("the thread failed", 0, 0);
	if(write(fd, "stop", 4) != 4 || write(fd, "pid all", 7) != 7)
		failcase("kpctl stop: errno %ld", errno, 0);
	close(fd);
	if(readwhole("/dev/kpctl", buf, sizeof buf) < 0 || strstr(buf, "off ") != buf || strstr(buf, " pid all ") == NULL)
		failcase("kpctl status", 0, 0);
}

/*
 * name: this program, copied to a name with a newline and blanks in
 * it, run by that path and by it with a slash after: its name (in
 * /dev/ps, kpproc and the line of its death) is the path's last
 * element, a control character in it shown as '?', so that /dev/ps
 * keeps a line a process.  Each run checks /dev/ps, then faults.
 */
#define EVIL	"/tmp/evil\nname 1 2"

static int
namechild(void)
{
	char buf[8192], *p, *e;
	long n;

	if((n = readwhole("/dev/ps", buf, sizeof buf)) <= 0)
		return 2;
	for(p = strchr(buf, '\n') + 1; p < buf + n; p = e + 1){
		if((e = strchr(p, '\n')) == NULL)
			return 3;
		while(*p == ' ')
			p++;
		if(*p < '0' || *p > '9')
			return 4;	/* a line that is not a process's: a name broke one */
	}
	if(strstr(buf, " evil?name 1 2\n") == NULL)
		return 5;
	*(volatile int*)0 = 0;
	return 6;
}

static void
name(void)
{
	static char *paths[] = { EVIL, EVIL "/", EVIL "/." };
	char *av[] = { "atk_edge", "namechild", NULL };
	long len = 0;
	unsigned i;
	int fd, st;

	if((fd = open("/bin/atk_edge", O_RDONLY)) < 0 || (len = read(fd, elf, sizeof elf)) <= 0)
		fatal("read /bin/atk_edge");
	close(fd);
	if((fd = create(EVIL, O_WRONLY, 0775)) < 0 || write(fd, elf, len) != len)
		fatal("create " EVIL);
	close(fd);
	for(i = 0; i < sizeof paths / sizeof paths[0]; i++){
		fflush(stdout);
		if(fork() == 0){
			exec(paths[i], av);
			_exit(1);
		}
		wait(&st);
		if(st != 255)
			printf("atk_edge: name: FAIL run %d: status %d\n", i, st), nfail++;
	}
	remove(EVIL);
}

/*
 * devbind: files bound over a device's files, by their names in /dev
 * and by the device's own: a path that starts with #x names the device
 * itself, which no bind hides (poweroff's "#c/power"), while the name
 * in /dev shows the bind.
 */
static void
devbind(void)
{
	static char *olds[] = { "/dev/power", "#c/power", "/dev/time", "#c/time" };
	char buf[64];
	unsigned i;
	int fd;

	for(i = 0; i < sizeof olds / sizeof olds[0]; i++){
		if((fd = open("/tmp/devbind", O_WRONLY|O_TRUNC|O_CREAT)) < 0 || write(fd, "bound\n", 6) != 6)
			fatal("write /tmp/devbind");
		close(fd);
		if(bind("/tmp/devbind", olds[i], MREPL) < 0){
			printf("atk_edge: devbind: FAIL bind onto %s: errno %d\n", olds[i], errno), nfail++;
			continue;
		}
		/* the name in /dev shows the bind */
		if(readwhole(i < 2 ? "/dev/power" : "/dev/time", buf, sizeof buf) != 6 || strcmp(buf, "bound\n") != 0)
			printf("atk_edge: devbind: FAIL bound onto %s: /dev does not show it\n", olds[i]), nfail++;
		/* the device's own name reaches the device: time reads a tick, power takes no "x" */
		if(readwhole("#c/time", buf, sizeof buf) <= 0 || strcmp(buf, "bound\n") == 0)
			printf("atk_edge: devbind: FAIL bound onto %s: #c/time is not the device's\n", olds[i]), nfail++;
		if((fd = open("#c/power", O_WRONLY)) < 0 || write(fd, "x", 1) != -1 || errno != EINVAL)
			printf("atk_edge: devbind: FAIL bound onto %s: #c/power is not the device's\n", olds[i]), nfail++;
		close(fd);
		if(unmount(NULL, olds[i]) < 0)
			failcase("unmount: errno %ld", errno, 0);
	}
	if(remove("/tmp/devbind") < 0)
		failcase("remove /tmp/devbind: errno %ld", errno, 0);
}

/*
 * devmode: each file of #c, #t, #T, #| and (the test kernel's) #S
 * opens in each mode just when its mode (stat's) allows: /dev/time
 * opened to write and consctl to read were refused only by every read
 * or write after.
 */
static void
devmode(void)
{
	static char *devs[] = { "#c", "#t", "#T", "#|", "#S" };
	static int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	static unsigned want[] = { 0400, 0200, 0600 };
	struct Dir d;
	char path[64];
	unsigned i, m;
	int dfd, fd, files = 0;

	for(i = 0; i < sizeof devs / sizeof devs[0]; i++){
		if((dfd = open(devs[i], O_RDONLY)) < 0)
			continue;	/* #S is the test kernel's */
		while(read(dfd, &d, sizeof d) == sizeof d){
			if(d.mode & DMDIR)
				continue;
			snprintf(path, sizeof path, "%s/%s", devs[i], d.name);
			files++;
			for(m = 0; m < 3; m++){
				fd = open(path, modes[m]);
				if(fd >= 0)
					close(fd);
				if((d.mode & want[m]) == want[m] ? fd < 0 : fd >= 0 || errno != EACCES)
					printf("atk_edge: devmode: FAIL %s (mode %o) opened with mode %d: %d, errno %d\n",
						path, d.mode & 0777, modes[m], fd, errno), nfail++;
			}
		}
		close(dfd);
	}
	if(files < 15)
		failcase("%ld device files, not 15 or more", files, 0);
}

/* The first bytes of path, as a string; "" if it cannot be read. */
static char*
head(char *path)
{
	static char buf[16];

	if(readwhole(path, buf, sizeof buf) < 0)
		buf[0] = '\0';
	return buf;
}

/*
 * fileunion: a union is of directories.  Of files, a walk reaches
 * only the first, so a file bound after one was a bind that showed
 * nothing, and took a slot of the union and of the mount table.
 */
static void
fileunion(void)
{
	static char *files[] = { "/tmp/fu.a", "/tmp/fu.b", "/tmp/fu.c" };
	static int flags[] = { MBEFORE, MAFTER };
	unsigned i;
	int fd, r;

	for(i = 0; i < 3; i++)
		if((fd = create(files[i], O_WRONLY, 0664)) < 0 || write(fd, files[i] + 8, 1) != 1 || close(fd) < 0)
			fatal(files[i]);
	for(i = 0; i < 2; i++){
		if((r = bind("/tmp/fu.a", "/tmp/fu.b", flags[i])) != -1 || errno != ENOTDIR)
			failcase("bind -%c of a file onto a file: %ld", "ba"[i], r);
		if(strcmp(head("/tmp/fu.b"), "b") != 0)
			failcase("after bind -%c, /tmp/fu.b is not b", "ba"[i], 0);
		unmount(NULL, "/tmp/fu.b");
	}
	if(bind("/tmp/fu.a", "/tmp/fu.b", MREPL) < 0 || strcmp(head("/tmp/fu.b"), "a") != 0)
		failcase("bind of a file onto a file: errno %ld", errno, 0);
	for(i = 0; i < 2; i++){
		if((r = bind("/tmp/fu.c", "/tmp/fu.b", flags[i])) != -1 || errno != ENOTDIR)
			failcase("bind -%c of a file onto a bound file: %ld", "ba"[i], r);
		if(strcmp(head("/tmp/fu.b"), "a") != 0)
			failcase("after bind -%c onto the bind, /tmp/fu.b is not a", "ba"[i], 0);
	}
	if(unmount(NULL, "/tmp/fu.b") < 0 || strcmp(head("/tmp/fu.b"), "b") != 0)
		failcase("unmount of the file's bind: errno %ld", errno, 0);
	if(unmount(NULL, "/tmp/fu.b") != -1)
		failcase("a bind left on /tmp/fu.b", 0, 0);
	for(i = 0; i < 3; i++)
		if(remove(files[i]) < 0)
			failcase("remove: errno %ld", errno, 0);
}

/* The length of path, or -1 if it does not exist. */
static long
length(char *path)
{
	struct Dir d;

	return stat(path, &d) < 0 ? -1 : (long)d.length;
}

/*
 * rdtrunc: O_TRUNC empties a file, which a read-only open may not do;
 * it was taken, and the file kept whole: a success that did not do
 * what was asked.
 */
static void
rdtrunc(void)
{
	int fd;

	if((fd = create("/tmp/rdtrunc", O_WRONLY, 0664)) < 0 || write(fd, "abc", 3) != 3 || close(fd) < 0)
		fatal("/tmp/rdtrunc");
	if((fd = open("/tmp/rdtrunc", O_RDONLY|O_TRUNC)) != -1 || errno != EINVAL)
		failcase("open O_RDONLY|O_TRUNC: %ld, errno %ld", fd, errno);
	if((fd = open("/tmp/rdtrunc", O_RDONLY|O_TRUNC|O_CREAT)) != -1 || errno != EINVAL)
		failcase("open O_RDONLY|O_TRUNC|O_CREAT: %ld, errno %ld", fd, errno);
	if(length("/tmp/rdtrunc") != 3)
		failcase("after the opens /tmp/rdtrunc has %ld bytes, not 3", length("/tmp/rdtrunc"), 0);
	if((fd = open("/tmp/rdtrunc.new", O_RDONLY|O_TRUNC|O_CREAT)) != -1 || errno != EINVAL)
		failcase("open O_RDONLY|O_TRUNC|O_CREAT of a new file: %ld, errno %ld", fd, errno);
	if((fd = create("/tmp/rdtrunc.new", O_RDONLY|O_TRUNC, 0664)) != -1 || errno != EINVAL)
		failcase("create O_RDONLY|O_TRUNC: %ld, errno %ld", fd, errno);
	if(length("/tmp/rdtrunc.new") != -1){
		failcase("a refused open made /tmp/rdtrunc.new", 0, 0);
		remove("/tmp/rdtrunc.new");
	}
	if((fd = open("/tmp/rdtrunc", O_WRONLY|O_TRUNC)) < 0 || close(fd) < 0 || length("/tmp/rdtrunc") != 0)
		failcase("open O_WRONLY|O_TRUNC: %ld, %ld bytes after", fd, length("/tmp/rdtrunc"));
	if(remove("/tmp/rdtrunc") < 0)
		failcase("remove: errno %ld", errno, 0);
}

/*
 * devdir: a device's directory is reached only by its own "#x" path,
 * which walks past every bind, and by binds of it, whose directories a
 * walk goes on in without looking for binds on them again: a bind onto
 * it was a success that nothing could see, and held a slot of the
 * mount table until undone.
 */
static void
devdir(void)
{
	static char *devs[] = { "#c", "#t", "#T", "#c/", "#T/." };
	static int flags[] = { MREPL, MBEFORE, MAFTER };
	unsigned i, j;
	int r;

	for(i = 0; i < sizeof devs / sizeof devs[0]; i++)
		for(j = 0; j < 3; j++)
			if((r = bind("/tmp", devs[i], flags[j])) != -1 || errno != EINVAL){
				failcase("bind onto a device's directory: %ld, errno %ld", r, errno);
				printf("atk_edge: devdir: (bind /tmp onto %s, flag %d)\n", devs[i], flags[j]);
				unmount(NULL, devs[i]);
			}
	/* the root file system's own directory, "#/", is "/", which every walk starts at */
	if(mkdir("/tmp/devdir") < 0 || create("/tmp/devdir/seen", O_RDONLY, 0664) < 0)
		fatal("/tmp/devdir/seen");
	if(bind("/tmp/devdir", "#/", MAFTER) < 0 || length("/seen") != 0)
		failcase("bind -a onto #/: /seen not there, errno %ld", errno, 0);
	if(unmount(NULL, "#/") < 0 || remove("/tmp/devdir/seen") < 0 || remove("/tmp/devdir") < 0)
		failcase("unmount of #/: errno %ld", errno, 0);
}

/*
 * rmbind: a bind onto a directory that is then removed (by its "#/"
 * name, which no bind hides) can never be reached; it stayed in the
 * mount table, its heap with it, until a later bind wanted a slot, so
 * that the heap was not back once its maker had gone.
 */
static void
rmbind(void)
{
	char path[32];
	long h = heapnow();
	int i;

	for(i = 0; i < 8; i++){
		snprintf(path, sizeof path, "/tmp/rmbind%d", i);
		if(mkdir(path) < 0 || bind(i % 2 ? "/tmp" : "#c", path, i % 3) < 0)
			fatal(path);
		snprintf(path, sizeof path, "#//tmp/rmbind%d", i);
		if(remove(path) < 0)
			failcase("remove %ld: errno %ld", i, errno);
	}
	if(heapnow() != h)
		failcase("heap %ld after, not %ld", heapnow(), h);
}

/* Is l (NUL for its newline) a line of /dev/ps, as the kernel prints one? */
static int
psok(char *l)
{
	static char *states[] = { "unused", "embryo", "sleep", "ready", "run", "zombie" };
	char *f[7], line[128], again[128], *s;
	unsigned i;
	int n = 0;

	if(strlen(l) >= sizeof line)
		return 0;
	strcpy(line, l);
	for(s = line; *s != '\0' && n < 7; ){
		while(*s == ' ')
			s++;
		if(*s == '\0')
			break;
		f[n++] = s;
		while(*s != '\0' && *s != ' ')
			s++;
		if(*s != '\0')
			*s++ = '\0';
	}
	if(n != 6)
		return 0;
	for(i = 0; i < sizeof states / sizeof states[0] && strcmp(states[i], f[2]) != 0; i++)
		;
	if(i == sizeof states / sizeof states[0])
		return 0;
	snprintf(again, sizeof again, "%5d %5d %-7s %7dK %8d %s", atoi(f[0]), atoi(f[1]), f[2], atoi(f[3]), atoi(f[4]), f[5]);
	return strcmp(again, l) == 0;
}

/*
 * pstorn: /dev/ps was made anew at each read, so that a reader in
 * pieces (ps(1) reads 4 KB at a time, and a full table of long names
 * is more) got pieces of different lists when a process changed state,
 * came or went between two reads: lines torn in two ("sledy"), or one
 * twice.  Sleepers hold every other slot of a run of the process
 * table, and a child forks and reaps children into the holes, a tick
 * each, lines coming and going in the middle of the list: read in
 * pieces of 3 bytes, each list must be a header and whole lines, each
 * pid once.
 */
static void
pstorn(void)
{
	static char buf[8192], hdr[64];
	char *l, *e;
	int p, fd, r, k, len, lines, bad1 = 0, seen[64], ns, j, sleeper[16];

	snprintf(hdr, sizeof hdr, "%5s %5s %-7s %8s %8s %s", "pid", "ppid", "state", "mem", "ticks", "name");
	for(k = 0; k < 16; k++)
		if((sleeper[k] = fork()) == 0)
			for(;;)
				sleep(1000);
	for(k = 0; k < 16; k += 2){
		kill(sleeper[k]);
		while(wait(NULL) != sleeper[k])
			;
	}
	if((p = fork()) == 0)
		for(;;){
			if(fork() == 0)
				_exit(0);
			sleep(1);	/* its line there a tick, then gone a tick */
			wait(NULL);
			sleep(1);
		}
	for(k = 0; k < 20; k++){
		if((fd = open("/dev/ps", O_RDONLY)) < 0)
			fatal("/dev/ps");
		for(len = 0; len < (int)sizeof buf - 3 && (r = read(fd, buf + len, 3)) > 0; len += r)
			if(len % 30 == 0)
				sleep(1);
		close(fd);
		buf[len] = '\0';
		lines = 0;
		ns = 0;
		for(l = buf; *l != '\0'; l = e + 1){
			if((e = strchr(l, '\n')) == NULL){
				bad1++;
				break;
			}
			*e = '\0';
			if(lines++ == 0){
				bad1 += strcmp(l, hdr) != 0;
				continue;
			}
			if(!psok(l)){
				if(bad1++ < 3)
					printf("atk_edge: pstorn: torn line \"%s\"\n", l);
				continue;
			}
			for(j = 0; j < ns && seen[j] != atoi(l); j++)
				;
			if(j < ns){
				if(bad1++ < 3)
					printf("atk_edge: pstorn: pid %d twice\n", atoi(l));
			}else if(ns < 64)
				seen[ns++] = atoi(l);
		}
	}
	kill(p);
	for(k = 1; k < 16; k += 2)
		kill(sleeper[k]);
	while(wait(NULL) >= 0)
		;
	if(bad1 > 0)
		failcase("%ld torn lines in 20 lists read in pieces", bad1, 0);
}

int
main(int argc, char **argv)
{
	if(argc == 4 && strcmp(argv[1], "segchild") == 0)
		return segchild(argv[2], argv[3]);
	if(argc == 2 && strcmp(argv[1], "namechild") == 0)
		return namechild();
	if(argc < 2)
		return 1;
	testcase = argv[1];
	if(strcmp(testcase, "deep") == 0)
		deep();
	else if(strcmp(testcase, "offsets") == 0)
		offsets();
	else if(strcmp(testcase, "seg") == 0)
		seg();
	else if(strcmp(testcase, "pipekill") == 0)
		pipekill();
	else if(strcmp(testcase, "pidexit") == 0)
		pidexit();
	else if(strcmp(testcase, "name") == 0)
		name();
	else if(strcmp(testcase, "devbind") == 0)
		devbind();
	else if(strcmp(testcase, "devmode") == 0)
		devmode();
	else if(strcmp(testcase, "fileunion") == 0)
		fileunion();
	else if(strcmp(testcase, "rdtrunc") == 0)
		rdtrunc();
	else if(strcmp(testcase, "devdir") == 0)
		devdir();
	else if(strcmp(testcase, "rmbind") == 0)
		rmbind();
	else if(strcmp(testcase, "pstorn") == 0)
		pstorn();
	else{
		fprintf(stderr, "usage: atk_edge offsets|deep|seg|pipekill|pidexit|name|devbind|devmode|fileunion|rdtrunc|devdir|rmbind|pstorn\n");
		return 1;
	}
	printf("atk_edge: %s: %s\n", testcase, nfail ? "failed" : "ok");
	return nfail != 0;
}
