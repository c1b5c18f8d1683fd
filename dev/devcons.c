/*
 * The console device, #c: cons (the serial console, with a line
 * editor), null, time, ps, sysstat, textsum, and power.  Its consputs
 * is also where the kernel's print (kern/print.c) sends its text.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Qcons = 1, Qnull, Qtime, Qps, Qsysstat, Qtextsum, Qpower };

static Dirtab consdir[] = {
	{ "cons",	Qcons,		0,	0666 },
	{ "null",	Qnull,		0,	0666 },
	{ "time",	Qtime,		0,	0444 },
	{ "ps",		Qps,		0,	0444 },
	{ "sysstat",	Qsysstat,	0,	0444 },
	{ "textsum",	Qtextsum,	0,	0444 },
	{ "power",	Qpower,		0,	0222 },
};

enum { Ibuf = 512, CtlD = 4 };

/* Typed input: [r, w) is ready to read, [w, e) is the line being edited. */
static struct {
	char	buf[Ibuf];
	uint	r;
	uint	w;
	uint	e;
} in;

static void
putc1(int c)
{
	if(c == '\n')
		uartputc(0, '\r');
	uartputc(0, c);
	vgaputc(c);
}

/* Console output: the kernel's print and writes to cons. */
void
consputs(char *s, int n)
{
	int i;

	for(i = 0; i < n; i++)
		putc1(s[i]);
}

/* A character typed at the console (called at interrupt time). */
void
consinput(int c)
{
	switch(c){
	case '\b':
	case 0x7F:
		if(in.e != in.w){
			in.e--;
			consputs("\b \b", 3);
		}
		return;
	case '\r':
		c = '\n';
		break;
	}
	if(in.e - in.r >= Ibuf)
		return;
	in.buf[in.e++ % Ibuf] = c;
	if(c != CtlD)
		putc1(c);
	if(c == '\n' || c == CtlD || in.e - in.r == Ibuf){
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

/* Read at most one line; an empty read at ^D is end of file. */
long
consreadline(char *buf, long n)
{
	long m = 0;
	int c, s;

	s = splhi();
	while(in.r == in.w){
		if(up->killed){
			splx(s);
			return seterr(EINTR, nil);
		}
		sleep(&in);
	}
	while(m < n && in.r != in.w){
		c = in.buf[in.r++ % Ibuf];
		if(c == CtlD){
			if(m > 0)
				in.r--;
			break;
		}
		buf[m++] = c;
		if(c == '\n')
			break;
	}
	splx(s);
	return m;
}

static long
consread(Chan *c, void *buf, long n, uvlong off)
{
	char tmp[64], *ps;
	long r;

	switch(c->qid){
	case Qcons:
		return consreadline(buf, n);
	case Qnull:
		return 0;
	case Qtime:
		snprintf(tmp, sizeof tmp, "%d %d\n", ticks, hz);
		return readstr(off, buf, n, tmp);
	case Qps:
		if((ps = kmalloc(NPROC*64)) == nil)
			return seterr(ENOMEM, nil);
		procdump(ps, NPROC*64);
		r = readstr(off, buf, n, ps);
		kfree(ps);
		return r;
	case Qtextsum:
		snprintf(tmp, sizeof tmp, "%#x\n", textsum());
		return readstr(off, buf, n, tmp);
	case Qsysstat:
		snprintf(tmp, sizeof tmp, "pages %d free %d heap %d\n",
			pagestotal(), pagesfree(), heapinuse());
		return readstr(off, buf, n, tmp);
	}
	return seterr(EACCES, "permission denied");
}

static long
conswrite(Chan *c, void *buf, long n, uvlong off)
{
	char msg[32], *p;
	int status;

	USED(off);
	switch(c->qid){
	case Qcons:
		consputs(buf, n);
		return n;
	case Qnull:
		return n;
	case Qpower:
		if(n >= (long)sizeof msg)
			return seterr(EINVAL, "bad control message");
		memmove(msg, buf, n);
		msg[n] = '\0';
		if(iscmd(msg, n, "off"))
			poweroff(0);
		if(strncmp(msg, "off ", 4) != 0)
			return seterr(EINVAL, "bad control message");
		status = 0;
		for(p = msg + 4; *p >= '0' && *p <= '9' && status <= 255; p++)
			status = status*10 + *p - '0';
		if(p == msg + 4 || status > 255 || !iscmd(p, n - (p - msg), ""))
			return seterr(EINVAL, "bad control message");
		poweroff(status);
	}
	return seterr(EACCES, "permission denied");
}

Dev consdevtab = {
	.dc = 'c',
	.tab = consdir,
	.ntab = nelem(consdir),
	.read = consread,
	.write = conswrite,
};
