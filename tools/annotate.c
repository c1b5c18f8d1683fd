/*
 * kprof -a, on the host only: one function's instructions with their
 * ticks, as perf annotate shows them.
 *
 *	lock: 285 ticks, 5.4% of the kernel's 5230
 *	ticks	  %	address	instruction
 *				kern/lock.c:40	{
 *	3	  1.1	c0109230:	push   %ebp
 *			c0109231:	mov    %esp,%ebp
 *
 * objdump (binutils) disassembles the function, run with no shell
 * between.  Each instruction has the ticks of the 8-byte bin it starts
 * in; a bin shared by several instructions is shown once, at the first
 * (the others' ticks column is blank), and a bin in which none starts
 * goes to the next one that does.  Only the bins that the flat profile
 * credits to the function count (a bin goes to the function that holds
 * its first byte), so the column adds up to the function's row there;
 * % is of those ticks.  The next function's instructions that start in
 * the function's last bin have that bin's ticks, so they are shown too,
 * after a heading that names them.  Above each run of instructions of
 * one source line is that line, from the kernel's DWARF
 * (tools/pprof.c's dwline), with its text, read as srcline reads it:
 * relative to the current directory.  The instructions are gathered
 * first, and each file named is read once, however the lines go from
 * one file to another: a cache of a few files, read again when they
 * alternate, took time the product of the instructions and the files'
 * length.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "elfsym.h"
#include "source.h"
#include "kpdata.h"
#include "pprof.h"

typedef struct Insn Insn;

/* An instruction that objdump printed, and the source line above it, if any. */
struct Insn {
	uint32_t	pc;
	char	*text;		/* after the address: "<tab>push   %ebp" */
	const char	*file;		/* the heading's source file, or NULL for none */
	int	line;
	char	*src;		/* the heading's text, or what is wrong */
};

/* Headings by file, then line: the order to read files in. */
static int
byplace(const void *va, const void *vb)
{
	const Insn *a = *(Insn* const*)va, *b = *(Insn* const*)vb;
	int c;

	if((c = strcmp(a->file, b->file)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * Give the headings h[0..n), of one file and sorted by line, the
 * text of their lines, reading the file once.
 */
static void
readtext(Insn **h, int n)
{
	Source s;
	const char *why;
	int i;

	if(srcopen(&s, h[0]->file, &why) < 0){
		for(i = 0; i < n; i++)
			if((h[i]->src = strdup("(source missing)")) == NULL)
				fatal("out of memory");
		return;
	}
	for(i = 0; i < n; i++)
		h[i]->src = srctext(&s, h[i]->line);
	srcclose(&s);
}

/* The text of every heading of the n instructions at in, each file read once. */
static void
headings(Insn *in, int n)
{
	Insn **h;
	int i, j, nh;

	if((h = malloc((n + 1) * sizeof h[0])) == NULL)
		fatal("out of memory");
	for(nh = 0, i = 0; i < n; i++)
		if(in[i].file != NULL)
			h[nh++] = &in[i];
	qsort(h, nh, sizeof h[0], byplace);
	for(i = 0; i < nh; i = j){
		for(j = i + 1; j < nh && strcmp(h[j]->file, h[i]->file) == 0; j++)
			;
		readtext(h + i, j - i);
	}
	free(h);
}

/* Start objdump on the text of kernel from start to end; its output comes on the returned stream. */
static FILE*
objdump(const char *kernel, uint32_t start, uint32_t end, pid_t *pid)
{
	char a0[32], a1[32];
	int fd[2];
	FILE *f;

	snprintf(a0, sizeof a0, "--start-address=0x%x", (unsigned)start);
	snprintf(a1, sizeof a1, "--stop-address=0x%x", (unsigned)end);
	fflush(stdout);
	if(pipe(fd) < 0 || (*pid = fork()) < 0)
		fatal("objdump: %s", strerror(errno));
	if(*pid == 0){
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("objdump", "objdump", "-d", "-z", "--no-show-raw-insn", a0, a1, "--", kernel, (char*)NULL);
		fprintf(stderr, "%s: objdump: %s (binutils has it)\n", argv0, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if(f == NULL)
		fatal("objdump: %s", strerror(errno));
	return f;
}

/*
 * Print the annotated instructions of the function called fn in the
 * kernel whose symbols are k, with the ticks of kpdata's cells.
 */
void
annotate(Symtab *k, const uint32_t *cell, uint64_t nbins, const char *fn)
{
	Dwarf *dw;
	FILE *f;
	pid_t pid = -1;
	Insn *in;
	char *l, *e;
	size_t cap, incap;
	uint64_t b, first, last, next, ticks, t, tenths;
	uint32_t start, end, stop, dumpend, pc;
	int i, j, shown, st, n, nin, line, lastline;
	const char *fl, *file, *lastfile;

	for(i = 0; i < k->nsym; i++)
		if(k->sym[i].rank != 0 && strcmp(k->sym[i].name, fn) == 0)
			break;
	if(i == k->nsym)
		fatal("-a: %s has no function %s", k->path, fn);
	start = k->sym[i].addr;
	end = i + 1 < k->nsym ? k->sym[i+1].addr : k->textbase + k->textsize;
	/*
	 * The bins whose first byte is in the function: first to last-1;
	 * the instructions shown are those that start before the end of
	 * the last, stop, disassembled to the end of the function there,
	 * dumpend, so that the last is whole.
	 */
	first = (start - k->textbase + KPBINSIZE-1) / KPBINSIZE;
	last = (end - k->textbase + KPBINSIZE-1) / KPBINSIZE;
	if(last > nbins)
		last = nbins;
	stop = k->textbase + last*KPBINSIZE;
	if(stop > k->textbase + k->textsize)
		stop = k->textbase + k->textsize;
	j = symfind(k, stop - 1);
	dumpend = j + 1 < k->nsym ? k->sym[j+1].addr : k->textbase + k->textsize;
	ticks = 0;
	for(b = first; b < last; b++)
		ticks += cell[2+b];
	tenths = cell[1] == 0 ? 0 : (ticks*1000 + cell[1]/2) / cell[1];
	printf("%s: %llu ticks, %llu.%llu%% of the kernel's %u\n", fn, (unsigned long long)ticks,
		(unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10), (unsigned)cell[1]);
	printf("ticks\t  %%\taddress\tinstruction\n");

	n = open(k->path, O_RDONLY);
	if(n < 0)
		fatal("%s: %s", k->path, strerror(errno));
	dw = dwarf_begin(n, DWARF_C_READ);
	f = objdump(k->path, start, dumpend, &pid);
	l = NULL;
	cap = 0;
	in = NULL;
	incap = 0;
	nin = 0;
	lastfile = NULL;
	lastline = 0;
	while(getline(&l, &cap, f) > 0){
		/* An instruction is `c0109230:<tab>push   %ebp'; the rest are headings. */
		pc = strtoul(l, &e, 16);
		if(e == l || e[0] != ':' || e[1] != '\t' || pc < start || pc >= stop)
			continue;
		e[strcspn(e, "\n")] = '\0';
		in = grow(in, &incap, nin + 1, sizeof in[0]);
		memset(&in[nin], 0, sizeof in[nin]);
		in[nin].pc = pc;
		if((in[nin].text = strdup(e + 1)) == NULL)
			fatal("out of memory");
		line = dwline(dw, pc, &fl);
		file = line > 0 ? fl : NULL;
		if(line > 0 && (lastfile == NULL || line != lastline || strcmp(file, lastfile) != 0)){
			in[nin].file = file;
			in[nin].line = line;
		}
		lastfile = file;
		lastline = line;
		nin++;
	}
	free(l);
	fclose(f);
	if(waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("-a: objdump failed on %s", k->path);
	headings(in, nin);

	next = first;
	shown = i;
	for(j = 0; j < nin; j++){
		pc = in[j].pc;
		if(pc >= end && (i = symfind(k, pc)) != shown){
			printf("\t\t\t(%s, in the same bin)\n", k->sym[i].name);
			shown = i;
		}
		if(in[j].file != NULL)
			printf("\t\t\t%s:%d\t%s\n", in[j].file, in[j].line, in[j].src);
		b = (pc - k->textbase) / KPBINSIZE;
		if(b < next)
			printf("\t\t%08x:%s\n", (unsigned)pc, in[j].text);
		else{
			for(t = 0; next <= b && next < last; next++)
				t += cell[2+next];
			next = b + 1;
			tenths = ticks == 0 ? 0 : (t*1000 + ticks/2) / ticks;
			printf("%llu\t%3llu.%llu\t%08x:%s\n", (unsigned long long)t, (unsigned long long)(tenths / 10),
				(unsigned long long)(tenths % 10), (unsigned)pc, in[j].text);
		}
		free(in[j].text);
		free(in[j].src);
	}
	free(in);
	if(dw != NULL)
		dwarf_end(dw);
	close(n);
}
