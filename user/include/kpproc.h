/*
 * The kernel profile's ticks by process, kpproc (kprof(3),
 * kern/kprof.h), read and printed by kprof -P and profile
 * (user/lib/kpproc.c).
 *
 * The same source builds for the guest and for the host, so this header
 * uses only standard names.
 */
#ifndef KPPROC_H
#define KPPROC_H

void	kpprocprint(const char *path);

#endif
