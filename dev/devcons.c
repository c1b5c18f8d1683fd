/*
 * The console device, #c: cons (the serial console, with a line
 * discipline), consctl (raw mode, the foreground note group), null,
 * time, ps, sysstat, textsum, and power (see cons(3)).  Its consputs
 * is also where the kernel's print (kern/print.c) sends its text.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Qcons = 1, Qconsctl, Qnull, Qtime, Qps, Qsysstat, Qtextsum, Qpower, Qproctime };

static Dirtab consdir[] = {
	{ "cons",	Qcons,		0,	0666 },
	{ "consctl",	Qconsctl,	0,	0222 },
	{ "null",	Qnull,		0,	0666 },
	{ "time",	Qtime,		0,	0444 },
	{ "ps",		Qps,		0,	0444 },
	{ "sysstat",	Qsysstat,	0,	0444 },
	{ "textsum",	Qtextsum,	0,	0444 },
	{ "power",	Qpower,		0,	0222 },
	{ "proctime",	Qproctime,	0,	0444 },
};

enum { Ibuf = 512, Psline = 80 };	/* Psline: the longest line of procdump, and more */

#define CTRL(c)	((c) & 0x1F)

/*
 * Typed input: [r, w) is ready to read, [w, e) is the line being
 * edited.  In raw mode every byte is ready at once, unedited and not
 * echoed.  Interrupt handlers (consinput) change it too.
 */
static Lock	inlk = { .name = "consin" };	/* in, and psbuf */
static Lock	conslk = { .name = "consout" };	/* output, so that lines do not mix */
static struct {
	char	buf[Ibuf];
	uint	r;
	uint	w;
	uint	e;
	int	raw;		/* consctl rawon: no line editing, no echo */
	int	esc;		/* 1 after ESC, 2 inside ESC [ ...: dropped */
	int	fg;		/* note group ^C kills; 0 for none */
} in;

static char psbuf[NPROC*Psline];	/* ^P's process list: too big for an interrupt's stack */

static void
putc1(int c)
{
	if(c == '\n')
		uartputc(0, '\r');
	uartputc(0, c);
	vgaputc(c);
}

/*
 * Console output: the kernel's print and writes to cons.  A panic
 * prints whatever locks are held.
 */
void
consputs(char *s, int n)
{
	int i;

	if(!panicking)
		ilock(&conslk);
	for(i = 0; i < n; i++)
		putc1(s[i]);
	if(!panicking)
		unlock(&conslk);
}

static int
isspace1(int c)
{
	return c == ' ' || c == '\t';
}

/* Erase the last character of the line being edited, on the screen too. */
static void
erase1(void)
{
	in.e--;
	consputs("\b \b", 3);
}

/*
 * A character typed at the console, called at interrupt time: the
 * line discipline.  ^P (the clock and the process list) works in both
 * modes: in cooked mode the line being typed is shown again after the
 * list, and a raw reader reads the ^P, to do so itself (the shell).  In
 * cooked mode ^H and DEL erase a character, ^U the line, ^W a word,
 * ^C kills the foreground note group and discards the input, ^D ends
 * a line without a newline (so at its start, it reads as end of file), and
 * any other control character or escape sequence (an arrow key) is
 * dropped: none reaches a reader.
 */
static void	consinput1(int);

void
consinput(int c)
{
	ilock(&inlk);
	consinput1(c);
	unlock(&inlk);
}

typedef struct Ps {
	char	*buf;
	int	n;		/* its size */
	int	len;		/* of it filled */
} Ps;

static void
psline(Proc *p, void *a)
{
	static char *states[] = { "unused", "embryo", "sleep", "ready", "run", "zombie" };
	Ps *ps = a;

	if(p == nil || ps->len >= ps->n)
		return;
	ps->len += snprintf(ps->buf + ps->len, ps->n - ps->len, "%5d %5d %-7s %7dK %8d %s\n", p->pid,
		p->parent ? p->parent->pid : 0, states[p->state],
		p->img != nil ? (p->img->brk - UTZERO + USTACKSIZE)/1024 : 0, p->ticks, p->name);
}

/* The text of /dev/ps, a line per process, into buf: its length. */
static int
procdump(char *buf, int n)
{
	Ps ps = { buf, n, 0 };

	ps.len = snprintf(buf, n, "%5s %5s %-7s %8s %8s %s\n", "pid", "ppid", "state", "mem", "ticks", "name");
	procsweep(psline, &ps);
	return ps.len < n ? ps.len : n;
}

static void
consinput1(int c)
{
	char ch;
	uint i;
	int n;

	if(c == CTRL('P')){
		n = snprintf(psbuf, sizeof psbuf, "^P at tick %d\n", ticks);
		consputs(psbuf, n);
		n = procdump(psbuf, sizeof psbuf);
		consputs(psbuf, n);
		if(!in.raw){	/* the line being typed, again, below the list */
			for(i = in.w; i != in.e; i++)
				consputs(&in.buf[i % Ibuf], 1);
			return;
		}
		/* a raw reader gets the ^P too, to show its own line again */
	}
	if(in.raw){
		if(in.e - in.r < Ibuf){
			in.buf[in.e++ % Ibuf] = c;
			in.w = in.e;
			wakeup(&in);
		}
		return;
	}
	if(in.esc == 1){	/* ESC [ or ESC O starts a sequence; a lone ESC is dropped */
		in.esc = 0;
		if(c == '[' || c == 'O'){
			in.esc = 2;
			return;
		}
	}
	if(in.esc == 2){
		if(c >= 0x40 && c <= 0x7E)
			in.esc = 0;
		return;
	}
	switch(c){
	case 0x1B:
		in.esc = 1;
		return;
	case '\b':
	case 0x7F:
		if(in.e != in.w)
			erase1();
		return;
	case CTRL('U'):
		while(in.e != in.w)
			erase1();
		return;
	case CTRL('W'):
		while(in.e != in.w && isspace1(in.buf[(in.e-1) % Ibuf]))
			erase1();
		while(in.e != in.w && !isspace1(in.buf[(in.e-1) % Ibuf]))
			erase1();
		return;
	case CTRL('C'):	/* and what was typed ahead goes too, as in Unix */
		in.r = in.w = in.e;
		consputs("^C\n", 3);
		if(in.fg != 0)
			pkillgrp(in.fg);
		return;
	case '\r':
		c = '\n';
		break;
	}
	if(c < ' ' && c != '\n' && c != '\t' && c != CTRL('D'))
		return;
	if(in.e - in.r >= Ibuf)
		return;
	/*
	 * ^D after some of a line ends the line there and goes no
	 * further: kept, it would be read as the start of the next line,
	 * end of file, after a read gave the line's text.
	 */
	if(c == CTRL('D') && in.e != in.w){
		in.w = in.e;
		wakeup(&in);
		return;
	}
	in.buf[in.e++ % Ibuf] = c;
	ch = c;
	if(c != CTRL('D'))
		consputs(&ch, 1);
	if(c == '\n' || c == CTRL('D') || in.e - in.r == Ibuf){
		in.w = in.e;
		wakeup(&in);
	}
}

/*
 * An FNV-1a hash of the kernel's text, for tests that check nothing a
 * user program did has written there: it must equal the hash of .text
 * in /kernel.
 */
static uint
textsum(void)
{
	uint h = 2166136261U;
	uchar *p;

	for(p = (uchar*)text; p < (uchar*)etext; p++)
		h = (h ^ *p) * 16777619U;
	return h;
}

/*
 * Can the console take a typed byte now?  In raw mode, not when its
 * buffer is full: the byte waits in the UART rather than be lost, and
 * the reader that makes room takes it in (uartkick).  Cooked mode
 * takes every byte, for ^C and ^P; what does not fit is dropped.
 */
int
consroom(void)
{
	int r;

	ilock(&inlk);
	r = !in.raw || in.e - in.r < Ibuf;
	unlock(&inlk);
	return r;
}

/* Read at most one line; an empty read at ^D is end of file. */
long
consreadline(char *buf, long n)
{
	long m = 0;
	int c;

	ilock(&inlk);
	while(in.r == in.w){
		if(up->killed){
			unlock(&inlk);
			return seterr(EINTR, nil);
		}
		sleepintr(&in, &inlk);
	}
	while(m < n && in.r != in.w){
		c = in.buf[in.r++ % Ibuf];
		if(c == CTRL('D') && !in.raw){
			if(m > 0)
				in.r--;
			break;
		}
		buf[m++] = c;
		if(c == '\n')
			break;
	}
	unlock(&inlk);
	uartkick();
	return m;
}

static long
consread(Chan *c, void *buf, long n, uvlong off)
{
	char tmp[64], *ps;
	uint t, pt;

	switch(c->qid){
	case Qcons:
		return consreadline(buf, n);
	case Qnull:
		return 0;
	case Qtime:
		snprintf(tmp, sizeof tmp, "%d %d\n", ticks, hz);
		return readstr(off, buf, n, tmp);
	case Qps:
		/*
		 * The list a read at offset 0 (or the open's first) made,
		 * kept in c for the reads after it: made anew at each
		 * read, a reader in pieces got pieces of different lists,
		 * lines torn in two ("sledy") when a process changed state,
		 * came or went between two reads.  The open holds it, so it
		 * is a process's to ask for (kmallocdata).
		 */
		if(off == 0 || c->aux == nil){
			if((ps = kmallocdata(NPROC*Psline)) == nil)
				return seterr(ENOMEM, nil);
			procdump(ps, NPROC*Psline);
			kfree(c->aux);
			c->aux = ps;
		}
		return readstr(off, buf, n, c->aux);
	case Qtextsum:
		snprintf(tmp, sizeof tmp, "%#x\n", textsum());
		return readstr(off, buf, n, tmp);
	case Qproctime:
		/* The reader's threads, gone ones too: all their ticks, and those with a profiler on. */
		imticks(up->img, &t, &pt);
		snprintf(tmp, sizeof tmp, "ticks %u profiled %u\n", t, pt);
		return readstr(off, buf, n, tmp);
	case Qsysstat:
		snprintf(tmp, sizeof tmp, "pages %d free %d heap %d\n",
			pagestotal(), pagesfree(), heapinuse());
		return readstr(off, buf, n, tmp);
	}
	return seterr(EACCES, "permission denied");
}

/*
 * consctl: rawon and rawoff, as Plan 9's; closing the channel that
 * turned raw mode on turns it off, so a program that dies in raw mode
 * leaves the console cooked.  fg N makes note group N the one ^C
 * kills (0: none); the shell names each foreground command's group.
 */
enum { CMrawon, CMrawoff, CMfg };

static Cmdtab consctlmsg[] = {
	{ CMrawon,	"rawon",	1 },
	{ CMrawoff,	"rawoff",	1 },
	{ CMfg,		"fg",		2 },
};

static long
consctlwrite(Chan *c, void *buf, long n)
{
	Cmdbuf cb;
	Cmdtab *ct;
	uint g = 0;

	if(parsecmd(&cb, buf, n) < 0 || (ct = lookupcmd(&cb, consctlmsg, nelem(consctlmsg))) == nil)
		return -1;
	if(ct->index == CMfg && decimal(cb.f[1], 1000000000, &g) < 0)
		return seterr(EINVAL, "bad control message");
	ilock(&inlk);
	switch(ct->index){
	case CMrawon:
		in.raw = 1;
		in.esc = 0;
		in.w = in.e;	/* a half-typed line is ready as it is */
		c->aux = &in;
		break;
	case CMrawoff:
		in.raw = 0;
		c->aux = nil;
		unlock(&inlk);
		uartkick();	/* cooked mode takes what raw mode held back */
		return n;
	case CMfg:
		in.fg = g;
		break;
	}
	unlock(&inlk);
	return n;
}

/* power: off, or off N, powers off with exit status N (0 by default). */
static Cmdtab powermsg[] = {
	{ 0,	"off",	1 },
	{ 0,	"off",	2 },
};

static long
powerwrite(void *buf, long n)
{
	Cmdbuf cb;
	uint status = 0;

	if(parsecmd(&cb, buf, n) < 0 || lookupcmd(&cb, powermsg, nelem(powermsg)) == nil)
		return -1;
	if(cb.nf == 2 && decimal(cb.f[1], 255, &status) < 0)
		return seterr(EINVAL, "bad control message");
	poweroff(status);
}

static void
consclose(Chan *c)
{
	if(c->qid == Qps)
		kfree(c->aux);	/* ps's list, kept for the open's reads */
	if(c->qid == Qconsctl && c->aux != nil){
		ilock(&inlk);
		in.raw = 0;
		unlock(&inlk);
		uartkick();
	}
}

static long
conswrite(Chan *c, void *buf, long n, uvlong off)
{
	long i;

	USED(off);
	switch(c->qid){
	case Qcons:
		for(i = 0; i < n; i += 64){
			if(i > 0 && schedpoint() < 0)
				return i;
			consputs((char*)buf + i, n - i < 64 ? n - i : 64);
		}
		return n;
	case Qconsctl:
		return consctlwrite(c, buf, n);
	case Qnull:
		return n;
	case Qpower:
		return powerwrite(buf, n);
	}
	return seterr(EACCES, "permission denied");
}

Dev consdevtab = {
	.dc = 'c',
	.tab = consdir,
	.ntab = nelem(consdir),
	.read = consread,
	.write = conswrite,
	.close = consclose,
};
