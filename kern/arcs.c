/*
 * The kernel's call graph, counted exactly while asked for (kpctl's
 * arcs on), and free while not, as Linux's ftrace does it.  The kernel
 * is compiled with -pg -mfentry -mrecord-mcount -mnop-mcount (mkfile):
 * every function starts with a 5-byte nop, and the table __mcount_loc
 * (mcountloc to emcountloc, boot/kernel.ld) holds each nop's address.
 * arcs on patches every nop into a call of fentry, the recorder, and
 * arcs off patches the nops back, so that the text is then the same,
 * byte for byte, as o/kernel's.
 *
 * The recorder counts each arc, the pair of the caller's return
 * address and the callee, in a table of its processor's (Arcs), by
 * open addressing from a hash of the pair.  It takes no lock and each
 * of its writes is one instruction, so that it may be interrupted
 * anywhere, by the NMI or by the clock or another interrupt, whose
 * handlers may record arcs of their own in the same table: a slot is claimed
 * by a compare-and-swap of its caller, and a pair that finds its slot
 * half written goes on to the next, so a pair may hold two slots,
 * which the reader adds up.  Nothing else writes a processor's table:
 * the kernel is not preempted, so the recorder ends where it began.
 * What finds no slot within arcnprobe (Nprobe) of its hash is dropped,
 * and counted.
 * The recorder and what runs while text changes are NOPROF (kern/u.h):
 * they have no nop, so the recorder never calls itself.
 *
 * Text changes while the other processors wait (stopall), a rendezvous
 * by IPI: each is stopped in patchintr with interrupts off, where it
 * spins until the patching processor is done.  No processor
 * runs the text being changed, then, but through an NMI, whose path
 * (kprofnmi and what it calls) is NOPROF and never changes.  A
 * processor stopped so holds no ilock (the IPI came with interrupts
 * on), but may hold a lock taken with them on; the patcher holds none,
 * and neither it nor fn takes one, so none waits for a stopped one.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Arcbits	= 12,
	Narc	= 1<<Arcbits,	/* slots in a processor's table */
	Nprobe	= 16,		/* slots a pair may lie past the one its hash names */
	Nslack	= Narc/4,	/* room for arcs a reader finds beyond those counted (arcsmax) */
	Nop5len	= sizeof(ENTRYNOP) - 1,	/* bytes of an entry nop, and of the call that replaces it */
};

static uchar	nop5[Nop5len] = ENTRYNOP;

typedef struct Arc Arc;

/* A caller-callee pair and its calls.  Free while from is 0. */
struct Arc {
	volatile uint	from;	/* return address into the caller: the key, set first */
	volatile uint	self;	/* the callee's entry + Nop5len, as gprof's selfpc; 0 until set */
	uint	count;		/* calls, sticking at 2^32-1 */
};

/* One processor's table, written only by the recorder on that processor. */
struct Arcs {
	Arc	arc[Narc];
	uint	drop;		/* calls that found no slot */
};

extern uint	mcountloc[], emcountloc[];	/* boot/kernel.ld: the entry nops */
extern char	fentry[];

static Arcs	arctab[MAXMACH][2];	/* each processor's table (Mach.arcs) and a spare, for arcsclear */
static int	arcsok;		/* every entry of mcountloc held the nop at boot */
uint	arcnprobe = Nprobe;	/* slots the recorder tries, 1 to Nprobe (the test kernel's arcprobes=) */
int	arcson;			/* the entries call fentry */

_Static_assert(__builtin_offsetof(Mach, arcs) == 4, "fentry finds Mach.arcs at gs:4");
_Static_assert(sizeof(Arc) == 12, "fentry finds arc h at 4*(3*h)");
_Static_assert(Arcbits == 12, "fentry's hash shifts by 32 - Arcbits");

/*
 * The recorder, called first thing by every function while arcs are
 * on: at its entry, (%esp) is the return into the callee and 4(%esp)
 * the callee's return into its caller.  It keeps every register, as
 * the callee's arguments may be in eax, ecx and edx.  The usual case,
 * a pair already in the slot its hash names, is counted here, in 24
 * instructions with the call; the rest is arcslow's.
 */
asm(".text\n"
	".globl fentry\n"
	"fentry:\n"
	"	pushl %eax\n"
	"	pushl %ecx\n"
	"	pushl %edx\n"
	"	pushl %ebx\n"
	"	movl 16(%esp), %edx\n"		/* self */
	"	movl 20(%esp), %eax\n"		/* from */
	"	movl %gs:4, %ecx\n"		/* this processor's Arcs */
	"	movl %eax, %ebx\n"		/* the hash, as archash */
	"	xorl %edx, %ebx\n"
	"	imull $2654435761, %ebx, %ebx\n"
	"	shrl $20, %ebx\n"
	"	leal (%ebx,%ebx,2), %ebx\n"
	"	cmpl %eax, (%ecx,%ebx,4)\n"
	"	jne 1f\n"
	"	cmpl %edx, 4(%ecx,%ebx,4)\n"
	"	jne 1f\n"
	"	addl $1, 8(%ecx,%ebx,4)\n"	/* as satinc */
	"	sbbl $0, 8(%ecx,%ebx,4)\n"
	"2:	popl %ebx\n"
	"	popl %edx\n"
	"	popl %ecx\n"
	"	popl %eax\n"
	"	ret\n"
	"1:	call arcslow\n"
	"	jmp 2b\n");

static inline uint
archash(uint from, uint self)
{
	return (from ^ self) * 2654435761U >> (32 - Arcbits);
}

/*
 * One call along from -> self, in t, this processor's table, where
 * fentry did not find it in the slot its hash names: the slots after,
 * and a new one.  See the comment at the top.
 */
NOPROF __attribute__((regparm(3), used)) void
arcslow(uint from, uint self, Arcs *t)
{
	Arc *a;
	uint h, i;

	h = archash(from, self);
	for(i = 0; i < arcnprobe; i++){
		a = &t->arc[(h + i) & (Narc - 1)];
		if(a->from == from && a->self == self){
			satinc(&a->count);
			return;
		}
		if(a->from == 0 && __sync_bool_compare_and_swap(&a->from, 0, from)){
			a->self = self;
			satinc(&a->count);
			return;
		}
	}
	satinc(&t->drop);
}

/*
 * The rendezvous: the patcher sets stopping and sends each other
 * processor Tstop; each says it has stopped and waits, interrupts off,
 * until the patcher clears stopping, then says it has gone.
 */
static struct {
	volatile int	stopping;
	volatile uint	stopped;	/* processors waiting */
	volatile uint	gone;		/* processors that have left */
} rv;

/* Tstop's handler (kern/trap.c). */
NOPROF void
patchintr(void)
{
	xadd(&rv.stopped, 1);
	while(rv.stopping)
		pause();
	serialize();	/* what this processor fetches next is the new text */
	lapiceoi();
	xadd(&rv.gone, 1);
}

/*
 * Run fn while every other processor waits in patchintr.  The caller
 * holds no spin lock, and one caller at a time (kpctl's kproflk).
 */
static NOPROF void
stopall(void (*fn)(void))
{
	Mach *me;
	uint n;
	int i;

	pushcli();
	me = thismach();
	rv.stopped = 0;
	rv.gone = 0;
	rv.stopping = 1;
	n = 0;
	for(i = 0; i < nmach; i++)
		if(&mach[i] != me && mach[i].online){
			lapicipi(mach[i].apicid, Tstop);
			n++;
		}
	while(rv.stopped < n)
		pause();
	fn();
	rv.stopping = 0;
	while(rv.gone < n)
		pause();
	popcli();
}

/* Every entry: a call of fentry if arcson, else the nop. */
static NOPROF void
patch(void)
{
	uint *p;
	uchar *s;
	int i, rel;

	for(p = mcountloc; p < emcountloc; p++){
		s = (uchar*)*p;
		rel = (uint)fentry - (*p + Nop5len);
		if(arcson){
			s[0] = 0xE8;
			for(i = 0; i < 4; i++)
				s[1 + i] = rel >> 8*i;
		}else
			for(i = 0; i < Nop5len; i++)
				s[i] = nop5[i];
	}
	serialize();
}

/* The spare of processor k's table. */
static inline Arcs*
spare(int k)
{
	return &arctab[k][mach[k].arcs == &arctab[k][0]];
}

/* Each processor's table becomes its spare, zeroed by arcsclear before. */
static NOPROF void
swaptables(void)
{
	int k;

	for(k = 0; k < nmach; k++)
		mach[k].arcs = spare(k);
}

/*
 * Check that each entry in the table holds the nop, in kernel text:
 * if one does not, the kernel was not built as the mkfile says, and
 * arcs on is refused.
 */
void
arcsinit(void)
{
	uint *p;
	int k;

	for(k = 0; k < MAXMACH; k++)
		mach[k].arcs = &arctab[k][0];
	for(p = mcountloc; p < emcountloc; p++)
		if(*p < (uint)text || *p + Nop5len > (uint)etext || memcmp((void*)*p, nop5, Nop5len) != 0){
			print("arcs: entry %#x is not a nop: no call graph\n", *p);
			return;
		}
	arcsok = 1;
}

/* arcs on or off: patch every entry, the other processors stopped. */
int
arcsctl(int on)
{
	if(on && !arcsok)
		return seterr(EINVAL, "arcs: the kernel has no entry nops");
	if(on == arcson)
		return 0;
	arcson = on;
	stopall(patch);
	return 0;
}

/*
 * Zero the counts: the spares are zeroed and swapped in with the other
 * processors stopped, so that a recorder interrupted by the stop ends
 * in the old table, which is not zeroed again until the next clear.
 */
void
arcsclear(void)
{
	int k;

	for(k = 0; k < nmach; k++)
		memset(spare(k), 0, sizeof(Arcs));
	stopall(swaptables);
}

/* The calls dropped for want of a slot, over the processors. */
uint
arcsdrops(void)
{
	uvlong n = 0;
	int k;

	for(k = 0; k < nmach; k++)
		n += mach[k].arcs->drop;
	return n > 0xFFFFFFFF ? 0xFFFFFFFF : n;
}

/*
 * The calls along from -> self in t, in the first upto slots of its
 * probe: *seen is set if any holds the pair.
 */
static uvlong
sumin(Arcs *t, uint from, uint self, uint upto, int *seen)
{
	uvlong n = 0;
	uint h, i;
	Arc *a;

	h = archash(from, self);
	for(i = 0; i < upto; i++){
		a = &t->arc[(h + i) & (Narc - 1)];
		if(a->from == from && a->self == self){
			n += a->count;
			*seen = 1;
		}
	}
	return n;
}

/*
 * Room for the distinct arcs a walk will find: the slots in use, over
 * the processors, and Nslack more.  Arcs keep coming while the reader
 * gets ready and walks, its own among them (the first calls of an open
 * after startclr, and whatever runs at its scheduling points), and the
 * walk, in the tables' order, would leave out the last it found with
 * no room: one run lost syscall's calls of sysseek so, as they hashed
 * to high slots.
 */
uint
arcsmax(void)
{
	uint n = Nslack, i;
	int k;

	for(k = 0; k < nmach; k++)
		for(i = 0; i < Narc; i++)
			n += mach[k].arcs->arc[i].self != 0;
	return n;
}

/*
 * Each distinct arc once, its calls summed over the processors'
 * tables, as fn(arg, from, self, count), at most max of them: the
 * number given.  An arc is given where it is first found, in the
 * lowest processor's table and the first slot of its probe there.
 * With eight processors' tables full the walk is some 5 million
 * instructions, so it takes a scheduling point every 64 slots, and
 * stops there if the caller is killed.
 */
uint
arcswalk(void (*fn)(void*, uint, uint, uint), void *arg, uint max)
{
	uint i, from, self, h, nout = 0;
	uvlong n;
	int k, j, seen;
	Arc *a;

	for(k = 0; k < nmach && nout < max; k++)
		for(i = 0; i < Narc && nout < max; i++){
			if(i % 64 == 63 && schedpoint() < 0)
				return nout;
			a = &mach[k].arcs->arc[i];
			from = a->from;
			self = a->self;
			if(self == 0)
				continue;
			h = archash(from, self);
			seen = 0;
			for(j = 0; j < k; j++)
				sumin(mach[j].arcs, from, self, Nprobe, &seen);
			sumin(mach[k].arcs, from, self, (i - h) & (Narc - 1), &seen);
			if(seen)
				continue;
			for(n = 0, j = k; j < nmach; j++)
				n += sumin(mach[j].arcs, from, self, Nprobe, &seen);
			if(n == 0)
				continue;	/* claimed, not yet counted */
			fn(arg, from, self, n > 0xFFFFFFFF ? 0xFFFFFFFF : n);
			nout++;
		}
	return nout;
}
