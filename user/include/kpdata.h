/*
 * The kernel profile's counts, kpdata (kprof(3)), read and compared
 * (user/lib/kpdata.c, user/lib/kpcmp.c): 4-byte big-endian cells, the
 * ticks while profiling was on, the ticks that found the kernel
 * running, then one count for each KPBINSIZE bytes of kernel text.
 * An exact count of instructions (tools/profile -x) has the same form,
 * its cells counting instructions rather than ticks.
 *
 * The same source builds for the guest and for the host, so this header
 * uses only standard names.
 */
#ifndef KPDATA_H
#define KPDATA_H
#include <stdint.h>
#include "elfsym.h"

enum {
	KPBINSIZE	= 8,	/* bytes of kernel text per count */
};

uint64_t	kpnbins(Symtab *k);
uint32_t	*kpread(const char *path, uint64_t nbins);
void	kpcompare(Symtab *k, const char *exact, const char *sampled, char **omit, int nomit);

#endif
