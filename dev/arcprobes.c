/*
 * arcprobes=N on the test kernel's command line (conf/kerneltest): the
 * call graph's recorder tries N slots of its table for an arc, not 16
 * (kern/arcs.c), so that arcs whose hashes meet find no room and are
 * dropped, and the count of drops that kpctl shows can be tested
 * (tools/test/callgraph.sh); a full table of real arcs would need more
 * call sites than the kernel has.  o/kernel does not have it.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

void
arcprobes(char *n)
{
	uint v;

	if(decimal(n, arcnprobe, &v) < 0 || v == 0)
		print("warning: arcprobes=%s: not a number from 1 to %u\n", n, arcnprobe);
	else
		arcnprobe = v;
}
