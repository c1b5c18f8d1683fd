/*
 * hotspots [-p FILE] [-s FILE] [-b] [-v] [-z MS] ROUNDS: a program whose time goes
 * to hot spots of unlike instructions, for holding its profiles
 * against an exact count of its instructions (tools/test/userexact.sh).
 * Each round calls, in turn:
 *
 *	loop	a tight loop of adds
 *	calls	a small function called again and again
 *	sys	getpid, a system call, again and again
 *	mem	sbrk up by 64 KB, a write to each page, and back down:
 *		the kernel maps and zeroes the pages (in the sbrk stub
 *		for profil and pcsample, which count a tick in the kernel
 *		where the process entered it)
 *	fpu	x87 divides and square roots
 *	rep	rep movsl of 16 KB
 *	beside	with -b, the same loop as loop, while a child process
 *		spins on another processor (told to by a pipe), so that
 *		the processors busy at once are not the same throughout
 *
 * With -p it counts itself with profil(2), a counter for each 2 bytes
 * of text, and writes the counters to FILE; with -s it records its
 * pcs with pcsample(2) and writes them to FILE, 4 bytes each; with
 * both, each tick goes to both (the same samples, each by its own way
 * to its buffer), for one run against one exact count.  Each is
 * turned on at the start of main and off before its file is written.
 * With -v each process says the ticks it ran
 * (#c/proctime), on the standard error.  With -z it sleeps MS ms before
 * each round, so that each round starts woken by the clock (profil(2),
 * BUGS: doc/benchmarks.md measures it).  Under -d the run is the same
 * every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pcsample.h>

enum {
	NSAMPLE	= 400000,	/* pcsample's slots at most */
	MEMSIZE	= 64*1024,	/* what mem adds and takes away */
	REPSIZE	= 16*1024,	/* what rep copies */
};

extern char etext[];
static volatile unsigned int sink;
static unsigned int repsrc[REPSIZE/4], repdst[REPSIZE/4];
static int tochild = -1;	/* the pipe that tells the child to spin */
static int verbose;	/* -v: say the ticks each process ran */

static void
usage(void)
{
	fprintf(stderr, "usage: hotspots [-p FILE] [-s FILE] [-b] [-v] [-z MS] ROUNDS\n");
	exit(1);
}

static __attribute__((noinline)) void
loop(int n)
{
	int i;

	for(i = 0; i < n; i++)
		sink += i;
}

static __attribute__((noinline)) int
leaf(int x)
{
	return x * 3 + 1;
}

static __attribute__((noinline)) void
calls(int n)
{
	int i, s = 0;

	for(i = 0; i < n; i++)
		s += leaf(i);
	sink += s;
}

static __attribute__((noinline)) void
sys(int n)
{
	int i;

	for(i = 0; i < n; i++)
		sink += getpid();
}

static __attribute__((noinline)) void
mem(int n)
{
	char *p;
	int i, j;

	for(i = 0; i < n; i++){
		if((p = sbrk(MEMSIZE)) == (void*)-1){
			perror("hotspots: sbrk");
			exit(1);
		}
		for(j = 0; j < MEMSIZE; j += 4096)
			p[j] = j;
		sbrk(-MEMSIZE);
	}
}

static __attribute__((noinline)) void
fpu(int n)
{
	double x = 2.0;
	int i;

	for(i = 0; i < n; i++)
		asm volatile("fldl %0\n\tfsqrt\n\tfld1\n\tfaddp\n\tfld1\n\tfdivp\n\tfstpl %0" : "+m"(x));
	sink += (int)(x * 1000);
}

static __attribute__((noinline)) void
rep(int n)
{
	int i, c;
	void *s, *d;

	for(i = 0; i < n; i++){
		s = repsrc;
		d = repdst;
		c = REPSIZE/4;
		asm volatile("rep movsl" : "+S"(s), "+D"(d), "+c"(c) : : "memory");
	}
}

static __attribute__((noinline)) void
beside(int n)
{
	int i;

	for(i = 0; i < n; i++)
		sink += i;
}

/* With -v, the ticks the process ran (#c/proctime), on the standard error. */
static void
ticks(char *who)
{
	char buf[64];
	int fd, n;

	if(!verbose || (fd = open("#c/proctime", O_RDONLY)) < 0)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if(n > 0){
		buf[n] = 0;
		fprintf(stderr, "hotspots: %s: %s", who, buf);
	}
}

/* The child: spin n rounds of its own each time the pipe says so. */
static __attribute__((noinline)) void
busy(int fd, int n)
{
	char c;
	int i;

	while(read(fd, &c, 1) == 1)
		for(i = 0; i < n; i++)
			sink += i;
	ticks("child");
	exit(0);
}

static void
writefile(char *name, void *buf, long n)
{
	int fd;

	if((fd = create(name, O_WRONLY, 0644)) < 0 || write(fd, buf, n) != n){
		perror(name);
		exit(1);
	}
	close(fd);
}

int
main(int argc, char *argv[])
{
	char *pfile = NULL, *sfile = NULL;
	unsigned short *counts = NULL;
	uintptr_t *samples = NULL;
	unsigned long ncount;
	long rounds, r, ns;
	int bside = 0, fd[2], pid, nap = 0;

	for(argc--, argv++; argc > 1 && argv[0][0] == '-'; argc--, argv++){
		if(strcmp(argv[0], "-p") == 0 && argc > 2){
			pfile = argv[1];
			argc--, argv++;
		}else if(strcmp(argv[0], "-s") == 0 && argc > 2){
			sfile = argv[1];
			argc--, argv++;
		}else if(strcmp(argv[0], "-b") == 0)
			bside = 1;
		else if(strcmp(argv[0], "-v") == 0)
			verbose = 1;
		else if(strcmp(argv[0], "-z") == 0 && argc > 2){
			if((nap = parsenum(argv[1])) < 0)
				usage();
			argc--, argv++;
		}
		else
			usage();
	}
	if(argc != 1 || (rounds = parsenum(argv[0])) <= 0)
		usage();
	if(bside){
		if(pipe(fd) < 0 || (pid = fork()) < 0){
			perror("hotspots: fork");
			return 1;
		}
		if(pid == 0){
			close(fd[1]);
			busy(fd[0], 200000);
		}
		close(fd[0]);
		tochild = fd[1];
	}
	ncount = (unsigned long)etext / 2 + 1;
	if(pfile != NULL){
		counts = calloc(ncount, sizeof counts[0]);
		if(counts == NULL || profil(counts, ncount * 2, 0, 0x10000) < 0){
			perror("hotspots: profil");
			return 1;
		}
	}
	if(sfile != NULL){
		samples = malloc(NSAMPLE * sizeof samples[0]);
		if(samples == NULL || pcsample(samples, NSAMPLE) < 0){
			perror("hotspots: pcsample");
			return 1;
		}
	}
	for(r = 0; r < rounds; r++){
		if(nap > 0)
			sleep(nap);
		loop(200000);
		calls(40000);
		sys(400);
		mem(2);
		fpu(30000);
		rep(12);
		if(tochild >= 0){
			write(tochild, "", 1);
			beside(200000);
		}
	}
	if(tochild >= 0){
		close(tochild);
		wait(NULL);
	}
	ticks("parent");
	if(pfile != NULL){
		profil(NULL, 0, 0, 0);
		writefile(pfile, counts, ncount * 2);
	}
	if(sfile != NULL){
		ns = pcsample(samples, 0);
		writefile(sfile, samples, ns * sizeof samples[0]);
	}
	return 0;
}
