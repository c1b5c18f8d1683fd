/*
 * The kernel's own output: print, and panic, which prints and powers
 * off.  The text goes to the console through consputs, the hook
 * dev/devcons.c provides (kern/fns.h), so that it reaches the serial
 * port and the screen as what programs write to /dev/cons does.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

void
print(char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	consputs(buf, n < (int)sizeof buf ? n : (int)sizeof buf - 1);
}

int	panicking;	/* print then takes no lock: whatever is held, the message goes out */

void
panic(char *fmt, ...)
{
	char buf[256];
	va_list ap;

	cli();
	panicking = 1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	print("panic: %s (from pc %#x)\n", buf, (uint)__builtin_return_address(0));
	poweroff(1);
}
