/*
 * Profiles in pprof's format, profile.proto, gzipped (tools/pprof.c):
 * what `go tool pprof' and the tools built on it read.  Host only: the
 * encoding is protobuf-c's, generated from profile.proto at build time.
 *
 * A profile is of one program, whose symbols are a Symtab: ppopen,
 * then locations (ppat for a pc, ppfunc for a function by name) and
 * samples of them, leaf first, then ppwrite.
 */
#ifndef PPROF_H
#define PPROF_H
#include <stdint.h>
#include <elfutils/libdw.h>
#include "elfsym.h"

typedef struct Pprof Pprof;

Pprof	*ppopen(Symtab *t, unsigned long hz);
void	ppcomment(Pprof *p, const char *fmt, ...);
uint64_t	ppat(Pprof *p, uint32_t pc);
uint64_t	ppfunc(Pprof *p, const char *name, uint32_t addr);
void	ppsample(Pprof *p, const uint64_t *loc, int n, uint64_t count);
void	ppwrite(Pprof *p);
int	dwline(Dwarf *dw, uint32_t pc, const char **file);

/* tools/annotate.c: kprof -a. */
void	annotate(Symtab *k, const uint32_t *cell, uint64_t nbins, const char *fn);

/* tools/kpdiff.c: kprof -D. */
void	kpdiff(Symtab *k, const uint32_t *before, const uint32_t *after, uint64_t nbins);

/* tools/kpprof.c: kprof -p. */
struct Stacks;
void	kpprof(Symtab *k, const uint32_t *cell, uint64_t nbins, unsigned long hz, struct Stacks *st, const char *clock);

#endif
