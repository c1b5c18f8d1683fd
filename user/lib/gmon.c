/*
 * A program's profile of itself, for gprof and prof: where its time
 * went (a histogram of the pc) and, for a program built with -pg, who
 * called whom how often (the arcs of its call graph).
 *
 * monstartup has profil(2) count the pc into 16-bit counters, one for
 * each BINBYTES bytes of text: scale 0x8000, which makes the index
 * ((pc - lowpc) * 0x8000) >> 17 = (pc - lowpc) / 4.  The range is
 * rounded out to whole counters, so high_pc - low_pc is exactly
 * 4 * hist_size and gprof's bin, (pc - low_pc) * hist_size /
 * (high_pc - low_pc), is the same counter.
 *
 * gcc -pg puts a call of mcount (mcount.asm) in every function's
 * prologue, which passes _mcount the arc: the return address into the
 * caller and an address in the callee.  The arcs live in a table of
 * fixed size, GMON_NARCS, found through a hash of both addresses and a
 * chain of the arcs with that hash.  Threads (processes sharing this
 * memory) call mcount at once: finding an arc and counting a call on
 * it take no lock (an arc, once in a chain, never changes but for its
 * count, which goes up by compare-and-swap); adding an arc takes
 * arclock.  Calls along new arcs that find the table full are counted
 * as calls of mcountoverflow, which says so on stderr the first time.
 *
 * At exit _mcleanup writes the counters and the arcs to gmon.out in the
 * current directory (see gmon.h).  Profiled programs (/bin/NAME.prof)
 * start with gcrt0.asm, which calls monstartup(0x1000, etext) before
 * main and registers _mcleanup with atexit.  Only the process that
 * called monstartup writes gmon.out: a forked child that exits does not
 * overwrite it with its own copy, and a thread that exits leaves the
 * profiling on for the others.
 *
 * This file and the rest of the C library are built without -pg, so
 * mcount never calls itself.
 */
#include "stdint.h"
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "fcntl.h"
#include "unistd.h"
#include "gmon.h"
#include "clock.h"

enum {
	BINBYTES	= 4,		/* bytes of text per counter */
	SCALE		= 0x8000,	/* profil's scale for that: 0x20000 / BINBYTES */
	DEFHZ		= 100,		/* the rate if /dev/time can't be read */
	HASHBITS	= 12,		/* bits of an arc's hash */
	NHASH		= 1<<HASHBITS,	/* hash chains: twice the arcs, so they are short */
	ARCREC		= 1 + GMON_ARCSIZE,	/* bytes of an arc record, with its tag */
	NREC		= 64,		/* arc records written at a time */
};

typedef struct Arc Arc;

/* A caller-callee pair and its calls. */
struct Arc {
	uint32_t	from;		/* return address into the caller */
	uint32_t	self;		/* in the callee, after its call of mcount */
	uint32_t	count;		/* calls, stopping at GMON_MAXCOUNT */
	Arc	*next;		/* next arc of its hash chain */
};

static struct {
	uint16_t	*buf;		/* the counters; NULL if not profiling */
	uint32_t	lowpc;		/* first address counted, in buf[0] */
	uint32_t	highpc;		/* lowpc + BINBYTES * n */
	uint32_t	n;		/* counters in buf */
	int	pid;		/* the process that called monstartup */
	int	arcson;		/* mcount records arcs */
	int	arclock;	/* held to add an arc: guards narcs, lost and the chains' heads */
	Arc	*head[NHASH];	/* each chain's first arc */
	Arc	arc[GMON_NARCS];	/* arc[0] to arc[narcs-1] in use */
	uint32_t	narcs;		/* arcs in use */
	uint32_t	lost;		/* calls along arcs that found the table full */
} mon;

void
monstartup(uintptr_t lowpc, uintptr_t highpc)
{
	if(mon.buf != NULL || highpc <= lowpc)
		return;
	mon.lowpc = lowpc / BINBYTES * BINBYTES;
	mon.highpc = (highpc + BINBYTES - 1) / BINBYTES * BINBYTES;
	mon.n = (mon.highpc - mon.lowpc) / BINBYTES;
	mon.buf = calloc(mon.n, sizeof mon.buf[0]);
	if(mon.buf == NULL){
		fprintf(stderr, "monstartup: no memory for %u counters\n", (unsigned)mon.n);
		return;
	}
	mon.pid = getpid();
	moncontrol(1);
}

/* Turn the counting of ticks and calls on or off, keeping the counts. */
void
moncontrol(int on)
{
	if(mon.buf == NULL)
		return;
	if(on)
		profil(mon.buf, mon.n * sizeof mon.buf[0], mon.lowpc, SCALE);
	else
		profil(NULL, 0, 0, 0);
	__atomic_store_n(&mon.arcson, on, __ATOMIC_RELEASE);
}

/* Add one to *c, atomically, unless it has reached GMON_MAXCOUNT. */
static void
bump(uint32_t *c)
{
	uint32_t v;

	v = __atomic_load_n(c, __ATOMIC_RELAXED);
	while(v != GMON_MAXCOUNT
	&& !__atomic_compare_exchange_n(c, &v, v+1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static uint32_t
hash(uint32_t frompc, uint32_t selfpc)
{
	return (frompc ^ selfpc) * 2654435761u >> (32 - HASHBITS);
}

/* The arc from frompc to selfpc in the chain that starts at a, or NULL. */
static Arc*
findarc(Arc *a, uint32_t frompc, uint32_t selfpc)
{
	for(; a != NULL; a = a->next)
		if(a->from == frompc && a->self == selfpc)
			return a;
	return NULL;
}

/*
 * A spin lock of the C library's own, around the adding of arcs.  A
 * waiting processor executes pause: under QEMU's deterministic mode
 * that lets it run the one holding the lock.
 */
static void
lockarcs(void)
{
	while(__atomic_exchange_n(&mon.arclock, 1, __ATOMIC_ACQUIRE) != 0)
		while(__atomic_load_n(&mon.arclock, __ATOMIC_RELAXED) != 0)
			asm volatile("pause");
}

static void
unlockarcs(void)
{
	__atomic_store_n(&mon.arclock, 0, __ATOMIC_RELEASE);
}

/*
 * Add the arc, if another thread has not added it since we looked, or
 * count the call as lost if the table is full.  The new arc is filled
 * in before it is put at the head of its chain, with a release store:
 * a thread that finds it finds it whole.
 */
static __attribute__((noinline)) void
addarc(uint32_t h, uint32_t frompc, uint32_t selfpc)
{
	Arc *a;
	int first;

	first = 0;
	lockarcs();
	if((a = findarc(mon.head[h], frompc, selfpc)) != NULL)
		bump(&a->count);
	else if(mon.narcs == GMON_NARCS){
		first = mon.lost == 0;
		bump(&mon.lost);
	}else{
		a = &mon.arc[mon.narcs];
		a->from = frompc;
		a->self = selfpc;
		a->count = 1;
		a->next = mon.head[h];
		__atomic_store_n(&mon.head[h], a, __ATOMIC_RELEASE);
		__atomic_store_n(&mon.narcs, mon.narcs + 1, __ATOMIC_RELEASE);
	}
	unlockarcs();
	if(first)
		mcountoverflow();
}

/* Count a call from frompc (in the caller) to selfpc (in the callee): mcount's work. */
void
_mcount(uint32_t frompc, uint32_t selfpc)
{
	Arc *a;
	uint32_t h;

	if(!__atomic_load_n(&mon.arcson, __ATOMIC_RELAXED))
		return;
	h = hash(frompc, selfpc);
	a = findarc(__atomic_load_n(&mon.head[h], __ATOMIC_ACQUIRE), frompc, selfpc);
	if(a != NULL)
		bump(&a->count);
	else
		addarc(h, frompc, selfpc);
}

/*
 * Say that the table of arcs is full, once, when it is: from here on
 * calls along arcs not in it are counted as calls of this function,
 * which gmon.out records as an arc from it to itself.  Straight to file
 * descriptor 2, as the stream stderr is not for threads.
 */
__attribute__((noinline)) void
mcountoverflow(void)
{
	char msg[128];
	int n;

	n = snprintf(msg, sizeof msg, "mcount: arc table full (%d arcs): calls on new arcs count as mcountoverflow's\n", GMON_NARCS);
	write(2, msg, n);
}

/* Store v at p as 4 little-endian bytes. */
static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Put the arc record from frompc to selfpc, count calls, at p. */
static void
putarc(uint8_t *p, uint32_t frompc, uint32_t selfpc, uint32_t count)
{
	p[0] = GMON_TAG_CG_ARC;
	put32(p + 1, frompc);
	put32(p + 5, selfpc);
	put32(p + 9, count);
}

/*
 * Write the arc records to fd, NREC at a time, and the count of calls
 * lost to a full table last; 0, or -1 if a write failed.
 */
static int
writearcs(int fd)
{
	uint8_t rec[NREC * ARCREC];
	uint32_t i, narcs;
	Arc *a;
	int n;

	narcs = __atomic_load_n(&mon.narcs, __ATOMIC_ACQUIRE);
	n = 0;
	for(i = 0; i < narcs; i++){
		a = &mon.arc[i];
		putarc(rec + n*ARCREC, a->from, a->self, __atomic_load_n(&a->count, __ATOMIC_RELAXED));
		if(++n == NREC){
			if(write(fd, rec, sizeof rec) != sizeof rec)
				return -1;
			n = 0;
		}
	}
	if(mon.lost != 0)
		putarc(rec + n++*ARCREC, (uintptr_t)mcountoverflow, (uintptr_t)mcountoverflow, mon.lost);
	if(n > 0 && write(fd, rec, n*ARCREC) != n*ARCREC)
		return -1;
	return 0;
}

/*
 * Stop counting and write gmon.out: the header, the histogram record,
 * then the arcs.  The i386 is little-endian, so the counters go out as
 * they are in memory.
 */
void
_mcleanup(void)
{
	uint8_t hdr[GMON_HDRSIZE + 1 + GMON_HISTSIZE], *h;
	unsigned int hz;
	long len;
	int fd;

	if(mon.buf == NULL || getpid() != mon.pid)
		return;
	moncontrol(0);
	if(mon.lost != 0)
		fprintf(stderr, "gmon.out: %u calls on arcs that found the arc table full are counted as mcountoverflow's\n", (unsigned)mon.lost);
	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, "gmon", 4);
	put32(hdr + 4, GMON_VERSION);
	h = hdr + GMON_HDRSIZE;
	h[0] = GMON_TAG_TIME_HIST;
	put32(h + 1, mon.lowpc);
	put32(h + 5, mon.highpc);
	put32(h + 9, mon.n);
	clockticks(&hz);
	put32(h + 13, hz != 0 ? hz : DEFHZ);
	strcpy((char*)h + 17, "seconds");
	h[17 + GMON_DIMENLEN] = 's';

	fd = open("gmon.out", O_WRONLY|O_CREAT|O_TRUNC);
	if(fd < 0){
		perror("gmon.out");
		return;
	}
	len = mon.n * sizeof mon.buf[0];
	if(write(fd, hdr, sizeof hdr) != (long)sizeof hdr || write(fd, mon.buf, len) != len
	|| writearcs(fd) < 0)
		perror("gmon.out");
	close(fd);
}
