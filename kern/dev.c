/*
 * The device table, and the helpers that let a device with a fixed,
 * flat directory (a Dirtab) implement walk, stat and directory reads
 * in a line each.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

extern Dev rootdevtab, consdevtab, uartdevtab, pipedevtab, kprofdevtab, spindevtab;

Dev *devtab[] = {
	&rootdevtab,
	&consdevtab,
	&uartdevtab,
	&pipedevtab,
	&kprofdevtab,
	&spindevtab,
	nil,
};

void
devinit(void)
{
	int i;

	for(i = 0; devtab[i] != nil; i++)
		if(devtab[i]->init != nil)
			devtab[i]->init();
}

/* The root of device dc. */
Chan*
devattach(int dc)
{
	int i;

	for(i = 0; devtab[i] != nil; i++)
		if(devtab[i]->dc == dc)
			return newchan(i, 0, QDIR);
	return nil;
}

static void
dirfill(Dir *d, char *name, uvlong qid, uint length, uint perm, int type)
{
	memset(d, 0, sizeof *d);
	strlcpy(d->name, name, sizeof d->name);
	d->qid = qid;
	d->mode = perm | (qid & QDIR ? DMDIR : 0);
	d->length = length;
	d->type = devtab[type]->dc;
}

int
devwalk(Chan *c, char *name, Dirtab *tab, int ntab)
{
	int i;

	if(c->qid != QDIR)
		return seterr(ENOTDIR, nil);
	for(i = 0; i < ntab; i++)
		if(strcmp(tab[i].name, name) == 0){
			c->qid = tab[i].qid;
			return 0;
		}
	return seterr(ENOENT, nil);
}

int
devstat(Chan *c, Dir *d, Dirtab *tab, int ntab)
{
	char name[3] = { '#', devtab[c->type]->dc, '\0' };
	int i;

	if(c->qid == QDIR){
		dirfill(d, name, QDIR, 0, 0555, c->type);
		return 0;
	}
	for(i = 0; i < ntab; i++)
		if(tab[i].qid == c->qid){
			dirfill(d, tab[i].name, tab[i].qid, tab[i].length, tab[i].perm, c->type);
			return 0;
		}
	return seterr(ENOENT, nil);
}

/* Read a directory as a run of Dirs; off and n are whole Dirs. */
long
devdirread(Chan *c, void *buf, long n, uvlong off, Dirtab *tab, int ntab)
{
	Dir *d = buf;
	uint i;
	long m = 0;

	for(i = off/sizeof(Dir); i < (uint)ntab && m + sizeof(Dir) <= (ulong)n; i++){
		dirfill(d++, tab[i].name, tab[i].qid, tab[i].length, tab[i].perm, c->type);
		m += sizeof(Dir);
	}
	return m;
}

/* Read from a string, as the text files of devices are read. */
long
readstr(uvlong off, void *buf, long n, char *s)
{
	uint len = strlen(s);

	if(off >= len)
		return 0;
	if(n > (long)(len - off))
		n = len - off;
	memmove(buf, s + off, n);
	return n;
}

/* Does a control message, its trailing blanks and newline aside, equal cmd? */
int
iscmd(char *msg, long n, char *cmd)
{
	long len = strlen(cmd);

	if(n < len || strncmp(msg, cmd, len) != 0)
		return 0;
	for(; len < n; len++)
		if(msg[len] != ' ' && msg[len] != '\t' && msg[len] != '\n')
			return 0;
	return 1;
}
