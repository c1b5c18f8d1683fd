/*
 * A test device, #S, for measuring kprof's accuracy: writing "a N" to
 * its file spinctl spins N iterations in spina, "b N" in spinb, "c N"
 * in chainc, called through chaina and chainb, with interrupts off.
 * The three loops are the same, so the time in each is in proportion
 * to N, and a profile can be checked against that; chainc's shows that
 * a tick held off by cli still lands where it fell due, and its stack
 * is known.  "t N" spins N iterations at each leaf of a tree of calls,
 * 1024 paths 14 levels deep (deeper than the 32 frames kprof keeps),
 * each path a distinct stack, more than kprof keeps: its table fills
 * up.  Only in the test kernel (conf/kerneltest), and not bound in
 * /dev at boot.  The loops are scheduling points
 * (with interrupts on there), so a long spin holds the processor no
 * longer than any other call, and a kill stops it.  They also pause
 * every 256 iterations, for run-qemu.sh -d on several processors: QEMU
 * runs them in turns, and a turn ends at a pause.  QEMU 10's turns are
 * even on two processors with kprof off, but with its NMI clock on they
 * are not: two spins of the same count on two processors, without the
 * pauses, took 3629 and 3232 ticks, and mp.sh's 2-processor accuracy
 * run idled 4.9% (the process done first); with them, 0.9%.  So turns
 * of these loops end in the loop, at the same count on every
 * processor, whatever QEMU's own turns would be; a processor that does
 * not pause meanwhile gets longer ones (doc/benchmarks.md, QEMU 10's
 * round robin).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Qspinctl = 1,

	Pauseevery	= 256,	/* iterations between pauses */
	Schedevery	= 65536,	/* and between scheduling points: a multiple of Pauseevery */
};

static Dirtab spindir[] = {
	{ "spinctl",	Qspinctl,	0,	0222 },
};

/*
 * spina, spinb and the tree's leaves run this same loop, so that their
 * shares of the time are as their turns: inlined into each, as each
 * must be a function of its own for the profile to tell them apart.
 */
static inline __attribute__((always_inline)) int
spin(uint n)
{
	volatile uint i;

	for(i = 0; i < n; i++)
		if(i % Pauseevery == 0){
			pause();
			if(i % Schedevery == 0 && schedpoint() < 0)
				return -1;
		}
	return 0;
}

static int __attribute__((noipa))
spina(uint n)
{
	return spin(n);
}

static int __attribute__((noipa))
spinb(uint n)
{
	return spin(n);
}

/*
 * The chain of calls to chainc.  The empty asm after each call keeps
 * the compiler from making it a jump, which would leave no frame.
 */
static int __attribute__((noipa))
chainc(uint n)
{
	volatile uint i;
	int s = splhi(), r = 0;

	for(i = 0; i < n; i++)
		if(i % Pauseevery == 0){
			pause();
			if(i % Schedevery == 0){
				splx(s);
				r = schedpoint();
				s = splhi();
				if(r < 0)
					break;
			}
		}
	splx(s);
	return r;
}

static int __attribute__((noipa))
chainb(uint n)
{
	int r = chainc(n);

	asm volatile("");
	return r;
}

static int __attribute__((noipa))
chaina(uint n)
{
	int r = chainb(n);

	asm volatile("");
	return r;
}

/* The tree: at each level, path k goes on through spinleft or spinright by its low bit. */
static int	spinnode(uint, int, uint);

static int __attribute__((noipa))
spinleft(uint k, int level, uint n)
{
	int r = spinnode(k, level, n);

	asm volatile("");
	return r;
}

static int __attribute__((noipa))
spinright(uint k, int level, uint n)
{
	int r = spinnode(k, level, n);

	asm volatile("");
	return r;
}

static int __attribute__((noipa))
spinnode(uint k, int level, uint n)
{
	int r;

	if(level == 0)
		return spin(n);
	if(k & 1)
		r = spinright(k >> 1, level - 1, n);
	else
		r = spinleft(k >> 1, level - 1, n);
	asm volatile("");
	return r;
}

static int
spintree(uint n)
{
	uint k;

	for(k = 0; k < 1024; k++)
		if(spinnode(k, 14, n) < 0)
			return -1;
	return 0;
}

/* Each message's spin, by its Cmdtab index. */
static int (*spins[])(uint) = { spina, spinb, chaina, spintree };

static Cmdtab spinmsg[] = {
	{ 0,	"a",	2 },
	{ 1,	"b",	2 },
	{ 2,	"c",	2 },
	{ 3,	"t",	2 },
};

static long
spinwrite(Chan *c, void *buf, long n, uvlong off)
{
	Cmdbuf cb;
	Cmdtab *ct;
	uint count;

	USED(off);
	if(c->qid != Qspinctl)
		return seterr(EISDIR, nil);
	if(parsecmd(&cb, buf, n) < 0 || (ct = lookupcmd(&cb, spinmsg, nelem(spinmsg))) == nil)
		return -1;
	if(decimal(cb.f[1], 0xFFFFFFFF, &count) < 0)
		return seterr(EINVAL, "bad spin count");
	return spins[ct->index](count) < 0 ? -1 : n;
}

Dev spindevtab = {
	.dc = 'S',
	.tab = spindir,
	.ntab = nelem(spindir),
	.write = spinwrite,
};
