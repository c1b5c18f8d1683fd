/*
 * Call stacks, for kprof -s and -g: read kpstack (kprof(3)), name each
 * frame by the kernel's symbols, or a user frame by the program's, and
 * fold the stacks, root first, merging those whose names are the same.
 *
 * A line of kpstack is `count pc0 pc1 ... pcK': a decimal count of
 * ticks, then 1 to KPMAXFRAMES pcs in hex, leaf first: the kernel's
 * stack, then, after the mark KPUMARK, the user's (kern/kprof.h).  The
 * first pc of each is where the tick, or the trap into the kernel,
 * found the CPU; the others are return addresses, so each is named
 * by the byte before it, the call, which may be the last instruction
 * of its function.  A pc is credited as the flat profile credits it (to
 * the function whose text holds it, padding to the function before; a
 * kernel leaf, by the first byte of its bin);
 * a pc before the first symbol, or a user pc when no program is given
 * or outside its text, is named by its address in hex.  The mark is no
 * frame of the folded stack, but for a line of the mark alone, the
 * user ticks that kept no stack: that is the frame [user].
 *
 * Every line ends with a newline: a file that does not was cut short,
 * and says where.  Anything else in the file is an error, reported
 * with its line.  The time taken is linear in the file, and n log n in
 * its lines for the sorts; a name is compared with the others once,
 * not once a frame.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kpdata.h"
#include "kpstack.h"

enum {
	HEXNAME		= sizeof "0xc0100000",	/* bytes of a made-up name, NUL and all */
	NOKEY		= 0xFFFFFFFF,	/* a pc of no symbol */
	QUOTE		= 24,	/* bytes of a bad word quoted in a message */
};

typedef struct Name Name;

/* A name that a frame uses, and the key of the frames that use it. */
struct Name {
	const char	*s;
	uint32_t	key;		/* symbol number, or nsym + pc number for a made-up name */
};

/* Say what is wrong at line of path, and exit. */
static void
bad(const char *path, unsigned long line, const char *fmt, ...)
{
	char msg[160];
	va_list arg;

	va_start(arg, fmt);
	vsnprintf(msg, sizeof msg, fmt, arg);
	va_end(arg);
	fatal("%s:%lu: %s", path, line, msg);
}

/* A word of the input fit for a message: printable, and short. */
static const char*
quote(const char *p, const char *end)
{
	static char q[QUOTE + 4];
	int i;

	for(i = 0; i < QUOTE && p + i < end; i++)
		q[i] = p[i] >= ' ' && p[i] < 0x7f ? p[i] : '?';
	if(p + i < end)
		q[i++] = '.', q[i++] = '.', q[i++] = '.';
	q[i] = '\0';
	return q;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The end of the word at p: the next blank, newline or end. */
static const char*
wordend(const char *p, const char *end)
{
	while(p < end && !blank(*p) && *p != '\n')
		p++;
	return p;
}

/*
 * Read the lines of kpstack into s->path, each with the count and the
 * number of its frames, and their pcs, in order, into s->frame.
 */
static void
parse(Stacks *s, Symtab *k, const char *path, const char *p, const char *end)
{
	const char *e, *q;
	size_t npath, cappath, nframe, capframe;
	unsigned long line;
	uint64_t count;
	uint32_t pc;
	int n, d, user;

	npath = cappath = nframe = capframe = 0;
	for(line = 1; p < end; line++){
		while(p < end && blank(*p))
			p++;
		if(p == end || *p == '\n')
			bad(path, line, "an empty line, not `count pc ...'");
		e = wordend(p, end);
		if((d = kpdecimal(p, e, 0xFFFFFFFF, &count)) == -1)
			bad(path, line, "count `%s' is not a decimal number", quote(p, e));
		if(d == -2)
			bad(path, line, "count `%s' is more than 2^32-1", quote(p, e));
		for(n = 0, user = -1;; n++){
			for(p = e; p < end && blank(*p); p++)
				;
			if(p == end || *p == '\n')
				break;
			e = wordend(p, end);
			if(n == KPMAXFRAMES)
				bad(path, line, "more than %d frames", KPMAXFRAMES);
			q = p;
			if(e - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
				q += 2;
			if(e - q > KPPCDIGITS)
				bad(path, line, "pc `%s' is longer than %d hex digits", quote(p, e), KPPCDIGITS);
			for(pc = 0; q < e && (d = kphexdigit(*q)) >= 0; q++)
				pc = pc<<4 | d;
			if(q != e)
				bad(path, line, "pc `%s' is not a hex number", quote(p, e));
			if(pc == KPUMARK && user >= 0)
				bad(path, line, "two marks of the user stack (%08x)", (unsigned)KPUMARK);
			if(pc == KPUMARK)
				user = n;
			/* A return address may be the end of text: its call is the last instruction. */
			else if(user < 0 && (n == 0 ? pc - k->textbase >= k->textsize : pc - 1 - k->textbase >= k->textsize))
				bad(path, line, "pc %08x is outside kernel text (%08x to %08x)",
					(unsigned)pc, (unsigned)k->textbase, (unsigned)(k->textbase + k->textsize));
			s->frame = grow(s->frame, &capframe, nframe + 1, sizeof s->frame[0]);
			s->frame[nframe++] = pc;
		}
		if(n == 0)
			bad(path, line, "a count and no pcs");
		s->path = grow(s->path, &cappath, npath + 1, sizeof s->path[0]);
		s->path[npath].count = count;
		s->path[npath].n = n;
		npath++;
		s->total += count;
		if(p < end)
			p++;
	}
	if(npath == 0)
		fatal("%s: no stacks: the file is empty", path);
	if(npath > 0x7FFFFFFF)
		fatal("%s: more than 2^31 stacks", path);
	s->npath = npath;
	n = 0;
	for(npath = 0; npath < (size_t)s->npath; npath++){
		s->path[npath].f = s->frame + n;
		n += s->path[npath].n;
	}
}

static int
bynum(const void *va, const void *vb)
{
	uint32_t a = *(const uint32_t*)va, b = *(const uint32_t*)vb;

	return a < b ? -1 : a > b;
}

/* The place of x in a[0..n), sorted, which holds it. */
static uint32_t
find(const uint32_t *a, size_t n, uint32_t x)
{
	size_t lo, hi, mid;

	lo = 0;
	hi = n;
	while(hi - lo > 1){
		mid = (lo + hi) / 2;
		if(a[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int
byname(const void *va, const void *vb)
{
	const Name *a = va, *b = vb;
	int c;

	c = strcmp(a->s, b->s);
	if(c != 0)
		return c;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* Order paths frame by frame, root first; a path before those it begins. */
static int
bypath(const void *va, const void *vb)
{
	const Path *a = va, *b = vb;
	int i;

	for(i = 0; i < a->n && i < b->n; i++)
		if(a->f[i] != b->f[i])
			return a->f[i] < b->f[i] ? -1 : 1;
	return a->n - b->n;
}

/*
 * The key of the symbol that names pc, a frame of a path: a kernel
 * symbol's number, or k's count and a user symbol's number; NOKEY for a
 * pc of no symbol.  A leaf is named by its pc, a return address by the
 * call before it.  A kernel leaf is named by its bin's first byte, as
 * the flat profile credits the bin, so that a function's self ticks
 * are its row there even where a bin holds the ends of two functions.
 */
static uint32_t
symkey(Symtab *k, Symtab *u, uint32_t pc, int user, int leaf)
{
	Symtab *t = user ? u : k;
	int sym;

	if(t == NULL)
		return NOKEY;
	pc -= !leaf;
	if(!user && leaf)
		pc -= (pc - t->textbase) % KPBINSIZE;
	if(user && pc - t->textbase >= t->textsize)
		return NOKEY;
	sym = symfind(t, pc);
	if(t->sym[sym].rank == 0)
		return NOKEY;
	return user ? k->nsym + sym : sym;
}

/*
 * Turn each frame's pc into the number of its name: a key first (as
 * symkey, or for a pc of no symbol the symbols' count + the pc's number
 * among those, or for the mark the last), then the key's place among
 * the names in use, sorted, where symbols of one name share a place.
 * Each path is reversed to be root first on the way, and its mark left
 * out unless it is alone.
 */
static void
name(Stacks *s, Symtab *k, Symtab *u)
{
	uint32_t *unk, *rank, *f, t, nsym, key;
	Name *used;
	size_t nunk, nkey, nused, nf, i;
	int j, n, m, user;

	nsym = k->nsym + (u != NULL ? u->nsym : 0);
	nf = 0;
	for(j = 0; j < s->npath; j++)
		nf += s->path[j].n;
	unk = malloc((nf + 1) * sizeof unk[0]);
	if(unk == NULL)
		fatal("out of memory");
	nunk = 0;
	for(j = 0; j < s->npath; j++){
		f = s->path[j].f;
		for(n = 0, user = -1; n < s->path[j].n; n++)
			if(f[n] == KPUMARK)
				user = n;
			else if(symkey(k, u, f[n], user >= 0, n == 0 || n == user + 1) == NOKEY)
				unk[nunk++] = f[n];
	}
	qsort(unk, nunk, sizeof unk[0], bynum);
	for(i = 0, n = 0; i < nunk; i++)
		if(n == 0 || unk[n-1] != unk[i])
			unk[n++] = unk[i];
	nunk = n;

	nkey = nsym + nunk + 1;
	rank = malloc(nkey * sizeof rank[0]);
	used = malloc((nkey + 1) * sizeof used[0]);
	s->hex = malloc(nunk * HEXNAME + 1);
	if(rank == NULL || used == NULL || s->hex == NULL)
		fatal("out of memory");
	for(i = 0; i < nkey; i++)
		rank[i] = 0xFFFFFFFF;
	nused = 0;
	for(j = 0; j < s->npath; j++){
		f = s->path[j].f;
		for(n = 0, user = -1; n < s->path[j].n; n++){
			if(f[n] == KPUMARK){
				user = n;
				key = nkey - 1;
			}else if((key = symkey(k, u, f[n], user >= 0, n == 0 || n == user + 1)) == NOKEY)
				key = nsym + find(unk, nunk, f[n]);
			f[n] = key;
			if(rank[key] != 0xFFFFFFFF)
				continue;
			rank[key] = 0;
			used[nused].key = key;
			if(key == nkey - 1)
				used[nused].s = "[user]";
			else if(key >= nsym){
				i = key - nsym;
				snprintf(s->hex + i*HEXNAME, HEXNAME, "0x%08x", (unsigned)unk[i]);
				used[nused].s = s->hex + i*HEXNAME;
			}else if(key >= (uint32_t)k->nsym)
				used[nused].s = u->sym[key - k->nsym].name;
			else
				used[nused].s = k->sym[key].name;
			nused++;
		}
	}
	qsort(used, nused, sizeof used[0], byname);
	s->name = malloc((nused + 1) * sizeof s->name[0]);
	if(s->name == NULL)
		fatal("out of memory");
	s->nname = 0;
	for(i = 0; i < nused; i++){
		if(s->nname == 0 || strcmp(s->name[s->nname-1], used[i].s) != 0)
			s->name[s->nname++] = used[i].s;
		rank[used[i].key] = s->nname - 1;
	}
	for(j = 0; j < s->npath; j++){
		f = s->path[j].f;
		n = s->path[j].n;
		for(i = 0; i < (size_t)n/2; i++){
			t = f[i];
			f[i] = f[n-1-i];
			f[n-1-i] = t;
		}
		for(i = 0, m = 0; i < (size_t)n; i++)
			if(f[i] != nkey - 1 || n == 1)
				f[m++] = rank[f[i]];
		s->path[j].n = m;
	}
	free(used);
	free(rank);
	free(unk);
}

/*
 * Sort the paths and merge those of the same names; drop those with no
 * ticks, and find the deepest of the rest.
 */
static void
merge(Stacks *s)
{
	Path *p;
	int i, n;

	p = s->path;
	qsort(p, s->npath, sizeof p[0], bypath);
	n = 0;
	for(i = 0; i < s->npath; i++){
		if(n > 0 && bypath(&p[n-1], &p[i]) == 0)
			p[n-1].count += p[i].count;
		else
			p[n++] = p[i];
	}
	s->npath = 0;
	for(i = 0; i < n; i++){
		if(p[i].count == 0)
			continue;
		p[s->npath++] = p[i];
		if(p[i].n > s->depth)
			s->depth = p[i].n;
	}
}

/*
 * Read the kpstack file at path into s, its frames named by the
 * symbols of k, the kernel, and u, the program (NULL for none),
 * folded and merged.  Exits with a message on any error.
 */
void
stackload(Stacks *s, Symtab *k, Symtab *u, const char *path)
{
	char *buf, *nul;
	size_t len;

	memset(s, 0, sizeof *s);
	buf = (char*)readfile(path, 0, &len);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	/*
	 * No newline at the end: a file cut short, or, with a NUL in it, a
	 * binary file given in a kpstack's place, such as a kpdata.
	 */
	if(len > 0 && buf[len-1] != '\n'){
		if((nul = memchr(buf, '\0', len)) != NULL)
			fatal("%s: not a kpstack: a NUL byte at offset %lu", path, (unsigned long)(nul - buf));
		fatal("%s: truncated at byte %lu: the last line has no newline", path, (unsigned long)len);
	}
	parse(s, k, path, buf, buf + len);
	free(buf);
	name(s, k, u);
	merge(s);
}

/*
 * Check that the stacks s, from path, add up to the ticks of the
 * kpdata cells from kpdata (a count stopped at 2^32-1 may be less).
 */
void
stackcheck(Stacks *s, const char *path, const uint32_t *cell, const char *kpdata)
{
	if(s->total != cell[KPTOTAL] && !(cell[KPTOTAL] == 0xFFFFFFFF && s->total > cell[KPTOTAL]))
		fatal("%s: the stacks add up to %llu ticks, not the %u ticks of %s",
			path, (unsigned long long)s->total, (unsigned)cell[KPTOTAL], kpdata);
}

/* Print a name as one word of folded output: no `;', blank or control byte. */
void
putname(const char *s)
{
	size_t n;

	while(*s != '\0'){
		for(n = 0; s[n] != '\0' && s[n] != ';' && (unsigned char)s[n] > ' ' && s[n] != 0x7f; n++)
			;
		fwrite(s, 1, n, stdout);
		s += n;
		if(*s != '\0'){
			putchar('_');
			s++;
		}
	}
}

/* Print the folded stacks, a line each: `root;...;leaf count'. */
void
stackprint(Stacks *s)
{
	Path *p;
	int i, j;

	for(i = 0; i < s->npath; i++){
		p = &s->path[i];
		for(j = 0; j < p->n; j++){
			if(j > 0)
				putchar(';');
			putname(s->name[p->f[j]]);
		}
		printf(" %llu\n", (unsigned long long)p->count);
	}
}

static int
busier(const void *a, const void *b)
{
	const Path *x = *(Path**)a, *y = *(Path**)b;

	if(x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Print the max busiest folded stacks, busiest first, as stackprint. */
void
stacktop(Stacks *s, int max)
{
	Path **p;
	int i, j;

	if((p = malloc((s->npath + 1) * sizeof p[0])) == NULL)
		fatal("out of memory");
	for(i = 0; i < s->npath; i++)
		p[i] = &s->path[i];
	qsort(p, s->npath, sizeof p[0], busier);
	for(i = 0; i < s->npath && i < max; i++){
		for(j = 0; j < p[i]->n; j++){
			if(j > 0)
				putchar(';');
			putname(s->name[p[i]->f[j]]);
		}
		printf(" %llu\n", (unsigned long long)p[i]->count);
	}
	free(p);
}

/* Free what stackload allocated. */
void
stackfree(Stacks *s)
{
	free(s->path);
	free(s->frame);
	free(s->name);
	free(s->hex);
	memset(s, 0, sizeof *s);
}
