/*
 * The device table, the kernel's only way to the devices in dev/
 * (devtab, which the kernel's configuration makes: conf/kernel), and
 * the defaults for the operations a device leaves out: with them, a
 * device with a fixed, flat directory (a Dirtab) is its table and its
 * own read, write or open.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

/*
 * Set up the devices, in two steps as Plan 9 does: reset at the start
 * of main (the serial port, so that print works), init once memory
 * and traps are up.  First the operations a device leaves out get the
 * defaults below.
 */
void
chandevreset(void)
{
	Dev *d;
	int i;

	for(i = 0; devtab[i] != nil; i++){
		d = devtab[i];
		if(d->reset == nil)
			d->reset = devreset;
		if(d->init == nil)
			d->init = devinit;
		if(d->attach == nil)
			d->attach = devattach;
		if(d->walk == nil)
			d->walk = devwalk;
		if(d->stat == nil)
			d->stat = devstat;
		if(d->open == nil)
			d->open = devopen;
		if(d->create == nil)
			d->create = devcreate;
		if(d->read == nil)
			d->read = devread;
		if(d->write == nil)
			d->write = devwrite;
		if(d->close == nil)
			d->close = devclose;
		if(d->remove == nil)
			d->remove = devremove;
		d->reset();
	}
}

void
chandevinit(void)
{
	int i;

	for(i = 0; devtab[i] != nil; i++)
		devtab[i]->init();
}

/* A new channel to the root of device dc, attached; nil if there is none. */
Chan*
cattach(int dc)
{
	Chan *c;
	int i;

	for(i = 0; devtab[i] != nil; i++)
		if(devtab[i]->dc == dc)
			break;
	if(devtab[i] == nil){
		seterr(ENOENT, "unknown device");
		return nil;
	}
	if((c = newchan(i, QDIR)) == nil){
		seterr(ENOMEM, nil);
		return nil;
	}
	if(devtab[i]->attach(c) < 0){
		cclose(c);
		return nil;
	}
	return c;
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

/*
 * The defaults: a device with a flat directory of the files in its
 * Dirtab needs only its own read, write or open.
 */
void
devreset(void)
{
}

void
devinit(void)
{
}

int
devattach(Chan *c)
{
	USED(c);
	return 0;
}

int
devwalk(Chan *c, char *name)
{
	Dev *dev = devtab[c->type];
	int i;

	if(c->qid != QDIR)
		return seterr(ENOTDIR, nil);
	for(i = 0; i < dev->ntab; i++)
		if(strcmp(dev->tab[i].name, name) == 0){
			c->qid = dev->tab[i].qid;
			return 0;
		}
	return seterr(ENOENT, nil);
}

/* c's file in its device's Dirtab, or nil. */
static Dirtab*
tabentry(Chan *c)
{
	Dev *dev = devtab[c->type];
	int i;

	for(i = 0; i < dev->ntab; i++)
		if(dev->tab[i].qid == c->qid)
			return &dev->tab[i];
	return nil;
}

int
devstat(Chan *c, Dir *d)
{
	char name[3] = { '#', devtab[c->type]->dc, '\0' };
	Dirtab *t;

	if(c->qid == QDIR){
		dirfill(d, name, QDIR, 0, 0555, c->type);
		return 0;
	}
	if((t = tabentry(c)) == nil)
		return seterr(ENOENT, nil);
	dirfill(d, t->name, t->qid, t->length, t->perm, c->type);
	return 0;
}

/*
 * A file of the Dirtab opens only as its permissions allow (there are
 * no users: the owner's bits).  Opened regardless, /dev/time for
 * writing or consctl for reading was a success that every read or
 * write then refused.  Opening for writing a directory is refused
 * before this is called.
 */
int
devopen(Chan *c, int omode)
{
	static uint want[O_ACCMODE + 1] = { [O_RDONLY] 0400, [O_WRONLY] 0200, [O_RDWR] 0600, [O_ACCMODE] 0600 };
	uint w = want[omode & O_ACCMODE];
	Dirtab *t;

	if(c->qid & QDIR || (t = tabentry(c)) == nil)
		return 0;
	if((t->perm & w) != w)
		return seterr(EACCES, "permission denied");
	return 0;
}

int
devcreate(Chan *c, char *name, int omode, uint perm)
{
	USED(c);
	USED(name);
	USED(omode);
	USED(perm);
	return seterr(EACCES, "directory does not allow create");
}

long
devread(Chan *c, void *buf, long n, uvlong off)
{
	USED(c);
	USED(buf);
	USED(n);
	USED(off);
	return seterr(EACCES, "permission denied");
}

long
devwrite(Chan *c, void *buf, long n, uvlong off)
{
	USED(c);
	USED(buf);
	USED(n);
	USED(off);
	return seterr(EACCES, "permission denied");
}

void
devclose(Chan *c)
{
	USED(c);
}

int
devremove(Chan *c)
{
	USED(c);
	return seterr(EACCES, "cannot remove a device file");
}

/* Read a Dirtab as a run of Dirs; off and n are whole Dirs. */
static long
devdirread(Chan *c, void *buf, long n, uvlong off)
{
	Dev *dev = devtab[c->type];
	Dir *d = buf;
	uint i;
	long m = 0;

	for(i = off/sizeof(Dir); i < (uint)dev->ntab && m + sizeof(Dir) <= (ulong)n; i++){
		dirfill(d++, dev->tab[i].name, dev->tab[i].qid, dev->tab[i].length, dev->tab[i].perm, c->type);
		m += sizeof(Dir);
	}
	return m;
}

/*
 * Read directory c: a device with a Dirtab has it read here, one
 * without (the root) reads its own.
 */
long
dirread(Chan *c, void *buf, long n, uvlong off)
{
	if(devtab[c->type]->tab != nil)
		return devdirread(c, buf, n, off);
	return devtab[c->type]->read(c, buf, n, off);
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
