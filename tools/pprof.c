/*
 * Write a profile in pprof's format, for kprof -p and prof -p on the
 * host: a gzipped profile.proto message, encoded by the code that
 * protobuf-c generates from pprof's own profile.proto (o/proto).
 *
 * Each sample has two values, `samples/count' (clock ticks) and
 * `cpu/nanoseconds' (the ticks at the clock's period), and its stack
 * of locations, leaf first.  A location is a pc of the program's text,
 * in its one mapping, with the function whose text holds it and, from
 * the program's DWARF line table (elfutils' libdw) where it has one,
 * the source file and line of the pc.  A function's file and line are
 * those of its first byte.
 *
 * Strings, functions and locations are kept once each, found again
 * through a balanced tree of the strings, so that the time is n log n
 * in what is put in whatever the names: a hash table's probes, which
 * names made to collide (pcs of a kpstack, say) make quadratic, are
 * not.  Files are named as tools/srcline.c names them:
 * relative to the directory the program was compiled in, if inside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <zlib.h>
#include "profile.pb-c.h"
#include "pprof.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef struct Strnode Strnode;

enum { Left, Right };	/* a Strnode's kids */

/* A string's place in the tree of strings, and what was made of it. */
struct Strnode {
	size_t	kid[2];		/* string numbers of the smaller (Left) and larger (Right), 0 for none */
	int	red;		/* the link from its parent is red */
	uint64_t	func;		/* function id of the string as a name, or 0 */
	uint64_t	loc;		/* ppfunc's location id, or 0 */
};

/* What is put in, in arrays that grow; the message points into them at the end. */
struct Pprof {
	Symtab	*t;		/* the program's symbols */
	unsigned long	hz;		/* clock ticks a second */
	Dwarf	*dw;		/* its DWARF, or NULL */
	int	fd;		/* dw's file */
	char	**str;		/* the string table; str[0] is "" */
	size_t	nstr, capstr;
	Strnode	*node;		/* node[i]: string i's, in a left-leaning red-black tree */
	size_t	capnode;
	size_t	root;		/* the tree's, 0 for none: str[0], "", is never in it */
	char	**owned;		/* strings allocated here, freed at the end */
	size_t	nowned, capowned;
	Function	*func;
	size_t	nfunc, capfunc;
	Location	*loc;
	Line	*line;		/* loc[i]'s line */
	size_t	nloc, caploc;
	Sample	*sample;
	size_t	nsample, capsample;
	uint64_t	*stack;		/* the samples' location ids, one after another */
	size_t	nstack, capstack;
	int64_t	*value;		/* the samples' two values each */
	size_t	capvalue;
	int64_t	*comment;		/* string numbers */
	size_t	ncomment, capcomment;
};

/* Sedgewick's left-leaning red-black tree: at most 2 log n strings deep. */
static int
isred(Pprof *p, size_t i)
{
	return i != 0 && p->node[i].red;
}

/* Rotate h's child on side d up in its place: the subtree's new root. */
static size_t
rotate(Pprof *p, size_t h, int d)
{
	size_t x;

	x = p->node[h].kid[d];
	p->node[h].kid[d] = p->node[x].kid[!d];
	p->node[x].kid[!d] = h;
	p->node[x].red = p->node[h].red;
	p->node[h].red = 1;
	return x;
}

/* Put string i, not in the tree, under h; the subtree's new root. */
static size_t
put(Pprof *p, size_t h, size_t i)
{
	Strnode *n;
	int d;

	if(h == 0)
		return i;
	d = strcmp(p->str[i], p->str[h]) < 0 ? Left : Right;
	p->node[h].kid[d] = put(p, p->node[h].kid[d], i);
	n = &p->node[h];
	if(isred(p, n->kid[Right]) && !isred(p, n->kid[Left]))
		h = rotate(p, h, Right);
	n = &p->node[h];
	if(isred(p, n->kid[Left]) && isred(p, p->node[n->kid[Left]].kid[Left]))
		h = rotate(p, h, Left);
	n = &p->node[h];
	if(isred(p, n->kid[Left]) && isred(p, n->kid[Right])){
		n->red = !n->red;
		p->node[n->kid[Left]].red = 0;
		p->node[n->kid[Right]].red = 0;
	}
	return h;
}

/* The number of string s in the table, put there (not copied) if it is new. */
static int64_t
strnum(Pprof *p, const char *s)
{
	size_t h, i;
	int c;

	if(*s == '\0')
		return 0;
	for(h = p->root; h != 0; h = p->node[h].kid[c < 0 ? Left : Right])
		if((c = strcmp(s, p->str[h])) == 0)
			return h;
	p->str = grow(p->str, &p->capstr, p->nstr + 1, sizeof p->str[0]);
	p->node = grow(p->node, &p->capnode, p->nstr + 1, sizeof p->node[0]);
	i = p->nstr++;
	p->str[i] = (char*)s;
	memset(&p->node[i], 0, sizeof p->node[i]);
	p->node[i].red = 1;
	p->root = put(p, p->root, i);
	p->node[p->root].red = 0;
	return i;
}

/* The number of a string that is allocated here. */
static int64_t
ownstr(Pprof *p, char *s)
{
	p->owned = grow(p->owned, &p->capowned, p->nowned + 1, sizeof p->owned[0]);
	p->owned[p->nowned++] = s;
	return strnum(p, s);
}

/*
 * The source file and line of pc in the DWARF line table dw (NULL for
 * none): the file relative to the directory of compilation if inside
 * it.  0 if there is none.  kprof -a's too (tools/annotate.c).
 */
int
dwline(Dwarf *dw, uint32_t pc, const char **file)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	Dwarf_Attribute attr;
	const char *f, *dir;
	size_t n;
	int line;

	if(dw == NULL || dwarf_addrdie(dw, pc, &cu) == NULL
	|| (l = dwarf_getsrc_die(&cu, pc)) == NULL || dwarf_lineno(l, &line) != 0
	|| (f = dwarf_linesrc(l, NULL, NULL)) == NULL)
		return 0;
	dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
	if(dir != NULL){
		n = strlen(dir);
		if(n > 0 && strncmp(f, dir, n) == 0 && f[n] == '/')
			f += n + 1;
	}
	*file = f;
	return line;
}

/* The id of the function called name, whose text starts at addr. */
static uint64_t
funcid(Pprof *p, const char *name, uint32_t addr)
{
	Function *f;
	const char *file;
	int64_t s;
	int line;

	s = strnum(p, name);
	if(p->node[s].func != 0)
		return p->node[s].func;
	p->func = grow(p->func, &p->capfunc, p->nfunc + 1, sizeof p->func[0]);
	f = &p->func[p->nfunc++];
	perftools__profiles__function__init(f);
	f->id = p->nfunc;
	f->name = s;
	f->system_name = s;
	line = dwline(p->dw, addr, &file);
	if(line > 0){
		f->filename = strnum(p, file);
		f->start_line = line;
	}
	p->node[s].func = f->id;
	return f->id;
}

/* A new location at pc, in the function called name at addr, at the given line. */
static uint64_t
newloc(Pprof *p, uint32_t pc, const char *name, uint32_t addr, int line)
{
	Location *l;
	size_t cap;

	cap = p->caploc;
	p->loc = grow(p->loc, &p->caploc, p->nloc + 1, sizeof p->loc[0]);
	p->caploc = cap;
	p->line = grow(p->line, &p->caploc, p->nloc + 1, sizeof p->line[0]);
	l = &p->loc[p->nloc];
	perftools__profiles__location__init(l);
	perftools__profiles__line__init(&p->line[p->nloc]);
	p->nloc++;
	l->id = p->nloc;
	l->mapping_id = 1;
	l->address = pc;
	l->n_line = 1;
	p->line[p->nloc-1].function_id = funcid(p, name, addr);
	p->line[p->nloc-1].line = line;
	return l->id;
}

/*
 * Begin the profile of the program whose symbols are t, sampled hz
 * times a second.  Its DWARF, if it has one, names files and lines.
 */
Pprof*
ppopen(Symtab *t, unsigned long hz)
{
	Pprof *p;

	p = calloc(1, sizeof *p);
	if(p == NULL)
		fatal("out of memory");
	p->t = t;
	p->hz = hz;
	p->str = grow(NULL, &p->capstr, 1, sizeof p->str[0]);
	p->node = grow(NULL, &p->capnode, 1, sizeof p->node[0]);
	memset(&p->node[0], 0, sizeof p->node[0]);
	p->str[0] = "";
	p->nstr = 1;
	p->fd = open(t->path, O_RDONLY);
	if(p->fd < 0)
		fatal("%s: %s", t->path, strerror(errno));
	p->dw = dwarf_begin(p->fd, DWARF_C_READ);
	return p;
}

/* Add a line of text to the profile's comments. */
void
ppcomment(Pprof *p, const char *fmt, ...)
{
	char *s;
	va_list arg;
	int n;

	va_start(arg, fmt);
	n = vsnprintf(NULL, 0, fmt, arg);
	va_end(arg);
	s = malloc(n + 1);
	if(s == NULL)
		fatal("out of memory");
	va_start(arg, fmt);
	vsnprintf(s, n + 1, fmt, arg);
	va_end(arg);
	p->comment = grow(p->comment, &p->capcomment, p->ncomment + 1, sizeof p->comment[0]);
	p->comment[p->ncomment++] = ownstr(p, s);
}

/* A location at pc, a byte of text, named by its function and its line. */
uint64_t
ppat(Pprof *p, uint32_t pc)
{
	Sym *s;
	const char *file;

	s = &p->t->sym[symfind(p->t, pc)];
	return newloc(p, pc, s->name, s->addr, dwline(p->dw, pc, &file));
}

/*
 * The location of the function called name whose text starts at addr,
 * one for each name: for a stack that names its frames by function.
 */
uint64_t
ppfunc(Pprof *p, const char *name, uint32_t addr)
{
	const char *file;
	uint64_t id;
	int64_t s;

	s = strnum(p, name);
	if(p->node[s].loc == 0){
		/* newloc may add strings, and so move node. */
		id = newloc(p, addr, name, addr, dwline(p->dw, addr, &file));
		p->node[s].loc = id;
	}
	return p->node[s].loc;
}

/* A sample of count ticks with the n locations at loc, leaf first. */
void
ppsample(Pprof *p, const uint64_t *loc, int n, uint64_t count)
{
	Sample *s;

	if(count == 0)
		return;
	/* pprof's values are signed 64 bits: nanoseconds past them would wrap negative. */
	if(count > (uint64_t)INT64_MAX / (1000000000 / p->hz))
		fatal("a stack's %" PRIu64 " ticks at %lu Hz are too many nanoseconds for pprof's 64 bits",
			count, p->hz);
	p->sample = grow(p->sample, &p->capsample, p->nsample + 1, sizeof p->sample[0]);
	s = &p->sample[p->nsample];
	perftools__profiles__sample__init(s);
	s->n_location_id = n;
	p->stack = grow(p->stack, &p->capstack, p->nstack + n, sizeof p->stack[0]);
	memcpy(p->stack + p->nstack, loc, n * sizeof loc[0]);
	p->nstack += n;
	p->value = grow(p->value, &p->capvalue, 2*(p->nsample + 1), sizeof p->value[0]);
	p->value[2*p->nsample] = count;
	p->value[2*p->nsample + 1] = count * (1000000000 / p->hz);
	p->nsample++;
}

/* Point to the n elements of size bytes at a, each. */
static void**
pointers(void *a, size_t n, size_t size)
{
	void **v;
	size_t i;

	v = malloc((n + 1) * sizeof v[0]);
	if(v == NULL)
		fatal("out of memory");
	for(i = 0; i < n; i++)
		v[i] = (char*)a + i*size;
	return v;
}

/* Write the profile to standard output, gzipped, and free it. */
void
ppwrite(Pprof *p)
{
	Profile prof;
	ValueType type[2], period;
	Mapping map, *mapv[1];
	Line **linev;
	gzFile gz;
	uint8_t *buf;
	size_t len, i, off;

	perftools__profiles__profile__init(&prof);
	perftools__profiles__value_type__init(&type[0]);
	perftools__profiles__value_type__init(&type[1]);
	perftools__profiles__value_type__init(&period);
	type[0].type = strnum(p, "samples");
	type[0].unit = strnum(p, "count");
	type[1].type = period.type = strnum(p, "cpu");
	type[1].unit = period.unit = strnum(p, "nanoseconds");
	prof.n_sample_type = 2;
	prof.sample_type = (ValueType**)pointers(type, 2, sizeof type[0]);
	prof.period_type = &period;
	prof.period = 1000000000 / p->hz;

	perftools__profiles__mapping__init(&map);
	map.id = 1;
	map.memory_start = p->t->textbase;
	map.memory_limit = (uint64_t)p->t->textbase + p->t->textsize;
	map.filename = strnum(p, p->t->path);
	map.has_functions = 1;
	map.has_filenames = map.has_line_numbers = p->dw != NULL;
	mapv[0] = &map;
	prof.n_mapping = 1;
	prof.mapping = mapv;

	off = 0;
	for(i = 0; i < p->nsample; i++){
		p->sample[i].location_id = p->stack + off;
		off += p->sample[i].n_location_id;
		p->sample[i].n_value = 2;
		p->sample[i].value = p->value + 2*i;
	}
	prof.n_sample = p->nsample;
	prof.sample = (Sample**)pointers(p->sample, p->nsample, sizeof p->sample[0]);
	linev = (Line**)pointers(p->line, p->nloc, sizeof p->line[0]);
	for(i = 0; i < p->nloc; i++)
		p->loc[i].line = &linev[i];
	prof.n_location = p->nloc;
	prof.location = (Location**)pointers(p->loc, p->nloc, sizeof p->loc[0]);
	prof.n_function = p->nfunc;
	prof.function = (Function**)pointers(p->func, p->nfunc, sizeof p->func[0]);
	prof.n_comment = p->ncomment;
	prof.comment = p->comment;
	prof.n_string_table = p->nstr;
	prof.string_table = p->str;

	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = malloc(len + 1);
	if(buf == NULL)
		fatal("out of memory");
	perftools__profiles__profile__pack(&prof, buf);
	fflush(stdout);
	gz = gzdopen(dup(1), "wb");
	if(gz == NULL)
		fatal("standard output: %s", strerror(errno));
	if(len > 0 && gzwrite(gz, buf, len) != (int)len)
		fatal("standard output: write error");
	if(gzclose(gz) != Z_OK)
		fatal("standard output: write error");

	free(buf);
	free(prof.sample_type);
	free(prof.sample);
	free(prof.location);
	free(prof.function);
	free(linev);
	for(i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	if(p->dw != NULL)
		dwarf_end(p->dw);
	close(p->fd);
	free(p->owned);
	free(p->str);
	free(p->node);
	free(p->func);
	free(p->loc);
	free(p->line);
	free(p->sample);
	free(p->stack);
	free(p->value);
	free(p->comment);
	free(p);
}
