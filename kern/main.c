/*
 * main: from the boot loader's hand-off to the first process.  The
 * boot loader (GRUB or QEMU's -kernel, both multiboot v1) passes the
 * memory size, the command line (hz=N) and the modules: the first is
 * the root file system archive, any others appear as /boot/NAME.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

extern char	bootstack[];	/* boot/entry.asm: main's stack, then the first processor's scheduler's */

enum { Mbmagic = 0x2BADB002, Mbmem = 1<<0, Mbcmdline = 1<<2, Mbmods = 1<<3 };

typedef struct Mbinfo Mbinfo;
struct Mbinfo {
	uint	flags;		/* which fields below are valid */
	uint	memlower;	/* KB below 1 MB */
	uint	memupper;	/* KB above 1 MB */
	uint	bootdev;
	uint	cmdline;	/* physical address of a string */
	uint	nmods;
	uint	mods;		/* physical address of Mbmod[nmods] */
};

typedef struct Mbmod Mbmod;
struct Mbmod {
	uint	start;		/* physical addresses of the module */
	uint	end;
	uint	string;		/* its command line, e.g. "root.tar" */
	uint	pad;
};

/*
 * The kernel command line: words separated by blanks, after the
 * kernel's file name if the boot loader put it first (QEMU's -kernel
 * does, GRUB does not).  hz=N (50 to 10000) sets the clock rate;
 * the configuration may add words (bootopt, as conf/kerneltest's
 * locktest=); any other word gets a warning.
 */
static char	cmdline[256];

/* The configuration's word that w, NAME=ARG, is, or nil. */
static Bootopt*
bootword(char *w)
{
	Bootopt *b;
	int n;

	for(b = bootopt; b->name != nil; b++){
		n = strlen(b->name);
		if(strncmp(w, b->name, n) == 0 && w[n] == '=')
			return b;
	}
	return nil;
}

static void
parsecmdline(char *s)
{
	char *f[16];
	Bootopt *b;
	uint n;
	int nf, i;

	strlcpy(cmdline, s, sizeof cmdline);
	if((nf = tokenize(cmdline, f, nelem(f))) < 0){
		print("warning: kernel command line of over %d words ignored\n", nelem(f));
		return;
	}
	for(i = nf > 0 && strchr(f[0], '/') != nil; i < nf; i++){
		if((b = bootword(f[i])) != nil)
			b->arg = f[i] + strlen(b->name) + 1;
		else if(strncmp(f[i], "hz=", 3) != 0)
			print("warning: unknown kernel command-line word %s\n", f[i]);
		else if(decimal(f[i] + 3, 10000, &n) == 0 && n >= 50)
			hz = n;
		else
			print("hz must be 50 to 10000: using %d\n", hz);
	}
}

/* Put the boot modules in the root file system. */
static void
loadmods(Mbinfo *mb)
{
	Mbmod *m;
	char path[PATHMAX], *name;
	uint i;

	if((mb->flags & Mbmods) == 0 || mb->nmods == 0)
		panic("no root file system module");
	m = KADDR(mb->mods);
	rootload(KADDR(m[0].start), m[0].end - m[0].start);
	for(i = 1; i < mb->nmods; i++){
		name = m[i].string ? KADDR(m[i].string) : "module";
		if(strrchr(name, '/') != nil)
			name = strrchr(name, '/') + 1;
		snprintf(path, sizeof path, "boot/%s", name);
		rootfile(path, KADDR(m[i].start), m[i].end - m[i].start);
	}
}

/* The top of physical memory, and the end of what the boot loader placed there. */
static void
meminit(Mbinfo *mb)
{
	Mbmod *m;
	uint top = 64*1024*1024, lo = PADDR(end), i;

	if(mb->flags & Mbmem)
		top = (mb->memupper + 1024) * 1024;
	if(mb->flags & Mbmods)
		for(i = 0, m = KADDR(mb->mods); i < mb->nmods; i++)
			if(m[i].end > lo && m[i].end < top)
				lo = m[i].end;
	pageinit(lo, top);
}

/*
 * Power off.  QEMU's isa-debug-exit device (at port 0xf4) ends QEMU
 * with exit code 2v+1 for the value v written; v = status+1 keeps
 * clear of 1, QEMU's own failure, so QEMU exits 2*status+3 (3 for
 * success).  Its exit code has 8 bits: statuses over 126 come out as
 * 126.  Then QEMU's ACPI ports; then halt.
 */
void
poweroff(int status)
{
	cli();
	outl(0xF4, (status < 0 || status > 126 ? 126 : status) + 1);
	outw(0x604, 0x2000);
	outw(0xB004, 0x2000);
	for(;;)
		asm volatile("hlt");
}

void
main(uint magic, Mbinfo *mb)
{
	Bootopt *b;

	gdtinit(&mach[0]);	/* first: locks find their processor's Mach through gs */
	mach[0].stack = bootstack;
	chandevreset();
	print("\nkprof kernel: booting\n");
	if(magic != Mbmagic)
		panic("not loaded by a multiboot loader (magic %#x)", magic);
	fpuinit();	/* before the first long memset or memmove */
	if(mb->flags & Mbcmdline)
		parsecmdline(KADDR(mb->cmdline));
	meminit(mb);
	mmuinit();
	mpinit();
	trapinit();
	arcsinit();
	i8259init();
	ioapicinit();
	chandevinit();
	chaninit(cattach('/'));
	loadmods(mb);
	if(kbind("#c", "/dev", MAFTER) < 0 || kbind("#t", "/dev", MAFTER) < 0
	|| kbind("#T", "/dev", MAFTER) < 0)
		panic("cannot build /dev");
	lapicinit();
	tscinstr();
	mpstart();
	/* Before init: another processor may run it, and its shell, at once. */
	print("%d MB, %d free pages, hz %d, %d cpu%s\n", pagestotal()*BY2PG >> 20, pagesfree(), hz,
		nmach, nmach == 1 ? "" : "s");
	/* The configuration's words run before init, whose shell could otherwise finish first. */
	for(b = bootopt; b->name != nil; b++)
		if(b->arg != nil)
			b->fn(b->arg);
	userinit();
	mach[0].online = 1;
	scheduler();
}
