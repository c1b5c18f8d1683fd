/*
 * kprof's counts (dev/devkprof.c), which its NMI adds to, and what
 * the files that read them need: kpstack's reading (dev/kpstack.c) and
 * kpgmon's (dev/kpgmon.c).  Only the devices of #T include this.
 */

enum {
	KPmaxtext	= 128*1024,	/* kernel text at most */
	KPncell	= KPBIN + (KPmaxtext >> KPBINSHIFT) + KPSELF,
	KPnstack	= 1024,	/* distinct stacks a processor keeps: a power of 2 */
	KPnpc	= 16384,	/* their pcs, all together */
	KPprobe	= 16,		/* slots a stack may lie past the one its hash names */
};

/*
 * A distinct stack, in a processor's hash table of them: its pcs are
 * pc[off] to pc[off+n-1] of the same Kpcount, leaf first.  A slot is
 * free while its count is 0; the NMI fills the rest in first.
 */
typedef struct Kpstack {
	volatile uint	count;	/* ticks with this stack */
	uint	hash;		/* of its pcs */
	ushort	off;
	ushort	n;
} Kpstack;

/* One processor's counts: what its NMI adds to, and what startclr swaps. */
struct Kpcount {
	uint	cell[KPncell];	/* kpdata's cells, in host order; the last is kpself's, never counted in */
	uvlong	cycles;		/* time-stamp counts in the NMI, with Kpoutside for each */
	uint	nmimean;	/* its NMIs' running mean cost, in time-stamp counts (nmicost) */
	Kpstack	stack[KPnstack];
	uint	pc[KPnpc];	/* the stacks' pcs */
	uint	npc;		/* of pc in use */
	uint	cut;		/* stacks that found no room whole */
	uint	gen;		/* the run it counts, as Proc's kpgen */
};

extern uint	ncell;		/* of cell in use: KPBIN + the bins of kernel text + KPSELF */

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

/* kpstack.c */
long	stackread(char*, long, uvlong);

/* kpgmon.c */
int	kpgmonopen(Chan*);
long	kpgmonread(Chan*, void*, long, uvlong);
void	kpgmonclose(Chan*);
