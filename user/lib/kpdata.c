/*
 * kpdata, the kernel profile's counts (kprof(3), kern/kprof.h): read
 * and checked, its clock rate found in kpctl, and printed as the flat
 * profile.  Shared by kprof, its comparison with an exact count, and
 * the host's tools.
 *
 * The same source builds for the guest and for the host, so it uses
 * only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "kpdata.h"

_Static_assert(KPCELL == sizeof(uint32_t), "a kpdata cell is a uint32_t");

static char	kpclockname[16];	/* the clock kpctl names, if any: kpclock notes it, kptotals prints it */

/* What the clocks kpctl may name measure. */
static const char *clocks[][2] = {
	{ "virtual",	"one instruction a nanosecond, -d" },
	{ "host",	"TCG, not the kernel's cost" },
	{ "exact",	"instructions" },
};

/* A cell: KPCELL bytes, most significant first. */
static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0]<<24 | (uint32_t)p[1]<<16 | (uint32_t)p[2]<<8 | p[3];
}

/* The number of bins in the kernel text of k. */
uint64_t
kpnbins(Symtab *k)
{
	return ((uint64_t)k->textsize + KPBINSIZE-1) / KPBINSIZE;
}

/*
 * Read the profile at path, for a kernel text of nbins bins, into an
 * array of counts, and check that it has a cell for each bin (a file
 * cut short says where) and that they add up: the kernel ticks are
 * some of all the ticks, and the bins share out the kernel ticks (a
 * count stops at 2^32-1 rather than wrap, so the bins may add up to
 * more than a kernel count that has stopped).  Exits with a message
 * if they do not.  The kernel's kpdata has KPSELF cells more, kprof's
 * own cost; the array always has them, 0 for a file without (an exact
 * count's).
 */
uint32_t*
kpread(const char *path, uint64_t nbins)
{
	uint8_t *buf;
	uint32_t *cell;
	uint64_t sum, want;
	size_t len, i;

	want = KPCELL*(nbins + KPBIN);
	buf = readfile(path, want, &len);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	if(len < want)
		fatal("%s: truncated at byte %lu of the %llu that kernel text's %llu bins take (or of another kernel)", path,
			(unsigned long)len, (unsigned long long)want, (unsigned long long)nbins);
	if(len > want && len != want + KPCELL*KPSELF)
		fatal("%s: %lu bytes, more than the %llu of kernel text's %llu bins", path,
			(unsigned long)len, (unsigned long long)want, (unsigned long long)nbins);
	cell = calloc(nbins + KPBIN + KPSELF, sizeof cell[0]);
	if(cell == NULL)
		fatal("out of memory");
	for(i = 0; i < len/KPCELL; i++)
		cell[i] = be32(buf + KPCELL*i);
	free(buf);
	if(cell[KPKERNEL] > cell[KPTOTAL])
		fatal("%s: more kernel ticks (%u) than ticks (%u)", path,
			(unsigned)cell[KPKERNEL], (unsigned)cell[KPTOTAL]);
	sum = 0;
	for(i = KPBIN; i < KPBIN + nbins; i++)
		sum += cell[i];
	if(sum != cell[KPKERNEL] && !(cell[KPKERNEL] == 0xFFFFFFFF && sum > cell[KPKERNEL]))
		fatal("%s: the bins add up to %llu ticks, not the %u kernel ticks", path,
			(unsigned long long)sum, (unsigned)cell[KPKERNEL]);
	return cell;
}

/*
 * The decimal number that is the whole of [s, e), in *v: 0; -1 if it
 * is empty or holds anything but digits (no sign, no blank); -2 if it
 * is digits alone but over max, however many.  The formatters' one
 * parser of decimal numbers, for the host's tools and the guest's
 * alike: the files' counts (kpstack, kpproc) and -h.
 */
int
kpdecimal(const char *s, const char *e, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	unsigned d;
	int over = 0;

	if(s == e)
		return -1;
	for(; s < e; s++){
		if(*s < '0' || *s > '9')
			return -1;
		d = *s - '0';
		if(over || d > max || n > (max - d) / 10)
			over = 1;
		else
			n = n*10 + d;
	}
	if(over)
		return -2;
	*v = n;
	return 0;
}

/* The value of hex digit c, either case, or -1. */
int
kphexdigit(int c)
{
	if(c >= '0' && c <= '9')
		return c - '0';
	if(c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if(c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A clock rate: a decimal number from 1 to 1000000, else 0. */
unsigned long
kpparsehz(const char *s)
{
	uint64_t hz;

	if(kpdecimal(s, s + strlen(s), 1000000, &hz) < 0)
		return 0;
	return hz;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
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
 * The whole of s as a number below 2^32 in *v: 0x and hex digits, or
 * decimal digits (a leading 0 is no octal), and nothing else: no sign,
 * no blank, no junk after, so that a kpctl saying text
 * 0xc0100000junk would not pass for kprof's text.
 */
static int
number(const char *s, unsigned long *v)
{
	uint64_t n = 0;
	int d;

	*v = 0;
	if(s[0] != '0' || s[1] != 'x'){
		if(kpdecimal(s, s + strlen(s), 0xFFFFFFFF, &n) < 0)
			return 0;
		*v = n;
		return 1;
	}
	if(s[2] == '\0')
		return 0;
	for(s += 2; *s != '\0'; s++){
		if((d = kphexdigit(*s)) < 0 || n > 0xFFFFFFF)
			return 0;
		n = n<<4 | d;
	}
	*v = n;
	return 1;
}

/*
 * The kpctl status file of the kernel that made the data at datapath:
 * the kpctl beside it, else /dev/kpctl.  Its first line is a state,
 * then pairs of key and value, such as
 *	off hz 100 bin 8 text 0xc0100000 etext 0xc0112340 cpus 2 cut 0
 * Returns the line in a buffer to free, its path in *path, or NULL.
 */
static char*
kpctlline(const char *datapath, char **path)
{
	const char *slash;
	char *ctl, *buf, *nl;
	size_t dirlen, len;

	slash = strrchr(datapath, '/');
	dirlen = slash != NULL ? (size_t)(slash - datapath) + 1 : 0;
	ctl = malloc(dirlen + sizeof "/dev/kpctl");
	if(ctl == NULL)
		fatal("out of memory");
	memcpy(ctl, datapath, dirlen);
	strcpy(ctl + dirlen, "kpctl");
	buf = (char*)readfile(ctl, 0, &len);
	if(buf == NULL){
		strcpy(ctl, "/dev/kpctl");
		buf = (char*)readfile(ctl, 0, &len);
	}
	if(buf == NULL){
		free(ctl);
		return NULL;
	}
	if((nl = strchr(buf, '\n')) != NULL)
		*nl = '\0';
	*path = ctl;
	return buf;
}

/*
 * The clock rate of the profile at datapath, of the kernel k: hz if
 * it is not 0 (kprof's -h), else what kpctl says, else 0, not known.
 * What kpctl says is checked against kprof's own: the bin size of
 * kern/kprof.h, the kernel's text, and hz.  Exits with a message if
 * they differ.
 */
unsigned long
kpclock(Symtab *k, const char *datapath, unsigned long hz)
{
	char *buf, *path, *p, *key, *val;
	unsigned long v, khz;
	uint32_t end;

	buf = kpctlline(datapath, &path);
	if(buf == NULL)
		return hz;
	khz = 0;
	end = k->textbase + k->textsize;
	p = buf;
	if(word(&p) != NULL){
		while((key = word(&p)) != NULL){
			if((val = word(&p)) == NULL)
				fatal("%s: %s has no value", path, key);
			if(strcmp(key, "clock") == 0 && strlen(val) < sizeof kpclockname)
				strcpy(kpclockname, val);
			if(strcmp(key, "hz") != 0 && strcmp(key, "bin") != 0
			&& strcmp(key, "text") != 0 && strcmp(key, "etext") != 0)
				continue;
			if(!number(val, &v))
				fatal("%s: %s `%s' is not a number", path, key, val);
			if(strcmp(key, "hz") == 0 && (khz = kpparsehz(val)) == 0)
				fatal("%s: hz %s is not a clock rate (1 to 1000000)", path, val);
			else if(strcmp(key, "bin") == 0 && v != KPBINSIZE)
				fatal("%s: bins of %s bytes, but kprof's are %d", path, val, KPBINSIZE);
			else if(strcmp(key, "text") == 0 && v != k->textbase)
				fatal("%s: kernel text at %s, but %s's is at %#x: another kernel",
					path, val, k->path, (unsigned)k->textbase);
			else if(strcmp(key, "etext") == 0 && v != end)
				fatal("%s: kernel text ends at %s, but %s's at %#x: another kernel",
					path, val, k->path, (unsigned)end);
		}
	}
	if(hz != 0 && khz != 0 && hz != khz)
		fatal("-h %lu, but %s says hz %lu", hz, path, khz);
	free(buf);
	free(path);
	return hz != 0 ? hz : khz;
}

/*
 * Print the profile's first lines: the ticks, kprof's own cost among
 * them, where text starts, and HZ, or with none known (hz 0), that the
 * rows are in ticks; then the clock, if kpctl named one.
 */
void
kptotals(Symtab *k, const uint32_t *cell, unsigned long hz)
{
	uint32_t self = cell[KPBIN + kpnbins(k)];

	printf("total: %llu\tin kernel text: %llu\toutside kernel text: %lld\n",
		(unsigned long long)cell[KPTOTAL] + self, (unsigned long long)cell[KPKERNEL] + self,
		(long long)cell[KPTOTAL] - (long long)cell[KPKERNEL]);
	if(hz == 0)
		printf("KTZERO %08x\tHZ unknown (no -h, no kpctl): ticks, not ms\n", (unsigned)k->textbase);
	else
		printf("KTZERO %08x\tHZ %lu\n", (unsigned)k->textbase, hz);
	if(kpclockname[0] != '\0')
		printf("clock %s\n", kpclockdesc());
}

/*
 * The clock that kpctl named, as kptotals prints it: its name and,
 * for a clock kprof knows, what it measures; or "not named by kpctl".
 */
const char*
kpclockdesc(void)
{
	static char buf[sizeof kpclockname + 64];
	size_t i;

	if(kpclockname[0] == '\0')
		return "not named by kpctl";
	snprintf(buf, sizeof buf, "%s", kpclockname);
	for(i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
		if(strcmp(kpclockname, clocks[i][0]) == 0)
			snprintf(buf, sizeof buf, "%s (%s)", kpclockname, clocks[i][1]);
	return buf;
}

/* kprof's own cost as a row of its own, kprof, among k's symbols. */
static void
kpselfrow(Symtab *k, uint32_t self)
{
	Sym *s;

	if(self == 0)
		return;
	s = realloc(k->sym, (k->nsym + 1) * sizeof s[0]);
	if(s == NULL)
		fatal("out of memory");
	memset(&s[k->nsym], 0, sizeof s[0]);
	s[k->nsym].name = "kprof";
	s[k->nsym].rank = 1;
	s[k->nsym].ticks = self;
	k->sym = s;
	k->nsym++;
}

/* Print the flat profile of cells: the totals, then a row for each busy function. */
void
kpflat(Symtab *k, const uint32_t *cell, unsigned long hz)
{
	uint64_t i, nbins;

	kptotals(k, cell, hz);
	nbins = kpnbins(k);
	for(i = 0; i < nbins; i++)
		if(cell[KPBIN+i] != 0)
			symcredit(k, k->textbase + i*KPBINSIZE, cell[KPBIN+i]);
	kpselfrow(k, cell[KPBIN+nbins]);
	symprint(k, (uint64_t)cell[KPKERNEL] + cell[KPBIN+nbins], hz);
}
