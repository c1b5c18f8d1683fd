/*
 * kpring=N on the test kernel's command line (conf/kerneltest): each
 * processor's buffer of kprof's samples (dev/kpcount.h) uses N words,
 * a power of 2 from 64 to KPnring, rather than KPnring, so that a
 * processor whose clock is held off for a few ticks fills it, and the
 * stacks cut for want of room can be tested (tools/test/kpstack.sh).
 * o/kernel does not have it.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "kprof.h"
#include "kpcount.h"

void
kpring(char *n)
{
	uint v;

	if(decimal(n, KPnring, &v) < 0 || v < 64 || (v & (v - 1)) != 0)
		print("warning: kpring=%s: not a power of 2 from 64 to %d\n", n, KPnring);
	else{
		kpmask = v - 1;
		kproom = v - KPrec;
	}
}
