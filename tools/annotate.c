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
 * (tools/pprof.c's dwline), with its text, read as kprof -l reads it:
 * relative to the current directory.
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
#include "kpdata.h"
#include "pprof.h"

enum {
	TEXTMAX		= 100,	/* bytes of a source line shown */
	NSRC		= 16,	/* source files kept read */
};

typedef struct Src Src;

/* A source file, read once, with where each line starts. */
struct Src {
	const char	*name;
	char	*buf;		/* NULL if it can't be read */
	size_t	len;
	size_t	*line;		/* line[i]: the offset of line i+1 */
	size_t	nline;
};

static Src	src[NSRC];
static int	nsrc;

/* The file called name, read and split into lines the first time. */
static Src*
getsrc(const char *name)
{
	Src *s;
	size_t i, cap;
	int j;

	for(j = 0; j < nsrc; j++)
		if(strcmp(src[j].name, name) == 0)
			return &src[j];
	if(nsrc == NSRC){
		free(src[0].buf);
		free(src[0].line);
		memmove(src, src + 1, (NSRC - 1) * sizeof src[0]);
		nsrc--;
	}
	s = &src[nsrc++];
	memset(s, 0, sizeof *s);
	s->name = name;
	s->buf = (char*)readfile(name, 0, &s->len);
	if(s->buf == NULL)
		return s;
	cap = 1;
	for(i = 0; i < s->len; i++)
		cap += s->buf[i] == '\n';
	s->line = malloc(cap * sizeof s->line[0]);
	if(s->line == NULL)
		fatal("out of memory");
	s->line[s->nline++] = 0;
	for(i = 0; i + 1 < s->len; i++)
		if(s->buf[i] == '\n')
			s->line[s->nline++] = i + 1;
	return s;
}

/* Print line n of the file called name as a heading: its place and its text. */
static void
putline(const char *name, int n)
{
	Src *s;
	const char *p, *end;
	int i;

	printf("\t\t\t%s:%d\t", name, n);
	s = getsrc(name);
	if(s->buf == NULL || n < 1 || (size_t)n > s->nline){
		printf(s->buf == NULL ? "(source missing)\n" : "(no line %d in the source: changed?)\n", n);
		return;
	}
	p = s->buf + s->line[n-1];
	end = s->buf + s->len;
	while(p < end && (*p == ' ' || *p == '\t'))
		p++;
	for(i = 0; p < end && *p != '\n' && i < TEXTMAX; p++, i++)
		putchar((unsigned char)*p < ' ' || *p == 0x7f ? ' ' : *p);
	if(p < end && *p != '\n')
		printf("...");
	putchar('\n');
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
	char *l, *e, *file, *lastfile;
	size_t cap;
	uint64_t b, first, last, next, ticks, t, tenths;
	uint32_t start, end, stop, dumpend, pc;
	int i, j, shown, st, n, line, lastline;
	const char *fl;

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
	next = first;
	lastfile = NULL;
	lastline = 0;
	shown = i;
	while(getline(&l, &cap, f) > 0){
		/* An instruction is `c0109230:<tab>push   %ebp'; the rest are headings. */
		pc = strtoul(l, &e, 16);
		if(e == l || e[0] != ':' || e[1] != '\t' || pc < start || pc >= stop)
			continue;
		e[strcspn(e, "\n")] = '\0';
		if(pc >= end && (j = symfind(k, pc)) != shown){
			printf("\t\t\t(%s, in the same bin)\n", k->sym[j].name);
			shown = j;
		}
		line = dwline(dw, pc, &fl);
		file = line > 0 ? (char*)fl : NULL;
		if(line > 0 && (lastfile == NULL || line != lastline || strcmp(file, lastfile) != 0))
			putline(file, line);
		lastfile = file;
		lastline = line;
		b = (pc - k->textbase) / KPBINSIZE;
		if(b < next){
			printf("\t\t%08x:%s\n", (unsigned)pc, e + 1);
			continue;
		}
		for(t = 0; next <= b && next < last; next++)
			t += cell[2+next];
		next = b + 1;
		tenths = ticks == 0 ? 0 : (t*1000 + ticks/2) / ticks;
		printf("%llu\t%3llu.%llu\t%08x:%s\n", (unsigned long long)t, (unsigned long long)(tenths / 10),
			(unsigned long long)(tenths % 10), (unsigned)pc, e + 1);
	}
	free(l);
	fclose(f);
	if(waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("-a: objdump failed on %s", k->path);
	if(dw != NULL)
		dwarf_end(dw);
	close(n);
	for(i = 0; i < nsrc; i++){
		free(src[i].buf);
		free(src[i].line);
	}
	nsrc = 0;
}
