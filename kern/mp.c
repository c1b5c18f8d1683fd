/*
 * Multiprocessing: finding the processors in the firmware's ACPI MADT
 * or Intel MP tables, and starting the others (the application processors) once
 * the first has set the kernel up.  Each gets a Mach in mach[], a
 * kernel stack for its scheduler, and then runs processes as the first
 * does.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

typedef struct MPfloat MPfloat;
struct MPfloat {		/* the floating pointer, "_MP_" */
	char	sig[4];
	uint	conf;		/* physical address of the MPconf */
	uchar	len;		/* in 16-byte units */
	uchar	rev;
	uchar	sum;
	uchar	type;		/* a default configuration if not 0 */
	uchar	imcrp;		/* bit 7: the IMCR is there, 8259 mode at first */
	uchar	pad[3];
};

typedef struct MPconf MPconf;
struct MPconf {			/* the configuration table, "PCMP" */
	char	sig[4];
	ushort	len;
	uchar	rev;
	uchar	sum;
	char	product[20];
	uint	oemtab;
	ushort	oemlen;
	ushort	entries;
	uint	lapic;		/* physical address of the local APICs */
	ushort	xlen;
	uchar	xsum;
	uchar	pad;
};

enum {
	MPproc		= 0,	/* entry types: a processor, 20 bytes */
	MPioapic	= 2,	/* an I/O APIC, 8 bytes; the rest are 8 bytes too */
	MPenabled	= 1<<0,	/* processor entry's flags */

	Icrinit		= 0x00000500,	/* interprocessor interrupt commands */
	Icrstartup	= 0x00000600,
	Icrassert	= 0x00004000,
	Icrlevel	= 0x00008000,
};

Mach	mach[MAXMACH];
int	nmach = 1;		/* running; mpinit counts those found */
static int	nfound = 1;
static Mach	*starting;	/* the one mpenter is for */
extern char	apboot[], apbootend[];	/* boot/apboot.asm */
extern pte_t	bootpgdir[];

static int
sum(uchar *p, int n)
{
	int s = 0;

	while(n-- > 0)
		s += *p++;
	return s & 0xFF;
}

/* The 16-byte aligned structure of n bytes, sig first, checksum 0, in the len bytes at pa; or nil. */
static uchar*
scan(uint pa, uint len, char *sig, int n)
{
	uchar *p;

	for(p = KADDR(pa); p + n <= (uchar*)KADDR(pa + len); p += 16)
		if(memcmp(p, sig, strlen(sig)) == 0 && sum(p, n) == 0)
			return p;
	return nil;
}

/* Where the MP and ACPI specifications say to look: the EBDA's first KB, then the BIOS. */
static uchar*
search(char *sig, int n, uint bios)
{
	uchar *bda = KADDR(0x400), *p;
	uint pa;

	if((pa = (bda[0x0F] << 8 | bda[0x0E]) << 4) != 0 && (p = scan(pa, 1024, sig, n)) != nil)
		return p;
	return scan(bios, 0x100000 - bios, sig, n);
}

/* The physical address pa of an n-byte table, if it is in memory the kernel maps, and whole. */
static uchar*
table(uint pa, char *sig)
{
	uchar *p;

	if(pa == 0 || pa >= PHYSMAX - 8)
		return nil;
	p = KADDR(pa);
	if(memcmp(p, sig, 4) != 0 || *(uint*)(p + 4) > PHYSMAX - pa || sum(p, *(uint*)(p + 4)) != 0)
		return nil;
	return p;
}

/*
 * The ACPI MADT's processors: their APIC ids in id, how many the
 * result; and the APICs' addresses.
 */
static int
madt(int *id, uint *lapicpa, uint *ioapicpa)
{
	uchar *rsdp, *rsdt, *t, *p, *e;
	uint i;
	int n = 0;

	if((rsdp = search("RSD PTR ", 20, 0xE0000)) == nil
	|| (rsdt = table(*(uint*)(rsdp + 16), "RSDT")) == nil)
		return 0;
	for(i = 36; i + 4 <= *(uint*)(rsdt + 4); i += 4){
		if((t = table(*(uint*)(rsdt + i), "APIC")) == nil)
			continue;
		*lapicpa = *(uint*)(t + 36);
		for(p = t + 44, e = t + *(uint*)(t + 4); p + 2 <= e && p[1] >= 2 && p + p[1] <= e; p += p[1]){
			if(p[0] == 0 && p[1] >= 8 && (*(uint*)(p + 4) & 1) && n < 2*MAXMACH)
				id[n++] = p[3];	/* a local APIC, enabled */
			if(p[0] == 1 && p[1] >= 12)
				*ioapicpa = *(uint*)(p + 4);
			if(p[0] == 2 && p[1] >= 10 && p[2] == 0 && p[3] == 0 && *(uint*)(p + 4) < NIRQ)
				clockgsi = *(uint*)(p + 4);	/* ISA IRQ 0, the 8254, is on this input */
		}
		break;
	}
	return n;
}

/* The same from the Intel MP tables. */
static int
mptable(int *id, uint *lapicpa, uint *ioapicpa)
{
	MPfloat *f;
	MPconf *c;
	uchar *p, *e;
	int n = 0;

	if((f = (MPfloat*)search("_MP_", sizeof(MPfloat), 0xF0000)) == nil
	|| f->conf == 0 || f->conf >= PHYSMAX - sizeof(MPconf))
		return 0;
	c = KADDR(f->conf);
	if(memcmp(c->sig, "PCMP", 4) != 0 || c->len > PHYSMAX - f->conf || sum((uchar*)c, c->len) != 0)
		return 0;
	if(f->imcrp & 0x80){
		outb(0x22, 0x70);	/* the IMCR: interrupts through the APICs */
		outb(0x23, inb(0x23) | 1);
	}
	*lapicpa = c->lapic;
	for(p = (uchar*)(c + 1), e = (uchar*)c + c->len; p < e; ){
		switch(*p){
		case MPproc:
			if((p[3] & MPenabled) && n < 2*MAXMACH)
				id[n++] = p[1];
			p += 20;
			continue;
		case MPioapic:
			*ioapicpa = *(uint*)(p + 4);
			break;
		}
		p += 8;
	}
	return n;
}

/*
 * The processors and the I/O APIC, from the ACPI tables or else the MP
 * tables.  Without either the one processor runs alone, with its APICs
 * where they always are.
 */
void
mpinit(void)
{
	uint ioapicpa = APICBASE, lapicpa = 0xFEE00000;
	int id[2*MAXMACH], i, n;

	if((n = madt(id, &lapicpa, &ioapicpa)) == 0)
		n = mptable(id, &lapicpa, &ioapicpa);
	if(lapicpa < APICBASE || lapicpa >= APICBASE + BY2BIGPG
	|| ioapicpa < APICBASE || ioapicpa >= APICBASE + BY2BIGPG)
		panic("mpinit: APICs at %#x and %#x, not where mmuinit maps them", lapicpa, ioapicpa);
	lapic = (volatile uint*)lapicpa;
	ioapic = (volatile uint*)ioapicpa;
	mach[0].apicid = lapicid();	/* the one booting */
	for(i = 0; i < n && nfound < MAXMACH; i++)
		if(id[i] != mach[0].apicid)
			mach[nfound++].apicid = id[i];
}

/* About us microseconds: a port that ISA hardware takes a microsecond to answer. */
static void
microdelay(int us)
{
	while(us-- > 0)
		inb(0x80);
}

/* Where a new processor goes from boot/apboot.asm, on its scheduler's stack. */
static void
mpenter(void)
{
	Mach *m = starting;

	switchkvm();
	gdtinit(m);
	idtinit();
	fpuinit();
	lapicinit();
	m->online = 1;
	scheduler();
}

/*
 * Start the other processors found, one at a time: INIT, then two
 * STARTUPs that send it to APBOOT, as the MP specification says.
 * Each has started once it says it is online.
 */
void
mpstart(void)
{
	uchar *code = KADDR(APBOOT);
	char *stack;
	Mach *m;
	int i;

	memmove(code, apboot, apbootend - apboot);
	for(i = 1; i < nfound; i++){
		m = &mach[i];
		m->id = i;
		if((stack = kmalloc(KSTACK)) == nil)
			panic("mpstart: no memory");
		m->stack = stack;
		((uint*)code)[-1] = PADDR(bootpgdir);	/* it maps the low 4 MB where they are */
		((uint*)code)[-2] = (uint)stack + KSTACK;
		((uint*)code)[-3] = (uint)mpenter;
		starting = m;
		lapicipi(m->apicid, Icrinit | Icrlevel | Icrassert);
		microdelay(200);
		lapicipi(m->apicid, Icrinit | Icrlevel);
		microdelay(10000);
		lapicipi(m->apicid, Icrstartup | (APBOOT >> 12));
		microdelay(200);
		lapicipi(m->apicid, Icrstartup | (APBOOT >> 12));
		while(!m->online)
			pause();
		nmach++;
	}
}
