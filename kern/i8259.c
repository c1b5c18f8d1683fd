/*
 * The pair of 8259A interrupt controllers, which the APICs replace
 * (kern/apic.c): every line masked for good.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum {
	Pic1	= 0x20,		/* command port; data is +1 */
	Pic2	= 0xA0,
};

/* Remapped clear of the exceptions, in case one interrupts anyway, and masked. */
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
	outb(Pic1+1, 0xFF);
	outb(Pic2+1, 0xFF);
}
