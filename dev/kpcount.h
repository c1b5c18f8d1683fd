/*
 * kprof's counts (dev/devkprof.c), which its NMI adds to, and what
 * the files that read them need: kpstack's table and reading
 * (dev/kpstack.c) and kpgmon's (dev/kpgmon.c).  Only the devices of #T
 * include this.
 */

enum {
	KPmaxtext	= 128*1024,	/* kernel text at most */
	KPncell	= KPBIN + (KPmaxtext >> KPBINSHIFT) + KPSELF,
	Kpchunk	= 1024,		/* cells kpcells sums between scheduling points: 60,000 instructions on 8 processors */
	KPnstack	= 1024,	/* distinct stacks a processor keeps: a power of 2 */
	KPnpc	= 16384,	/* their pcs, all together */
	KPprobe	= 16,		/* slots a stack may lie past the one its hash names */
	KPleaf	= 2,		/* pcs of a user stack cut to its leaf: the mark and the pc */
	KPnleaf	= 256,		/* slots, and KPleaf times as many pcs, that only such leaves may take */
	KPnring	= 8192,		/* words of a processor's buffer of samples: a power of 2 */
	KPrec	= 1 + KPMAXFRAMES,	/* words of a sample at most: its number of pcs, then the pcs */
	Kpuser	= 0,		/* a tick's kind, for its NMI's mean cost (dev/kpnmi.c, nmicost): in user mode */
	Kpkernel,		/* in the kernel, busy */
	Kpidle,			/* in the kernel, idle */
	Kpthin,			/* left out, under -d, for the processors that ran beside (kern/fns.h, thintick) */
	Kpnkind,
	Thinseed	= 2891336453U,	/* the first state of processor 0's generator of thinned ticks; the others' are on from it */
};

/*
 * A distinct stack, in a processor's hash table of them: its pcs are
 * pc[off] to pc[off+n-1] of the same Kpcount, leaf first.  A slot is
 * free while its count is 0; the drain fills the rest in first.
 */
typedef struct Kpstack {
	volatile uint	count;	/* ticks with this stack */
	uint	hash;		/* of its pcs */
	ushort	off;
	ushort	n;
} Kpstack;

/*
 * One processor's counts: what its NMI adds to.  The NMI writes the
 * stack of each tick in ring, from head on, as its number of pcs and
 * the pcs, whole even past the words in use (kpmask + 1; the rest is
 * room for that), then moves head on; a drain (dev/kpstack.c), under
 * the processor's kpdrain, adds those from tail to head to the table,
 * then moves tail on.  head and tail count words and wrap.
 */
struct Kpcount {
	uint	cell[KPncell];	/* kpdata's cells, in host order; the last is kpself's, never counted in */
	uvlong	cycles;		/* time-stamp counts in the NMI, from its first rdtsc to its last (nmicost) */
	uint	nmimean[Kpnkind];	/* its NMIs' running mean cost, in time-stamp counts, at each kind of tick (nmicost) */
	uint	nmicap[Kpnkind];	/* 1.5 times nmimean: a count over it spans a turn */
	uint	skip;		/* ticks out of scope, which count nowhere else (kpself) */
	uint	thin;		/* busy ticks left out under -d, as others ran beside (thintick) */
	uint	thinseed;	/* the draw's generator (thintick) */
	uint	idle;		/* ticks, in scope or not, that found the processor idle */
	uint	allidle;	/* of those, the ones that found every processor idle */
	Kpstack	stack[KPnstack];
	uint	pc[KPnpc];	/* the stacks' pcs */
	uint	npc;		/* of pc in use */
	uint	nstack;		/* of stack in use */
	uint	cut;		/* stacks that found no room whole, in ring or table */
	uint	ring[KPnring + KPrec];	/* the samples not yet drained */
	uint	head;		/* words the NMI wrote in ring: the NMI's alone */
	volatile uint	tail;	/* words drained from it */
};

extern uint	ncell;		/* of cell in use: KPBIN + the bins of kernel text + KPSELF */
extern uint	kpmask;		/* the words of ring in use less 1: KPnring - 1, but for the test kernel's kpring= */
extern uint	kproom;		/* the most words in use at which a sample still has room: those in use less KPrec */
extern uint	kpstacks;	/* kpctl's stacks on, set with no NMI counting; each Mach's Kpstacks says so to its NMI */

/* a + b, sticking at the largest value, as the cells do. */
static inline uint
satadd(uint a, uint b)
{
	return a + b < a ? 0xFFFFFFFF : a + b;
}

/* Are the n pcs at a and b the same?  Inline: the NMI's path has no entry nop. */
static inline int
same(uint *a, uint *b, uint n)
{
	uint i;

	for(i = 0; i < n; i++)
		if(a[i] != b[i])
			return 0;
	return 1;
}

/* devkprof.c */
uint	kpcell(uint);
int	kpcells(uint*, uint, uint);

/* kpstack.c */
long	stackread(char*, long, uvlong);
void	stackdrainall(void);
void	stackswitch(int);
void	stackclear(void);
void	stackreset(Mach*);

/* kpgmon.c */
int	kpgmonopen(Chan*);
long	kpgmonread(Chan*, void*, long, uvlong);
