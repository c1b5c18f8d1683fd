/*
 * kprof: format the kernel profile.
 *
 *	kprof [-h hz] kernel kpdata
 *	kprof -s kernel kpstack [kpdata]
 *	kprof -g kernel kpstack [kpdata]
 *	kprof -l [-h hz] kernel kpdata		(on the host)
 *	kprof -p [-h hz] kernel kpdata [kpstack]	(on the host)
 *	kprof -a function kernel kpdata		(on the host)
 *	kprof -D kernel before.kpdata after.kpdata	(on the host)
 *
 * kpdata (see kprof(3)) is an array of 4-byte big-endian counts: the
 * clock ticks while profiling was on, the ticks that found the kernel
 * running, then one count for each 8-byte bin of kernel text.  kprof
 * reads the kernel's ELF symbol table, credits each bin to the function
 * whose text holds it, and prints one line per function, busiest first,
 * in Plan 9's layout:
 *
 *	total: 1234	in kernel text: 1000	outside kernel text: 234
 *	KTZERO c0100000	HZ 100
 *	ms	  %	sym
 *	5000	 50.0	idle
 *
 * The clock rate comes from -h, else from the kpctl status line beside
 * kpdata (or /dev/kpctl), else is taken to be 100.
 *
 * kpstack holds the kernel's call stacks: -s prints them folded, a line
 * each, `root;...;leaf ticks' (user/lib/kpstack.c), and -g draws them
 * as an SVG flame graph (user/lib/flame.c); with kpdata, the stacks
 * must add up to its kernel ticks.  -l lists the busiest source lines
 * from the kernel's DWARF line table, through libdw, which only the
 * host has (tools/srcline.c).  -p writes the profile, or with kpstack
 * its stacks, in pprof's format (tools/kpprof.c), and -a a function's
 * instructions with their ticks (tools/annotate.c), and -D two profiles'
 * difference (tools/kpdiff.c), also on the host only.
 *
 * The symbols, the crediting and the rows are user/lib/elfsym.c's,
 * shared with prof.  The same source builds for the guest and for the
 * host, so it uses only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "elfsym.h"
#include "kpstack.h"
#if __STDC_HOSTED__
#include "pprof.h"
#endif

enum {
	BINSIZE		= 8,	/* bytes of kernel text per count */
	DEFHZ		= 100,	/* clock rate when nothing says */
};

static void
usage(void)
{
	fprintf(stderr, "usage: kprof [-h hz] kernel kpdata\n"
		"       kprof -s|-g kernel kpstack [kpdata]\n"
		"       kprof -l [-h hz] kernel kpdata\n"
		"       kprof -p [-h hz] kernel kpdata [kpstack] >kernel.pb.gz\n"
		"       kprof -a function kernel kpdata\n"
		"       kprof -D kernel before.kpdata after.kpdata\n");
	exit(1);
}

static void*
emalloc(size_t n)
{
	void *p;

	p = malloc(n);
	if(p == NULL)
		fatal("out of memory");
	return p;
}

static uint8_t*
ereadfile(const char *path, size_t hint, size_t *lenp)
{
	uint8_t *buf;

	buf = readfile(path, hint, lenp);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	return buf;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0]<<24 | (uint32_t)p[1]<<16 | (uint32_t)p[2]<<8 | p[3];
}

/*
 * Read the profile at path, for a kernel text of nbins bins, into an
 * array of counts, and check that they add up: the kernel ticks are
 * some of all the ticks, and the bins share out the kernel ticks (a
 * count stops at 2^32-1 rather than wrap, so the bins may add up to
 * more than a kernel count that has stopped).
 */
static uint32_t*
readdata(const char *path, uint64_t nbins)
{
	uint8_t *buf;
	uint32_t *cell;
	uint64_t sum;
	size_t len, i;

	buf = ereadfile(path, 4*(nbins + 2), &len);
	if(len < 8)
		fatal("%s: too short (%lu bytes)", path, (unsigned long)len);
	if(len % 4 != 0)
		fatal("%s: length %lu is not a multiple of 4", path, (unsigned long)len);
	if(len/4 - 2 != nbins)
		fatal("%s has %lu bins, kernel text has %llu", path,
			(unsigned long)(len/4 - 2), (unsigned long long)nbins);
	cell = emalloc(len/4 * sizeof cell[0]);
	for(i = 0; i < len/4; i++)
		cell[i] = be32(buf + 4*i);
	free(buf);
	if(cell[1] > cell[0])
		fatal("%s: more kernel ticks (%u) than ticks (%u)", path,
			(unsigned)cell[1], (unsigned)cell[0]);
	sum = 0;
	for(i = 2; i < len/4; i++)
		sum += cell[i];
	if(sum != cell[1] && !(cell[1] == 0xFFFFFFFF && sum > cell[1]))
		fatal("%s: the bins add up to %llu ticks, not the %u kernel ticks", path,
			(unsigned long long)sum, (unsigned)cell[1]);
	return cell;
}

/* Parse a clock rate: a decimal number from 1 to 1000000, else 0. */
static unsigned long
parsehz(const char *s)
{
	unsigned long hz;
	char *end;

	if(*s < '0' || *s > '9')
		return 0;
	hz = strtoul(s, &end, 10);
	if(*end != '\0' || hz > 1000000)
		return 0;
	return hz;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next blank-separated word at *p, NUL-terminated, or NULL at the end. */
static char*
word(char **p)
{
	char *s, *w;

	for(s = *p; blank(*s); s++)
		;
	if(*s == '\0')
		return NULL;
	w = s;
	while(*s != '\0' && !blank(*s))
		s++;
	if(*s != '\0')
		*s++ = '\0';
	*p = s;
	return w;
}

/*
 * The clock rate in the kpctl status line at path, such as
 * `off hz 100 bin 8 text 0xc0100000 etext 0xc0112340': a state,
 * then pairs of key and value.  0 if it can't be read or says none.
 */
static unsigned long
ctlhz(const char *path)
{
	char *buf, *p, *key, *val;
	unsigned long hz;
	size_t len;

	buf = (char*)readfile(path, 0, &len);
	if(buf == NULL)
		return 0;
	hz = 0;
	p = buf;
	if(word(&p) != NULL){
		while((key = word(&p)) != NULL && (val = word(&p)) != NULL){
			if(strcmp(key, "hz") == 0){
				hz = parsehz(val);
				break;
			}
		}
	}
	free(buf);
	return hz;
}

/* The clock rate of the kernel that made the data at datapath. */
static unsigned long
kernelhz(const char *datapath)
{
	const char *slash;
	char *ctl;
	unsigned long hz;
	size_t dirlen;

	slash = strrchr(datapath, '/');
	dirlen = slash != NULL ? (size_t)(slash - datapath) + 1 : 0;
	ctl = emalloc(dirlen + sizeof "kpctl");
	memcpy(ctl, datapath, dirlen);
	strcpy(ctl + dirlen, "kpctl");
	hz = ctlhz(ctl);
	free(ctl);
	if(hz == 0)
		hz = ctlhz("/dev/kpctl");
	if(hz == 0)
		hz = DEFHZ;
	return hz;
}

/* Print the profile's first lines: the ticks, where text starts, and HZ. */
void
totals(Symtab *k, const uint32_t *cell, unsigned long hz)
{
	printf("total: %u\tin kernel text: %u\toutside kernel text: %lld\n",
		(unsigned)cell[0], (unsigned)cell[1], (long long)cell[0] - (long long)cell[1]);
	printf("KTZERO %08x\tHZ %lu\n", (unsigned)k->textbase, hz);
}

/*
 * Print the profile: the totals, then a row for each busy symbol, or
 * with lines, for each busy source line of the kernel at path.
 */
static void
report(Symtab *k, const char *path, const uint32_t *cell, uint64_t nbins, unsigned long hz, int lines)
{
	uint64_t i;

#if !__STDC_HOSTED__
	if(lines)
		fatal("-l: %s: source lines need the DWARF library, which only the host's kprof has", path);
#endif
#if __STDC_HOSTED__
	if(lines){
		srclines(k, path, cell, nbins, hz);
		return;
	}
#endif
	totals(k, cell, hz);
	for(i = 0; i < nbins; i++)
		if(cell[2+i] != 0)
			symcredit(k, k->textbase + i*BINSIZE, cell[2+i]);
	symprint(k, cell[1], hz);
}

/*
 * The stacks in kpstack, named by the symbols of k, after checking
 * that they add up to the kernel ticks in kpdata if it is given.
 */
static void
loadstacks(Stacks *st, Symtab *k, const char *kpstack, const char *kpdata)
{
	uint32_t *cell;

	stackload(st, k, kpstack);
	if(kpdata == NULL)
		return;
	cell = readdata(kpdata, ((uint64_t)k->textsize + BINSIZE-1) / BINSIZE);
	if(st->total != cell[1] && !(cell[1] == 0xFFFFFFFF && st->total > cell[1]))
		fatal("%s: the stacks add up to %llu ticks, not the %u kernel ticks of %s",
			kpstack, (unsigned long long)st->total, (unsigned)cell[1], kpdata);
	free(cell);
}

int
main(int argc, char *argv[])
{
	Symtab k;
	Stacks st;
	uint32_t *cell;
	uint64_t nbins;
	unsigned long hz;
	const char *arg, *err, *fn;
	int i, mode;

	argv0 = "kprof";
	hz = 0;
	mode = 0;
	fn = NULL;
	for(i = 1; i < argc && argv[i][0] == '-'; i++){
		if(strcmp(argv[i], "--") == 0){
			i++;
			break;
		}
		if(strcmp(argv[i], "-s") == 0 || strcmp(argv[i], "-g") == 0 || strcmp(argv[i], "-l") == 0
		|| strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-D") == 0){
			if(mode != 0)
				usage();
			mode = argv[i][1];
			continue;
		}
		if(strcmp(argv[i], "-a") == 0){
			if(mode != 0 || i+1 >= argc)
				usage();
			mode = 'a';
			fn = argv[++i];
			continue;
		}
		if(argv[i][1] != 'h')
			usage();
		if(argv[i][2] != '\0')
			arg = argv[i] + 2;
		else if(i+1 < argc)
			arg = argv[++i];
		else
			usage();
		hz = parsehz(arg);
		if(hz == 0)
			fatal("bad hz: %s", arg);
	}
	if(mode == 's' || mode == 'g'){
		if(hz != 0 || argc - i < 2 || argc - i > 3)
			usage();
	}else if(mode == 'D'){
		if(argc - i != 3)
			usage();
	}else if(argc - i != 2 && !(mode == 'p' && argc - i == 3))
		usage();
#if !__STDC_HOSTED__
	if(mode == 'p')
		fatal("-p: pprof's format needs protobuf-c, which only the host's kprof has");
	if(mode == 'a')
		fatal("-a %s: the disassembly needs objdump, which only the host has", fn);
	if(mode == 'D')
		fatal("-D: the difference is the host's kprof's");
#endif

	if((err = symload(&k, argv[i])) != NULL)
		fatal("%s", err);
	if(mode == 's' || mode == 'g'){
		loadstacks(&st, &k, argv[i+1], argc - i == 3 ? argv[i+2] : NULL);
		if(mode == 's')
			stackprint(&st);
		else if(st.total == 0)
			fatal("%s: no ticks to draw", argv[i+1]);
		else
			flamegraph(&st);
		stackfree(&st);
		symfree(&k);
		return 0;
	}
	nbins = ((uint64_t)k.textsize + BINSIZE-1) / BINSIZE;
	cell = readdata(argv[i+1], nbins);
	if(hz == 0)
		hz = kernelhz(argv[i+1]);
#if __STDC_HOSTED__
	if(mode == 'p'){
		if(argc - i == 3)
			loadstacks(&st, &k, argv[i+2], argv[i+1]);
		kpprof(&k, cell, nbins, hz, argc - i == 3 ? &st : NULL, "not named by kpctl");
		if(argc - i == 3)
			stackfree(&st);
	}else if(mode == 'a')
		annotate(&k, cell, nbins, fn);
	else if(mode == 'D'){
		uint32_t *after = readdata(argv[i+2], nbins);

		kpdiff(&k, cell, after, nbins);
		free(after);
	}else
#endif
	report(&k, argv[i], cell, nbins, hz, mode == 'l');
	free(cell);
	symfree(&k);
	return 0;
}
