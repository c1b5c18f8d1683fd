/*
 * The 16550 serial ports, #t: eia0 (COM1, the console) and eia1
 * (COM2, which QEMU can connect to a host file).  Output is polled;
 * input arrives by interrupt: eia0's goes to the console's line
 * editor, eia1's to a buffer that reads of eia1 drain.  eia0's is
 * read only while the console has room for it (consroom): the rest
 * waits in the UART, and QEMU holds back what comes after, until the
 * console's reader makes room and calls uartkick.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Data	= 0,	/* registers, as offsets from the port's base */
	Ier	= 1,
	Fcr	= 2,
	Lcr	= 3,
	Mcr	= 4,
	Lsr	= 5,
	Dlab	= 0x80,	/* Lcr: divisor latch access */
	Thre	= 0x20,	/* Lsr: transmitter ready */
	Dr	= 0x01,	/* Lsr: data ready */
	IRQuart1	= 3,
	IRQuart0	= 4,
	Qeia0	= 1,
	Qeia1,
	Ibuf	= 4096,
};

typedef struct Uart Uart;
struct Uart {
	ushort	base;		/* I/O port */
	int	irq;
	int	present;	/* the scratch-register test passed */
	char	buf[Ibuf];	/* input not yet read (eia1) */
	uint	r;		/* read position in buf */
	uint	w;		/* write position in buf */
};

static Lock	uartlk = { .name = "uart" };	/* eia1's input, and writes to either port */
static Lock	rxlk = { .name = "uartrx" };	/* reading eia0's input: its interrupt, or uartkick */
static Uart uart[2] = {
	{ .base = 0x3F8, .irq = IRQuart0 },
	{ .base = 0x2F8, .irq = IRQuart1 },
};

static Dirtab uartdir[] = {
	{ "eia0",	Qeia0,	0,	0666 },
	{ "eia1",	Qeia1,	0,	0666 },
};

static void uartintr(void*);

/*
 * 115200 baud, 8 data bits, no parity, FIFOs on, receive interrupts
 * on.  The first thing main does (the device's reset), so that print
 * works from the start.
 */
static void
uartreset(void)
{
	Uart *u;

	for(u = uart; u < uart + nelem(uart); u++){
		outb(u->base + 7, 0x5A);
		if(inb(u->base + 7) != 0x5A)
			continue;
		u->present = 1;
		outb(u->base + Ier, 0);
		outb(u->base + Lcr, Dlab);
		outb(u->base + Data, 1);
		outb(u->base + Ier, 0);
		outb(u->base + Lcr, 0x03);
		outb(u->base + Fcr, 0x07);
		outb(u->base + Mcr, 0x0B);	/* DTR, RTS, and OUT2 to let interrupts through */
		outb(u->base + Ier, 0x01);
	}
}

/* Input by interrupt, once the interrupt controllers are set up. */
static void
uartinit(void)
{
	Uart *u;

	for(u = uart; u < uart + nelem(uart); u++)
		if(u->present)
			intrenable(u->irq, uartintr, u);
}

void
uartputc(int port, int c)
{
	Uart *u = &uart[port];
	int i;

	if(!u->present)
		return;
	for(i = 0; i < 100000 && (inb(u->base + Lsr) & Thre) == 0; i++)
		;
	outb(u->base + Data, c);
}

/* Give the console what eia0 has, while it has room. */
static void
uartrx0(void)
{
	Uart *u = &uart[0];

	ilock(&rxlk);
	while((inb(u->base + Lsr) & Dr) && consroom())
		consinput(inb(u->base + Data));
	unlock(&rxlk);
}

static void
uartintr(void *a)
{
	Uart *u = a;
	int c;

	if(u == &uart[0]){
		uartrx0();
		return;
	}
	ilock(&uartlk);
	while(inb(u->base + Lsr) & Dr){
		c = inb(u->base + Data);
		if(u->w - u->r < Ibuf)
			u->buf[u->w++ % Ibuf] = c;
	}
	wakeup(u);
	unlock(&uartlk);
}

/*
 * The console has room again: take in what eia0 held back.  Its
 * interrupt, taken with bytes left unread, comes again only once they
 * have been read.
 */
void
uartkick(void)
{
	if(uart[0].present)
		uartrx0();
}

/* eia0's input is the console's; eia1's is raw bytes, waited for. */
static long
uartread(Chan *c, void *buf, long n, uvlong off)
{
	Uart *u = &uart[1];
	char *p = buf;
	long m = 0;

	USED(off);
	switch(c->qid){
	case Qeia0:
		return consreadline(buf, n);
	}
	ilock(&uartlk);
	while(u->r == u->w){
		if(up->killed){
			unlock(&uartlk);
			return seterr(EINTR, nil);
		}
		sleepintr(u, &uartlk);
	}
	while(m < n && u->r != u->w)
		p[m++] = u->buf[u->r++ % Ibuf];
	unlock(&uartlk);
	return m;
}

static long
uartwrite(Chan *c, void *buf, long n, uvlong off)
{
	uchar *p = buf;
	long i, k;

	USED(off);
	if(c->qid == QDIR)
		return seterr(EISDIR, nil);
	for(i = 0; i < n; i += 64){
		if(i > 0 && schedpoint() < 0)
			return i;
		ilock(&uartlk);
		for(k = i; k < n && k < i + 64; k++)
			uartputc(c->qid == Qeia0 ? 0 : 1, p[k]);
		unlock(&uartlk);
	}
	return n;
}

Dev uartdevtab = {
	.dc = 't',
	.tab = uartdir,
	.ntab = nelem(uartdir),
	.reset = uartreset,
	.init = uartinit,
	.read = uartread,
	.write = uartwrite,
};
