/*
 * The kernel profile's counts, kpdata (kprof(3)), read and compared
 * (user/lib/kpdata.c, user/lib/kpcmp.c), in the form that kern/kprof.h
 * defines.  An exact count of instructions (tools/profile -x) has the same form,
 * its cells counting instructions rather than ticks.
 *
 * The same source builds for the guest and for the host, so this header
 * uses only standard names.
 */
#ifndef KPDATA_H
#define KPDATA_H
#include <stdint.h>
#include "elfsym.h"
#include "kern/kprof.h"

uint64_t	kpnbins(Symtab *k);
uint32_t	*kpread(const char *path, uint64_t nbins);
int	kphexdigit(int c);
int	kpdecimal(const char *s, const char *e, uint64_t max, uint64_t *v);
unsigned long	kpparsehz(const char *s);
unsigned long	kpclock(Symtab *k, const char *datapath, unsigned long hz);
void	kptotals(Symtab *k, const uint32_t *cell, unsigned long hz);
const char	*kpclockdesc(void);
void	kpflat(Symtab *k, const uint32_t *cell, unsigned long hz);
void	kpcompare(Symtab *k, const char *exact, const char *sampled, char **omit, int nomit);

#endif
