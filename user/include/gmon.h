/*
 * A program's profile of itself (user/lib/gmon.c), written at exit to
 * gmon.out in GNU gprof's format, which prof reads too:
 *
 *	header	"gmon", version 1 (4 bytes), 12 zero bytes
 *	record	tag GMON_TAG_TIME_HIST (1 byte), then
 *		low_pc, high_pc (4 bytes each), hist_size (4: the number of
 *		counters), prof_rate (4: HZ), dimen (15: "seconds",
 *		NUL-padded), dimen_abbrev (1: 's'),
 *		then hist_size 16-bit counts
 *
 * every number little-endian.  Counter i covers the text from
 * low_pc + i*(high_pc-low_pc)/hist_size, as gprof reads it.
 */
#ifndef GMON_H
#define GMON_H
#include <stdint.h>

enum {
	GMON_VERSION		= 1,
	GMON_HDRSIZE		= 20,	/* bytes in the file header */
	GMON_TAG_TIME_HIST	= 0,
	GMON_HISTSIZE		= 32,	/* bytes of a histogram record after its tag */
	GMON_DIMENLEN		= 15,	/* bytes in dimen */
};

void	monstartup(uintptr_t lowpc, uintptr_t highpc);
void	moncontrol(int on);
void	_mcleanup(void);

#endif
