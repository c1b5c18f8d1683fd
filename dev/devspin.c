/*
 * A test device, #S, for measuring kprof's accuracy: writing "a N" to
 * its file spinctl spins N iterations in spina, "b N" in spinb.  The two
 * loops are the same, so the time in each is in proportion to N, and a
 * profile can be checked against that.  Not bound in /dev at boot.
 * The loops are scheduling points, so a long spin holds the processor
 * no longer than any other call, and a kill stops it.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Qspinctl = 1 };

static Dirtab spindir[] = {
	{ "spinctl",	Qspinctl,	0,	0222 },
};

static int __attribute__((noipa))
spina(uint n)
{
	volatile uint i;

	for(i = 0; i < n; i++)
		if(i % 65536 == 0 && schedpoint() < 0)
			return -1;
	return 0;
}

static int __attribute__((noipa))
spinb(uint n)
{
	volatile uint i;

	for(i = 0; i < n; i++)
		if(i % 65536 == 0 && schedpoint() < 0)
			return -1;
	return 0;
}

static long
spinwrite(Chan *c, void *buf, long n, uvlong off)
{
	char msg[32], *p;
	uint count = 0;
	int r;

	USED(off);
	if(c->qid != Qspinctl)
		return seterr(EISDIR, nil);
	if(n < 3 || n >= (long)sizeof msg)
		return seterr(EINVAL, "bad control message");
	memmove(msg, buf, n);
	msg[n] = '\0';
	for(p = msg + 2; *p >= '0' && *p <= '9'; p++){
		if(count > (0xFFFFFFFFU - (*p - '0')) / 10)
			return seterr(EINVAL, "spin count too large");
		count = count*10 + *p - '0';
	}
	if(msg[1] != ' ' || p == msg + 2 || !iscmd(p, n - (p - msg), ""))
		return seterr(EINVAL, "bad control message");
	if(msg[0] == 'a')
		r = spina(count);
	else if(msg[0] == 'b')
		r = spinb(count);
	else
		return seterr(EINVAL, "bad control message");
	return r < 0 ? -1 : n;
}

Dev spindevtab = {
	.dc = 'S',
	.tab = spindir,
	.ntab = nelem(spindir),
	.write = spinwrite,
};
