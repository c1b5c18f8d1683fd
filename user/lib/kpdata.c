/*
 * Read kpdata, the kernel profile's counts (kprof(3), kpdata.h), and
 * check that they add up.  Shared by kprof's flat profile, its source
 * lines, its stacks' check and its comparison with an exact count.
 *
 * The same source builds for the guest and for the host, so it uses
 * only standard names and no floating point.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "kpdata.h"

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0]<<24 | (uint32_t)p[1]<<16 | (uint32_t)p[2]<<8 | p[3];
}

/* The number of bins in the kernel text of k. */
uint64_t
kpnbins(Symtab *k)
{
	return ((uint64_t)k->textsize + KPBINSIZE-1) / KPBINSIZE;
}

/*
 * Read the profile at path, for a kernel text of nbins bins, into an
 * array of counts, and check that it has a cell for each bin (a file
 * cut short says where) and that they add up: the kernel ticks are
 * some of all the ticks, and the bins share out the kernel ticks (a
 * count stops at 2^32-1 rather than wrap, so the bins may add up to
 * more than a kernel count that has stopped).  Exits with a message
 * if they do not.
 */
uint32_t*
kpread(const char *path, uint64_t nbins)
{
	uint8_t *buf;
	uint32_t *cell;
	uint64_t sum;
	size_t len, i;

	buf = readfile(path, 4*(nbins + 2), &len);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	if(len < 4*(nbins + 2))
		fatal("%s: truncated at byte %lu of %llu (kernel text has %llu bins)", path,
			(unsigned long)len, (unsigned long long)(4*(nbins + 2)), (unsigned long long)nbins);
	if(len > 4*(nbins + 2))
		fatal("%s: %lu bytes, more than the %llu of kernel text's %llu bins", path,
			(unsigned long)len, (unsigned long long)(4*(nbins + 2)), (unsigned long long)nbins);
	cell = malloc(len/4 * sizeof cell[0]);
	if(cell == NULL)
		fatal("out of memory");
	for(i = 0; i < len/4; i++)
		cell[i] = be32(buf + 4*i);
	free(buf);
	if(cell[1] > cell[0])
		fatal("%s: more kernel ticks (%u) than ticks (%u)", path,
			(unsigned)cell[1], (unsigned)cell[0]);
	sum = 0;
	for(i = 2; i < len/4; i++)
		sum += cell[i];
	if(sum != cell[1] && !(cell[1] == 0xFFFFFFFF && sum > cell[1]))
		fatal("%s: the bins add up to %llu ticks, not the %u kernel ticks", path,
			(unsigned long long)sum, (unsigned)cell[1]);
	return cell;
}
