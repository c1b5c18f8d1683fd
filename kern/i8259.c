/*
 * The pair of 8259A interrupt controllers: IRQ 0-15 become vectors
 * IRQ0 to IRQ0+15, every line masked until intrenable (kern/trap.c)
 * lets it through.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Pic1	= 0x20,		/* command port; data is +1 */
	Pic2	= 0xA0,
	EOI	= 0x20,
};

static ushort mask = 0xFFFF & ~(1<<2);	/* line 2 is the cascade */

static void
setmask(void)
{
	outb(Pic1+1, mask);
	outb(Pic2+1, mask >> 8);
}

void
i8259init(void)
{
	outb(Pic1, 0x11);	/* ICW1: edge, cascade, ICW4 follows */
	outb(Pic1+1, IRQ0);	/* ICW2: vector base */
	outb(Pic1+1, 1<<2);	/* ICW3: slave on line 2 */
	outb(Pic1+1, 0x01);	/* ICW4: 8086 mode */
	outb(Pic2, 0x11);
	outb(Pic2+1, IRQ0 + 8);
	outb(Pic2+1, 2);
	outb(Pic2+1, 0x01);
	setmask();
}

void
i8259enable(int irq)
{
	mask &= ~(1<<irq);
	setmask();
}

void
i8259eoi(int irq)
{
	if(irq >= 8)
		outb(Pic2, EOI);
	outb(Pic1, EOI);
}
