/*
 * kpproc, the kernel profile's ticks by process (kprof(3),
 * kern/kprof.h): read, checked, and printed busiest first, as
 *
 *	pid	ppid	user	kernel	total	%	name
 *	9	2	92	7	99	100.0	spin
 *
 * with a last line for the processes the kernel's table had no room
 * for, if any.  The shares are of the ticks of all the lines.
 *
 * The same source builds for the guest and for the host, so it uses
 * only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "elfsym.h"
#include "kpdata.h"
#include "kpproc.h"

typedef struct Pline Pline;
struct Pline {
	unsigned long	pid;
	unsigned long	ppid;
	char	*name;		/* in the file's buffer */
	unsigned long	user;
	unsigned long	kernel;
	int	line;		/* in the file, for a message */
};

/* The decimal number [s, end), at most 2^32-1; else fail. */
static unsigned long
num(const char *path, int line, const char *s, const char *end)
{
	uint64_t v;

	if(kpdecimal(s, end, 0xFFFFFFFF, &v) < 0)
		fatal("%s:%d: bad number", path, line);
	return v;
}

/*
 * The line [s, e) as pid ppid name user kernel, or as the overflow's
 * `overflow N user kernel' (pid 0 and ppid N then).  The name may
 * hold blanks: the numbers are the first two words and the last two.
 */
static void
parseline(const char *path, int line, char *s, char *e, Pline *l)
{
	char *w[4], *we[4], *p;

	p = strchr(s, ' ');
	if(p == NULL || p >= e)
		fatal("%s:%d: too few fields", path, line);
	w[0] = s, we[0] = p;
	w[1] = p + 1;
	if((p = strchr(w[1], ' ')) == NULL || p >= e)
		fatal("%s:%d: too few fields", path, line);
	we[1] = p;
	we[3] = e;
	for(p = e; p > we[1] && p[-1] != ' '; p--)
		;
	w[3] = p;
	if(p <= we[1] + 1)
		fatal("%s:%d: too few fields", path, line);
	we[2] = p - 1;
	for(p = we[2]; p > we[1] && p[-1] != ' '; p--)
		;
	w[2] = p;
	if(strncmp(s, "overflow ", 9) == 0){
		if(w[2] != we[1] + 1)
			fatal("%s:%d: bad overflow line", path, line);
		l->pid = 0;
		l->ppid = num(path, line, w[1], we[1]);
		l->name = NULL;
		/* The overflow's count is its ppid, and 0 is taken for no overflow line. */
		if(l->ppid == 0)
			fatal("%s:%d: an overflow of no processes", path, line);
	}else{
		if(w[2] <= we[1] + 1)
			fatal("%s:%d: too few fields", path, line);
		l->pid = num(path, line, w[0], we[0]);
		l->ppid = num(path, line, w[1], we[1]);
		l->name = we[1] + 1;
		w[2][-1] = '\0';
	}
	l->user = num(path, line, w[2], we[2]);
	l->kernel = num(path, line, w[3], we[3]);
}

/* A process's ticks: two counts of up to 2^32-1, more than the guest's unsigned long holds. */
static unsigned long long
ptotal(const Pline *l)
{
	return (unsigned long long)l->user + l->kernel;
}

/* By pid, and the later line of one pid second. */
static int
bypid(const void *a, const void *b)
{
	const Pline *x = a, *y = b;

	if(x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->line - y->line;
}

static int
busier(const void *a, const void *b)
{
	const Pline *x = a, *y = b;
	unsigned long long tx = ptotal(x), ty = ptotal(y);

	if(tx != ty)
		return tx > ty ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* One share of all, in tenths of a percent. */
static void
share(unsigned long long t, unsigned long long all)
{
	unsigned long long r = all != 0 ? (t*1000 + all/2) / all : 0;

	printf("%llu.%llu", r/10, r%10);
}

/* Print the kpproc file at path, busiest process first.  Exits with a message on any error. */
void
kpprocprint(const char *path)
{
	char *buf, *s, *e;
	size_t len;
	Pline *l, over;
	unsigned long long all;
	int n, i, line;

	buf = (char*)readfile(path, 0, &len);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	if(len > 0 && buf[len-1] != '\n')
		fatal("%s: truncated at byte %lu: the last line has no newline", path, (unsigned long)len);
	for(n = 0, s = buf; s < buf + len; s++)
		n += *s == '\n';
	if((l = malloc((n + 1) * sizeof l[0])) == NULL)
		fatal("out of memory");
	memset(&over, 0, sizeof over);
	all = 0;
	for(i = 0, line = 1, s = buf; s < buf + len; s = e + 1, line++){
		/* The fields are found with strchr, which a NUL would stop short. */
		e = memchr(s, '\n', buf + len - s);
		if(memchr(s, '\0', e - s) != NULL)
			fatal("%s:%d: a NUL byte in the line", path, line);
		*e = '\0';
		parseline(path, line, s, e, &l[i]);
		l[i].line = line;
		all += ptotal(&l[i]);
		if(l[i].name == NULL){
			if(over.ppid != 0)
				fatal("%s:%d: a second overflow line", path, line);
			over = l[i];
		}else
			i++;
	}
	n = i;
	/* The kernel keeps a line a process, and never gives a pid twice. */
	qsort(l, n, sizeof l[0], bypid);
	for(i = 1; i < n; i++)
		if(l[i].pid == l[i-1].pid)
			fatal("%s:%d: pid %lu again, first on line %d", path, l[i].line, l[i].pid, l[i-1].line);
	qsort(l, n, sizeof l[0], busier);
	printf("pid\tppid\tuser\tkernel\ttotal\t%%\tname\n");
	for(i = 0; i < n; i++){
		printf("%lu\t%lu\t%lu\t%lu\t%llu\t", l[i].pid, l[i].ppid, l[i].user, l[i].kernel, ptotal(&l[i]));
		share(ptotal(&l[i]), all);
		printf("\t%s\n", l[i].name);
	}
	if(over.ppid != 0){
		printf("-\t-\t%lu\t%lu\t%llu\t", over.user, over.kernel, ptotal(&over));
		share(ptotal(&over), all);
		printf("\t(%lu exited processes the table had no room for)\n", over.ppid);
	}
	free(l);
	free(buf);
}
