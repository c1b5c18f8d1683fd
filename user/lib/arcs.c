/*
 * mcount's table of the arcs of a program's call graph, for gmon.c.
 *
 * gcc -pg puts a call of mcount (mcount.asm) in every function's
 * prologue, which passes _mcount the arc: the return address into the
 * caller and an address in the callee.  The arcs live in a table of
 * fixed size, GMON_NARCS, found through a hash of both addresses and a
 * chain of the arcs with that hash.  Threads (processes sharing this
 * memory) call mcount at once: finding an arc and counting a call on
 * it take no lock (an arc, once in a chain, never changes but for its
 * count, which goes up by compare-and-swap); adding an arc takes a
 * spin lock.  Calls along new arcs that find the table full are counted
 * as calls of mcountoverflow, which says so on stderr the first time.
 *
 * This file and the rest of the C library are built without -pg, so
 * mcount never calls itself.  It builds for the host too, where
 * tools/test/mcounttest.c runs it in several threads at once.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "gmon.h"

enum {
	HASHBITS	= 12,		/* bits of an arc's hash */
	NHASH		= 1<<HASHBITS,	/* hash chains: twice the arcs, so they are short */
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
	int	on;		/* _mcount counts calls */
	int	lock;		/* held to add an arc: guards n, lost and the chains' heads */
	Arc	*head[NHASH];	/* each chain's first arc */
	Arc	arc[GMON_NARCS];	/* arc[0] to arc[n-1] in use */
	uint32_t	n;		/* arcs in use */
	uint32_t	lost;		/* calls along arcs that found the table full */
} arcs;

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
 * A spin lock of this file's own (the C library has no lock for threads
 * yet), around the adding of arcs.  A waiting processor executes pause:
 * under QEMU's deterministic mode that lets it run the one holding the
 * lock.
 */
static void
lockarcs(void)
{
	while(__atomic_exchange_n(&arcs.lock, 1, __ATOMIC_ACQUIRE) != 0)
		while(__atomic_load_n(&arcs.lock, __ATOMIC_RELAXED) != 0)
			asm volatile("pause");
}

static void
unlockarcs(void)
{
	__atomic_store_n(&arcs.lock, 0, __ATOMIC_RELEASE);
}

/*
 * Add the arc, if another thread has not added it since we looked, or
 * count the call as lost if the table is full.  The new arc is filled
 * in before it is put at the head of its chain, with a release store:
 * a thread that finds it finds it whole.  Out of line, so that
 * _mcount's usual path has no registers to save for it.
 */
static __attribute__((noinline)) void
addarc(uint32_t h, uint32_t frompc, uint32_t selfpc)
{
	Arc *a;
	int first;

	first = 0;
	lockarcs();
	if((a = findarc(arcs.head[h], frompc, selfpc)) != NULL)
		bump(&a->count);
	else if(arcs.n == GMON_NARCS){
		first = arcs.lost == 0;
		bump(&arcs.lost);
	}else{
		a = &arcs.arc[arcs.n];
		a->from = frompc;
		a->self = selfpc;
		a->count = 1;
		a->next = arcs.head[h];
		__atomic_store_n(&arcs.head[h], a, __ATOMIC_RELEASE);
		__atomic_store_n(&arcs.n, arcs.n + 1, __ATOMIC_RELEASE);
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

	if(!__atomic_load_n(&arcs.on, __ATOMIC_RELAXED))
		return;
	h = hash(frompc, selfpc);
	a = findarc(__atomic_load_n(&arcs.head[h], __ATOMIC_ACQUIRE), frompc, selfpc);
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

/* Start (on 1) or stop (0) counting calls, keeping the counts. */
void
mcountctl(int on)
{
	__atomic_store_n(&arcs.on, on, __ATOMIC_RELEASE);
}

/* The arcs in the table: mcountarc(i, ...) for i below it gives each. */
uint32_t
mcountarcs(void)
{
	return __atomic_load_n(&arcs.n, __ATOMIC_ACQUIRE);
}

/* Arc i: its caller's return address, its callee, and the calls so far. */
void
mcountarc(uint32_t i, uint32_t *frompc, uint32_t *selfpc, uint32_t *count)
{
	*frompc = arcs.arc[i].from;
	*selfpc = arcs.arc[i].self;
	*count = __atomic_load_n(&arcs.arc[i].count, __ATOMIC_RELAXED);
}

/* The calls counted as mcountoverflow's. */
uint32_t
mcountlost(void)
{
	return __atomic_load_n(&arcs.lost, __ATOMIC_RELAXED);
}
