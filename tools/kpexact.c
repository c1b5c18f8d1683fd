/*
 * kpexact: a QEMU TCG plugin that counts every instruction every
 * processor runs, at every pc, and writes the counts in #T's own
 * formats (kprof(3)), so that kprof reads them unchanged: the exact
 * profile that kprof's samples estimate.  tools/profile -x runs it,
 * through run-qemu.sh -x:
 *
 *	qemu-system-i386 ... -plugin o/host/kpexact.so,out=DIR,text=0xc0100000,size=0xea22
 *
 * text and size are those of the kernel's .text section.  The kernel
 * marks where kprof starts, clears and stops with a nop no compiler
 * emits (kern/kprof.h, KPMARK: nopl with a displacement that spells
 * kpon, kpcl or kpof); the plugin counts between the marks, the window
 * kprof samples in, and at each stop writes into DIR
 *
 *	kpdata	cell 0 all instructions, cell 1 kernel instructions, then
 *		one count per 8-byte bin of kernel text, big-endian 4-byte
 *		cells, in units of 1000 instructions
 *	kpctl	a status line as #T's, with hz 1000000, the unit's rate,
 *		and clock exact
 *	kpcpu	each processor's kernel instructions, a line each as
 *		`cpu 0 kernel N', then all processors' others, `user N'
 *	upcdata	the user instructions as kpdata counts the kernel's: cell 0
 *		all of them, cell 1 those in the Utext bytes from UTZERO,
 *		where every program is linked (kern/sys.h), then a count
 *		per 8-byte bin of those: the exact profile of a program
 *		that a scope holds alone (profile -q PROG), for its
 *		profil(2) and kpstack's user frames
 *
 * The unit: under run-qemu.sh -d QEMU runs one instruction a
 * nanosecond, of all the processors together (they share each turn),
 * so 1000 are a microsecond of the machine's time, and with hz 1000000
 * kprof's ms column is the time the processors ran together.  4-byte
 * cells then hold 4295 seconds of it; a run past that gets no kpdata,
 * and a message, rather than wrong counts.  Each bin is the difference
 * of the rounded running sums, so the bins of any one function add up
 * to within one unit of its exact count, and all of them to cell 1.
 *
 * Every instruction calls the plugin before it runs, which adds 1 to
 * its bin's counter, or to the one of all instructions outside kernel
 * text.  A mark copies the counters, and the counts are the
 * differences, so they are exact: an instruction that faults counts
 * each time it is tried, and nothing else counts but what ran.  The
 * counters are plain, not atomic, and the copies take no lock: that
 * needs run-qemu.sh -d, where QEMU runs the processors in turn, on one
 * thread (run-qemu.sh refuses -x without it).
 *
 * Which processor ran an instruction: QEMU 10.0 shares translated code
 * among the processors it runs in turn and builds into it the number
 * of the processor that translated it, so the plugin API's processor
 * number is wrong under -d (and its per-processor counters with it).
 * The kernel's own is right: in the kernel gs holds the processor's
 * Mach (kern/mmu.c, MACHSEG), whose address, read at the start of each
 * block of kernel text, names the processor (the lowest is mach[0]).
 * A block of trap entry that runs before gs is loaded counts for the
 * processor that ran kernel code last; user instructions count in the
 * total only.  So kpcpu's counts are exact to within a few entry
 * instructions per trap.  With one processor gs is not read: the call
 * at each block of kernel text that reads it made a run of the kernel
 * on one processor twice as slow (QEMU copies all the registers out
 * for it).
 *
 * What it counts is kprof's scope (kpctl's pid, kern/kpproc.c): the
 * kernel marks with kpsc, KPSCOPE, whether what a processor runs from
 * there is in scope, at each process the scheduler takes up and each
 * time it comes back (with no process: idle, in scope only while
 * everything is), and in the process that changes the scope.  Kernel
 * instructions count while their processor's work is in scope.  User
 * instructions count while their process is: a process's page tables
 * name it, so the mark of a process notes its page directory, and each
 * block outside kernel text looks cr3 up, once some mark has said out of
 * scope (till then everything is in); with one processor, user code
 * is that of the process it runs, whose mark it has seen.  A process that another
 * processor runs while the scope changes counts as it was till its
 * next switch.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kern/kprof.h"
#include "kern/sys.h"

/*
 * The plugin API of QEMU 10.0 (version 4 of it), the few declarations
 * used here, as QEMU's include/qemu/qemu-plugin.h has them: Debian
 * ships QEMU built with plugins but not that header.
 */
typedef uint64_t qemu_plugin_id_t;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_register;

typedef struct {
	struct qemu_plugin_register *handle;
	const char *name;
	const char *feature;
} qemu_plugin_reg_descriptor;

/* glib's, from the glib QEMU has loaded: the API's registers come in them. */
typedef struct {
	char *data;
	unsigned int len;
} GArray;
typedef struct {
	uint8_t *data;
	unsigned int len;
} GByteArray;
GByteArray *g_byte_array_new(void);

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS };

typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
	qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
	qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn, void *dest, size_t len);
GArray *qemu_plugin_get_registers(void);
int qemu_plugin_read_register(struct qemu_plugin_register *handle, GByteArray *buf);

#define EXPORT	__attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 4;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);

enum {
	Unit		= 1000,		/* instructions a kpdata count stands for */
	Hz		= 1000000000 / Unit,	/* the units a second under -d */
	Maxcpu		= 64,		/* processors told apart */
	Npage		= 1<<20,	/* pages a 32-bit cr3 can name */
	Utext		= 1<<17,	/* bytes of user text from UTZERO counted by pc: over twice kprof's, the largest program */
	Nubins		= Utext >> KPBINSHIFT,
};

/* What a mark says. */
enum {
	Mon = 1,	/* kpon: counting starts, if it was off */
	Mclr,		/* kpcl: the counts start again from 0 */
	Moff,		/* kpof: counting stops; write the files */
	Mscope,		/* kpsc: in or out of scope, in eax */
};

/*
 * The counters: c[0] the instructions outside kernel text, c[1+i]
 * those in bin i, then one for each processor's kernel instructions,
 * then one for each bin of user text.
 * base is c when counting last started, sum what was counted before
 * that since the last kpcl; the counts are sum + c - base.
 */
static uint64_t text, textsize;	/* kernel text, from the arguments */
static size_t nbins;
static size_t ncounter;		/* 1 + nbins + Maxcpu + Nubins */
static uint64_t *c, *base, *sum;
static uint64_t *cpukern;	/* c + 1 + nbins */
static uint64_t *ucount;	/* cpukern + Maxcpu */
static uint64_t mach[Maxcpu];	/* each processor's gs base, as seen, 0 for none yet */
static int ncpu;		/* of mach in use */
static int nvcpu;		/* processors QEMU has made, all before any code runs */
static int cur;			/* the processor whose kernel code ran last */
static struct qemu_plugin_register *gsbase, *eax, *edx, *cr3;
static GByteArray *gsbuf;
static uint8_t out[Maxcpu];	/* the processor's work is out of scope */
static uint8_t *pageout;	/* by page of page directory: the process is out of scope */
static int scoping;		/* a mark has said out of scope: user blocks look */
static int userout;		/* the user block running is out of scope */
static const char *outdir;
static int on;			/* between kpon and kpof */

static FILE*
create(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", outdir, name);
	f = fopen(path, "w");
	if(f == NULL)
		perror(path);
	return f;
}

/* A kpdata cell: KPCELL bytes, most significant first. */
_Static_assert(KPCELL == 4, "put32 writes a kpdata cell");

static void
put32(FILE *f, uint64_t v)
{
	fputc(v >> 24, f);
	fputc(v >> 16, f);
	fputc(v >> 8, f);
	fputc(v, f);
}

/* x/Unit, rounded to the nearest. */
static uint64_t
units(uint64_t x)
{
	return (x + Unit/2) / Unit;
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;

	return x < y ? -1 : x > y;
}

/*
 * A file of kpdata's form: all, the sum of the n bins at b, and the
 * bins, each the difference of the rounded running sums.
 */
static void
bins(const char *name, uint64_t all, uint64_t *b, size_t n)
{
	uint64_t in, run, prev, u;
	size_t i;
	FILE *f;

	in = 0;
	for(i = 0; i < n; i++)
		in += b[i];
	if((f = create(name)) == NULL)
		return;
	put32(f, units(all));
	put32(f, units(in));
	run = prev = 0;
	for(i = 0; i < n; i++){
		run += b[i];
		u = units(run);
		put32(f, u - prev);
		prev = u;
	}
	if(fclose(f) != 0)
		perror(name);
}

/* Write kpdata, kpctl, kpcpu and upcdata from sum. */
static void
writeout(void)
{
	uint64_t kernel, order[Maxcpu];
	size_t i;
	int k, j;
	FILE *f;

	kernel = 0;
	for(i = 1; i <= nbins; i++)
		kernel += sum[i];
	if(units(sum[0] + kernel) > 0xFFFFFFFF){
		fprintf(stderr, "kpexact: %" PRIu64 " instructions are over 2^32 units of %d:"
			" kpdata would overflow; profile a shorter run\n", sum[0] + kernel, Unit);
		return;
	}
	bins("kpdata", sum[0] + kernel, sum + 1, nbins);
	if((f = create("kpctl")) == NULL)
		return;
	fprintf(f, "off hz %d bin %d text %#" PRIx64 " etext %#" PRIx64 " cpus %d cut 0 clock exact\n",
		Hz, KPBINSIZE, text, text + textsize, ncpu);
	fclose(f);
	if((f = create("kpcpu")) == NULL)
		return;
	/* The processors in the order of their Machs. */
	memcpy(order, mach, ncpu*sizeof order[0]);
	qsort(order, ncpu, sizeof order[0], cmpu64);
	for(j = 0; j < ncpu; j++)
		for(k = 0; k < ncpu; k++)
			if(mach[k] == order[j])
				fprintf(f, "cpu %d kernel %" PRIu64 "\n", j, sum[1 + nbins + k]);
	fprintf(f, "user %" PRIu64 "\n", sum[0]);
	fclose(f);
	bins("upcdata", sum[0], sum + 1 + nbins + Maxcpu, Nubins);
}

/* The low 32 bits of register r of the processor running, or 0 if it cannot be read. */
static uint32_t
reg32(struct qemu_plugin_register *r)
{
	/*
	 * Emptied by hand, as the read appends: g_byte_array_set_size
	 * cost some 6% of a run on two processors, which reads gs at
	 * every block of kernel text.
	 */
	gsbuf->len = 0;
	if(qemu_plugin_read_register(r, gsbuf) < 4)
		return 0;
	return gsbuf->data[0] | gsbuf->data[1]<<8 | gsbuf->data[2]<<16 | (uint32_t)gsbuf->data[3]<<24;
}

/* A mark ran, on some processor, while the others stood still. */
static void
mark(unsigned int vcpu, void *udata)
{
	uint32_t w;
	size_t i;

	(void)vcpu;
	switch((uintptr_t)udata){
	case Mscope:
		w = reg32(eax);
		out[cur] = !(w & KPSCIN);
		if(w & KPSCPROC)
			pageout[reg32(edx) >> 12] = out[cur];
		scoping |= out[cur];
		break;
	case Mon:
		if(!on)
			memcpy(base, c, ncounter*sizeof c[0]);
		on = 1;
		break;
	case Mclr:
		memset(sum, 0, ncounter*sizeof sum[0]);
		memcpy(base, c, ncounter*sizeof c[0]);
		break;
	case Moff:
		if(on)
			for(i = 0; i < ncounter; i++){
				sum[i] += c[i] - base[i];
				base[i] = c[i];
			}
		on = 0;
		writeout();
		break;
	}
}

/* Which mark the instruction is, or 0. */
static uintptr_t
markof(const struct qemu_plugin_insn *insn)
{
	unsigned char b[KPMARKLEN];

	if(qemu_plugin_insn_size(insn) != KPMARKLEN || qemu_plugin_insn_data(insn, b, KPMARKLEN) != KPMARKLEN)
		return 0;
	if(memcmp(b, KPMARKOP "kp", 5) != 0)
		return 0;
	if(memcmp(b + 5, "on", 2) == 0)
		return Mon;
	if(memcmp(b + 5, "cl", 2) == 0)
		return Mclr;
	if(memcmp(b + 5, "of", 2) == 0)
		return Moff;
	if(memcmp(b + 5, "sc", 2) == 0)
		return Mscope;
	return 0;
}

/* A block outside kernel text starts: is its process in scope, by its page tables? */
static void
userblock(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	userout = scoping && pageout[reg32(cr3) >> 12];
}

/* An instruction outside kernel text runs: udata is its bin's counter, if it has one. */
static void
other(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	if(nvcpu == 1 ? out[0] : userout)
		return;
	c[0]++;
	if(udata != NULL)
		((uint64_t*)udata)[0]++;
}

/* An instruction of kernel text runs: udata is its counter. */
static void
kernel(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	if(out[cur])
		return;
	((uint64_t*)udata)[0]++;
	cpukern[cur]++;
}

/* A block of kernel text starts: whose processor's, by gs's base. */
static void
kernelblock(unsigned int vcpu, void *udata)
{
	uint64_t gs;
	int k;

	(void)vcpu;
	(void)udata;
	gs = reg32(gsbase);
	if(gs < text)	/* not the kernel's yet: a trap's entry */
		return;
	if(mach[cur] == gs)
		return;
	for(k = 0; k < ncpu && mach[k] != gs; k++)
		;
	if(k == ncpu){
		if(ncpu == Maxcpu)
			return;
		mach[ncpu++] = gs;
	}
	cur = k;
}

/* A block is translated: each instruction gets its counter, and a mark its callback. */
static void
translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct qemu_plugin_insn *insn;
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t pc;
	uintptr_t m;

	(void)id;
	if(nvcpu == 1)
		ncpu = 1;	/* cur stays 0, and user code is its process's */
	else if(qemu_plugin_tb_vaddr(tb) - text < textsize)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, kernelblock, QEMU_PLUGIN_CB_R_REGS, NULL);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, userblock, QEMU_PLUGIN_CB_R_REGS, NULL);
	for(i = 0; i < n; i++){
		insn = qemu_plugin_tb_get_insn(tb, i);
		pc = qemu_plugin_insn_vaddr(insn);
		if(pc - text >= textsize){
			qemu_plugin_register_vcpu_insn_exec_cb(insn, other, QEMU_PLUGIN_CB_NO_REGS,
				pc - UTZERO < Utext ? ucount + ((pc - UTZERO) >> KPBINSHIFT) : NULL);
			continue;
		}
		if((m = markof(insn)) != 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark, QEMU_PLUGIN_CB_R_REGS, (void*)m);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, kernel, QEMU_PLUGIN_CB_NO_REGS,
			c + 1 + ((pc - text) >> KPBINSHIFT));
	}
}

/* The first processor comes up: find gs's base, eax, edx and cr3 among its registers. */
static void
vcpuinit(qemu_plugin_id_t id, unsigned int vcpu)
{
	GArray *r;
	qemu_plugin_reg_descriptor *d;
	unsigned int i;

	(void)id;
	(void)vcpu;
	nvcpu++;
	if(gsbase != NULL)
		return;
	r = qemu_plugin_get_registers();
	d = (qemu_plugin_reg_descriptor*)r->data;
	for(i = 0; i < r->len; i++)
		if(strcmp(d[i].name, "gs_base") == 0)
			gsbase = d[i].handle;
		else if(strcmp(d[i].name, "eax") == 0)
			eax = d[i].handle;
		else if(strcmp(d[i].name, "edx") == 0)
			edx = d[i].handle;
		else if(strcmp(d[i].name, "cr3") == 0)
			cr3 = d[i].handle;
	if(gsbase == NULL || eax == NULL || edx == NULL || cr3 == NULL){
		fprintf(stderr, "kpexact: the processor lacks one of the registers gs_base, eax, edx and cr3\n");
		exit(1);
	}
}

/* The value of argument key=VALUE, or NULL. */
static const char*
arg(int argc, char **argv, const char *key)
{
	size_t n = strlen(key);
	int i;

	for(i = 0; i < argc; i++)
		if(strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
			return argv[i] + n + 1;
	return NULL;
}

int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *t, *s;
	char *end1, *end2;

	if(!info->system_emulation){
		fprintf(stderr, "kpexact: for qemu-system-i386, not user mode\n");
		return -1;
	}
	outdir = arg(argc, argv, "out");
	t = arg(argc, argv, "text");
	s = arg(argc, argv, "size");
	if(outdir == NULL || t == NULL || s == NULL){
		fprintf(stderr, "kpexact: usage: -plugin kpexact.so,out=DIR,text=ADDR,size=BYTES\n");
		return -1;
	}
	text = strtoull(t, &end1, 0);
	textsize = strtoull(s, &end2, 0);
	if(*t == '\0' || *end1 != '\0' || *s == '\0' || *end2 != '\0' || textsize == 0 || textsize > 1<<24){
		fprintf(stderr, "kpexact: bad text=%s or size=%s\n", t, s);
		return -1;
	}
	nbins = (textsize + KPBINSIZE - 1) >> KPBINSHIFT;
	ncounter = 1 + nbins + Maxcpu + Nubins;
	c = calloc(ncounter, sizeof c[0]);
	base = calloc(ncounter, sizeof base[0]);
	sum = calloc(ncounter, sizeof sum[0]);
	pageout = calloc(Npage, 1);
	gsbuf = g_byte_array_new();
	if(c == NULL || base == NULL || sum == NULL || pageout == NULL){
		fprintf(stderr, "kpexact: out of memory\n");
		return -1;
	}
	cpukern = c + 1 + nbins;
	ucount = cpukern + Maxcpu;
	qemu_plugin_register_vcpu_init_cb(id, vcpuinit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	return 0;
}
