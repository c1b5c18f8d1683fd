/*
 * srcline: the kernel profile by source line, on the host only (it
 * needs elfutils' libdw): the busiest lines, each with its text.
 *
 *	srcline [-h hz] kernel kpdata
 *
 *	ms	  %	sym	line
 *	290	  5.6	lock	kern/lock.c:42	while(xchg(&l->locked, 1) != 0)
 *
 * The kernel's DWARF line table, read with elfutils' libdw, gives the
 * source line of each bin of kpdata: the line of its first byte (a bin
 * is 8 bytes, and may hold the ends of two lines).  The bin is also
 * credited to its function as the flat profile credits it, so that a
 * line of a header inlined into several functions is a row for each.
 * Rows are busiest first; a bin with no line (assembly has none) is a
 * row for its function alone.
 *
 * A file named relative to the directory the kernel was compiled in
 * (gcc's DW_AT_comp_dir) is shown, and read, relative to the current
 * directory, the top of the repository; an absolute name is read as
 * it is.  A file that can't be read is said so, once, and its rows
 * show no text.
 *
 * kpdata, its clock rate and the symbols are the formatters' library's
 * (user/lib/kpdata.c, elfsym.c), as kprof's flat profile has them, and
 * the first lines are the flat profile's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "elfsym.h"
#include "source.h"
#include "kpdata.h"

typedef struct Row Row;

/* Ticks of a function at a source line. */
struct Row {
	const char	*sym;		/* the function */
	const char	*file;		/* as shown, or NULL for no line */
	int	line;
	uint64_t	ticks;
	char	*text;		/* the line's text, or what is wrong */
};

/* By file, line and function: the order to merge rows and read files in. */
static int
byplace(const void *va, const void *vb)
{
	const Row *a = va, *b = vb;
	int c;

	if(a->file == NULL || b->file == NULL)
		c = (a->file != NULL) - (b->file != NULL);
	else
		c = strcmp(a->file, b->file);
	if(c == 0)
		c = a->line - b->line;
	if(c == 0)
		c = strcmp(a->sym, b->sym);
	return c;
}

/* Busiest first, then by place. */
static int
byticks(const void *va, const void *vb)
{
	const Row *a = va, *b = vb;

	if(a->ticks != b->ticks)
		return a->ticks > b->ticks ? -1 : 1;
	return byplace(va, vb);
}

/*
 * The name of the source file of line l, relative to the directory of
 * compilation if it lies in it.
 */
static const char*
filename(Dwarf_Die *cu, Dwarf_Line *l)
{
	Dwarf_Attribute attr;
	const char *file, *dir;
	size_t n;

	file = dwarf_linesrc(l, NULL, NULL);
	if(file == NULL)
		return NULL;
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	if(dir != NULL){
		n = strlen(dir);
		if(n > 0 && strncmp(file, dir, n) == 0 && file[n] == '/')
			return file + n + 1;
	}
	return file;
}

/*
 * Give the rows r[0..n), all of one file and sorted by line, the text
 * of their lines, reading the file once.
 */
static void
readtext(Row *r, int n)
{
	Source s;
	const char *why;
	int i;

	if(srcopen(&s, r[0].file, &why) < 0){
		fprintf(stderr, "%s: %s: %s; its lines are shown without their text\n",
			argv0, r[0].file, why);
		for(i = 0; i < n; i++)
			if((r[i].text = strdup("(source missing)")) == NULL)
				fatal("out of memory");
		return;
	}
	for(i = 0; i < n; i++)
		r[i].text = srctext(&s, r[i].line);
	srcclose(&s);
}

/*
 * Whether some unit of the DWARF has a line table libdw reads: one cut
 * short, or of no bytes, made every row "assembly", with status 0.
 */
static int
haslines(Dwarf *dw)
{
	Dwarf_Off off, next;
	Dwarf_Lines *lines;
	Dwarf_Die cu;
	size_t hsize, nlines;

	for(off = 0; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next)
		if(dwarf_offdie(dw, off + hsize, &cu) != NULL
		&& dwarf_getsrclines(&cu, &lines, &nlines) == 0 && nlines > 0)
			return 1;
	return 0;
}

/*
 * Print the profile by source line of kpdata's cells, for the kernel
 * at path whose symbols are k.
 */
static void
srclines(Symtab *k, const char *path, const uint32_t *cell, unsigned long hz)
{
	Dwarf *dw;
	Dwarf_Die cu;
	Dwarf_Line *l;
	Row *r;
	uint64_t i, tenths, total, nbins;
	uint32_t pc;
	int fd, n, m, j;

	fd = open(path, O_RDONLY);
	if(fd < 0)
		fatal("%s: %s", path, strerror(errno));
	dw = dwarf_begin(fd, DWARF_C_READ);
	if(dw == NULL)
		fatal("%s: no DWARF line table (%s): build the kernel with -g", path, dwarf_errmsg(-1));
	if(!haslines(dw))
		fatal("%s: no DWARF line table that can be read: build the kernel with -g", path);
	nbins = kpnbins(k);
	r = calloc(nbins + 1, sizeof r[0]);
	if(r == NULL)
		fatal("out of memory");
	n = 0;
	for(i = 0; i < nbins; i++){
		if(cell[KPBIN+i] == 0)
			continue;
		pc = k->textbase + i*KPBINSIZE;
		r[n].sym = k->sym[symfind(k, pc)].name;
		r[n].ticks = cell[KPBIN+i];
		if(dwarf_addrdie(dw, pc, &cu) != NULL && (l = dwarf_getsrc_die(&cu, pc)) != NULL
		&& dwarf_lineno(l, &r[n].line) == 0)
			r[n].file = filename(&cu, l);
		/* DWARF's line is unsigned; libdw's int would print one past 2^31-1 negative. */
		if(r[n].file != NULL && r[n].line < 0)
			fatal("%s: DWARF line %u at %08x is past 2^31-1", path, (unsigned)r[n].line, (unsigned)pc);
		if(r[n].file == NULL)
			r[n].line = 0;
		n++;
	}

	qsort(r, n, sizeof r[0], byplace);
	m = 0;
	for(j = 0; j < n; j++){
		if(m > 0 && byplace(&r[m-1], &r[j]) == 0)
			r[m-1].ticks += r[j].ticks;
		else
			r[m++] = r[j];
	}
	for(j = 0; j < m; j = n){
		for(n = j + 1; n < m && r[n].file != NULL && r[j].file != NULL
		&& strcmp(r[n].file, r[j].file) == 0; n++)
			;
		if(r[j].file != NULL)
			readtext(r + j, n - j);
	}

	qsort(r, m, sizeof r[0], byticks);
	kptotals(k, cell, hz);
	total = cell[KPKERNEL];
	printf("%s\t  %%\tsym\tline\n", hz == 0 ? "ticks" : "ms");
	for(j = 0; j < m && total > 0; j++){
		tenths = (r[j].ticks*1000 + total/2) / total;
		printf("%llu\t%3llu.%llu\t%s\t", (unsigned long long)(hz == 0 ? r[j].ticks : r[j].ticks*1000 / hz),
			(unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10), r[j].sym);
		if(r[j].file == NULL)
			printf("-\t(no line table: assembly)\n");
		else
			printf("%s:%d\t%s\n", r[j].file, r[j].line, r[j].text);
		free(r[j].text);
	}
	free(r);
	dwarf_end(dw);
	close(fd);
}

static void
usage(void)
{
	fprintf(stderr, "usage: srcline [-h hz] kernel kpdata\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	Symtab k;
	uint32_t *cell;
	unsigned long hz;
	const char *arg, *err;
	int i;

	argv0 = "srcline";
	hz = 0;
	for(i = 1; i < argc && argv[i][0] == '-'; i++){
		if(strcmp(argv[i], "--") == 0){
			i++;
			break;
		}
		if(argv[i][1] != 'h')
			usage();
		if((arg = flagarg(argc, argv, &i)) == NULL)
			usage();
		hz = kpparsehz(arg);
		if(hz == 0)
			fatal("bad hz: %s", arg);
	}
	if(argc - i != 2)
		usage();
	if((err = symload(&k, argv[i])) != NULL)
		fatal("%s", err);
	cell = kpread(argv[i+1], kpnbins(&k));
	srclines(&k, argv[i], cell, kpclock(&k, argv[i+1], hz));
	free(cell);
	symfree(&k);
	return 0;
}
