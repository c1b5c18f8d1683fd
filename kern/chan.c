/*
 * Names: channels, the mount table that bind fills and unmount
 * empties, and namec, which turns a path into a channel.  Paths are made absolute and cleaned
 * (".." removed lexically, as Plan 9 does) before they are walked, so
 * ".." never needs the devices' help.  There is one name space, shared
 * by all processes.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

static Lock	mountlk = { .name = "mounts" };	/* mounts, and every Mount's union */
static Lock	chanlk = { .name = "chan" };	/* every Chan's and Mount's ref */
static Mount	*mounts[NMOUNT];	/* the binds in force; nil is a free slot */
static Chan	*rootchan;	/* the root file system's root */

static void	mntclose(Mount*);
static void	reclaim(void);

Chan*
newchan(int type, uvlong qid)
{
	Chan *c;

	if((c = kmalloc(sizeof *c)) == nil)
		return nil;
	c->ref = 1;
	c->type = type;
	c->qid = qid;
	c->mode = -1;
	c->offlk = (QLock){ .lk.name = "offset" };
	c->offset = 0;
	c->aux = nil;
	c->mnt = nil;
	return c;
}

void
incref(Chan *c)
{
	lock(&chanlk);
	c->ref++;
	unlock(&chanlk);
}

/* Take one from *ref; what is left. */
static int
decref(int *ref)
{
	int r;

	lock(&chanlk);
	r = --*ref;
	unlock(&chanlk);
	return r;
}

void
cclose(Chan *c)
{
	if(decref(&c->ref) > 0)
		return;
	if(c->mode >= 0)
		devtab[c->type]->close(c);
	if(c->mnt != nil)
		mntclose(c->mnt);
	kfree(c);
}

/* A new, unopened channel to the same file, not through any union. */
Chan*
cclone(Chan *c)
{
	Chan *nc;

	if((nc = newchan(c->type, c->qid)) == nil)
		return nil;
	nc->aux = c->aux;
	return nc;
}

/* Let go of a reference to a bind; the last one closes its directories. */
static void
mntclose(Mount *m)
{
	int i;

	if(decref(&m->ref) > 0)
		return;
	cclose(m->from);
	for(i = 0; i < m->n; i++)
		cclose(m->to[i]);
	kfree(m);
}

static int
eqchan(Chan *a, Chan *b)
{
	return a->type == b->type && a->qid == b->qid;
}

/* The slot in mounts of the bind onto c, or -1.  mountlk must be held. */
static int
findmount(Chan *c)
{
	int i;

	for(i = 0; i < NMOUNT; i++)
		if(mounts[i] != nil && eqchan(mounts[i]->from, c))
			return i;
	return -1;
}

/*
 * If something is bound over c, the first directory of that union
 * instead; nil if it cannot be made (c is closed then): going on in c
 * would walk under the bind.
 */
static Chan*
domount(Chan *c)
{
	Chan *nc;
	int i;

	lock(&mountlk);
	if((i = findmount(c)) < 0){
		unlock(&mountlk);
		return c;
	}
	if((nc = cclone(mounts[i]->to[0])) == nil){
		unlock(&mountlk);
		cclose(c);
		seterr(ENOMEM, nil);
		return nil;
	}
	nc->mnt = mounts[i];
	lock(&chanlk);
	nc->mnt->ref++;
	unlock(&chanlk);
	unlock(&mountlk);
	cclose(c);
	return nc;
}

/* unionof, with mountlk held and no references taken. */
static int
union1(Chan *c, Chan **dirs)
{
	int i;

	if(c->mnt == nil){
		dirs[0] = c;
		return 1;
	}
	for(i = 0; i < c->mnt->n; i++)
		dirs[i] = c->mnt->to[i];
	return c->mnt->n;
}

/*
 * The directories to search when walking from c: a union's, or c
 * alone; each with a reference, which the caller gives back with
 * unionclose, so that an unmount meanwhile cannot free it.
 */
int
unionof(Chan *c, Chan **dirs)
{
	int i, n;

	lock(&mountlk);
	n = union1(c, dirs);
	for(i = 0; i < n; i++)
		incref(dirs[i]);
	unlock(&mountlk);
	return n;
}

void
unionclose(Chan **dirs, int n)
{
	while(n-- > 0)
		cclose(dirs[n]);
}

/*
 * Walk c one element down: the new channel, through what is bound
 * there if mnt; or nil.  Either way c is closed.
 */
static Chan*
walk1(Chan *c, char *elem, int mnt)
{
	Chan *dirs[NUNION], *nc;
	int i, n;

	if((c->qid & QDIR) == 0){
		cclose(c);
		seterr(ENOTDIR, nil);
		return nil;
	}
	n = unionof(c, dirs);
	for(i = 0; i < n; i++){
		if((nc = cclone(dirs[i])) == nil)
			break;
		if(devtab[nc->type]->walk(nc, elem) == 0){
			unionclose(dirs, n);
			cclose(c);
			return mnt ? domount(nc) : nc;
		}
		cclose(nc);
	}
	unionclose(dirs, n);
	cclose(c);
	seterr(i < n ? ENOMEM : ENOENT, nil);
	return nil;
}

/*
 * Add the elements of path p to the clean path dst[0..*n), whose first
 * root bytes (a "#x" device's, or none) stay: "." and empty elements
 * dropped, ".." taking the one before.  ENAMETOOLONG if it would reach
 * PATHMAX on the way, with its NUL.
 */
static int
addpath(char *dst, int *n, int root, char *p)
{
	char *elem;
	int k, q = *n;

	while(*p){
		while(*p == '/')
			p++;
		elem = p;
		while(*p && *p != '/')
			p++;
		k = p - elem;
		if(k == 0 || (k == 1 && elem[0] == '.'))
			continue;
		if(k == 2 && elem[0] == '.' && elem[1] == '.'){
			while(q > root && dst[--q] != '/')
				;
			continue;
		}
		if(k >= NAMELEN || q + 1 + k >= PATHMAX)
			return seterr(ENAMETOOLONG, nil);
		dst[q++] = '/';
		memmove(dst + q, elem, k);
		q += k;
	}
	*n = q;
	return 0;
}

/*
 * Make path absolute (relative to dot, itself clean) and clean: no
 * "." or empty elements, and ".." applied to what precedes it.  A
 * relative path is added to dot element by element, not joined to it
 * first, so that ".." works in a directory whose path is near PATHMAX
 * long.  A "#x" device path stays rooted at its device; x is any
 * character, '/' too, so that "#/" is the root file system's root and
 * "#//bin" its bin.
 */
int
cleanpath(char *dst, char *dot, char *path)
{
	int rel = path[0] != '/' && path[0] != '#', n = 0, root;
	char *p = rel ? dot : path;

	if(*p == '#'){
		dst[n++] = *p++;
		if(*p != '\0')
			dst[n++] = *p++;
		if(*p != '\0' && *p != '/')
			return seterr(ENOENT, "unknown device");
	}
	root = n;
	if(addpath(dst, &n, root, p) < 0 || (rel && addpath(dst, &n, root, path) < 0))
		return -1;
	if(n == 0)
		dst[n++] = '/';
	dst[n] = '\0';
	return 0;
}

/*
 * The channel for path, not open.  If last is not nil, stop one
 * element short and put that last element in last, for create.
 */
Chan*
namec(char *path, char *last)
{
	char clean[PATHMAX], elem[NAMELEN], *p;
	Chan *c;
	int n;

	if(cleanpath(clean, up ? up->dot : "/", path) < 0)
		return nil;
	p = clean;
	/*
	 * A device named by its letter is the device itself, walked with
	 * no bind in the way, on it or under it: no bind hides '#c/power'
	 * (poweroff's), not even one onto '#c/power' or '/dev/power'.
	 */
	if(*p == '#'){
		c = cattach(p[1]);
		p += p[1] != '\0' ? 2 : 1;
	}else if((c = cclone(rootchan)) == nil)
		seterr(ENOMEM, nil);
	else
		c = domount(c);
	if(c == nil)
		return nil;
	/*
	 * A clean path is "/elem" repeated, each elem shorter than NAMELEN.
	 * A scheduling point at each: 125 elements through a directory of
	 * 880 files bound under itself held the processor 3.2 ms without.
	 */
	while(*p == '/' && p[1] != '\0'){
		if(schedpoint() < 0){
			cclose(c);
			return nil;
		}
		p++;
		for(n = 0; p[n] != '\0' && p[n] != '/'; n++)
			;
		memmove(elem, p, n);
		elem[n] = '\0';
		p += n;
		if(*p == '\0' && last != nil){
			strcpy(last, elem);
			return c;
		}
		if((c = walk1(c, elem, clean[0] != '#')) == nil)
			return nil;
	}
	if(last != nil){
		cclose(c);
		seterr(EEXIST, "cannot create the root");
		return nil;
	}
	return c;
}

/*
 * The directory that co names, as a mount point: co was walked to
 * before mountlk was taken, and so reflects the mount table as it was
 * then.  Through a bind, co is the union's first directory and the
 * directory bound over is its mount's from.
 */
static Chan*
mountpoint(Chan *co)
{
	return co->mnt != nil ? co->mnt->from : co;
}

/*
 * The bind in force on directory at now, or nil: not co->mnt, which
 * another processor's bind or unmount may have made stale since co
 * was walked to.  mountlk must be held.
 */
static Mount*
mountnow(Chan *at)
{
	int i;

	return (i = findmount(at)) >= 0 ? mounts[i] : nil;
}

/*
 * The union that binding cn at directory at makes, in u, m being the
 * bind in force there: its size, or -1.  mountlk must be held.
 */
static int
newunion(Chan *cn, Chan *at, Mount *m, int flag, Chan **u)
{
	Chan **dirs = m != nil ? m->to : &at;
	int i, n = m != nil ? m->n : 1, nu = 0;
	int room = flag == MBEFORE ? NUNION : NUNION - 1;	/* for the old directories: cn is in u already, or goes last */

	if(flag == MBEFORE)
		u[nu++] = cn;
	if(flag != MREPL){
		for(i = 0; i < n; i++){
			if(eqchan(dirs[i], cn))
				continue;
			if(nu == room)
				return seterr(ENOMEM, "union full");
			u[nu++] = dirs[i];
		}
	}
	if(flag != MBEFORE)
		u[nu++] = cn;
	return nu;
}

/*
 * The mount point at directory at: m, the one there is, or a new one
 * with an empty union.  mountlk must be held.
 */
static Mount*
mountat(Chan *at, Mount *m)
{
	int i;

	if(m != nil)
		return m;
	reclaim();
	for(i = 0; i < NMOUNT && mounts[i] != nil; i++)
		;
	if(i == NMOUNT){
		seterr(ENOMEM, "mount table full");
		return nil;
	}
	if((m = kmalloc(sizeof *m)) == nil || (m->from = cclone(at)) == nil){
		kfree(m);
		seterr(ENOMEM, nil);
		return nil;
	}
	m->ref = 1;
	m->n = 0;
	mounts[i] = m;
	return m;
}

/*
 * bind new old: old now shows new (MREPL), or, directories, a union
 * of both (MBEFORE: new first, MAFTER: old first).  Binding a directory that
 * is already in the union changes nothing.
 */
int
kbind(char *new, char *old, int flag)
{
	Chan *cn = nil, *co = nil, *at, *u[NUNION];
	Mount *m;
	int i, nu, r = -1;

	if(flag != MREPL && flag != MBEFORE && flag != MAFTER)
		seterr(EINVAL, "bad bind flag");
	else if((cn = namec(new, nil)) == nil || (co = namec(old, nil)) == nil)
		;	/* namec has said why */
	else if((cn->qid & QDIR) != (co->qid & QDIR))
		seterr(ENOTDIR, "bind: directory and file");
	else if((cn->qid & QDIR) == 0 && flag != MREPL)
		/* A walk reaches only a union's first file: bind -a of a file was a success that showed nothing. */
		seterr(ENOTDIR, "bind: a union of files");
	else{
		lock(&mountlk);
		at = mountpoint(co);
		m = mountnow(at);
		/*
		 * Not onto a pipe's directory or files: only the attach that
		 * made the pipe reaches them (each walk to #| makes a new
		 * one), so a bind there outlives every name for it, to be
		 * neither used nor undone, and 32 filled the table for good.
		 */
		if(devtab[at->type]->dc == '|')
			seterr(EINVAL, "bind onto a pipe");
		/*
		 * Nor onto another device's directory than the root file
		 * system's: only its "#x" path, which passes every bind, and
		 * the binds of it, whose directories a walk goes on in
		 * without looking for a bind again, reach it, so such a bind
		 * was a success that no walk saw.
		 */
		else if(at->qid & QDIR && devtab[at->type]->dc != '/')
			seterr(EINVAL, "bind onto a device's directory");
		else if((nu = newunion(cn, at, m, flag, u)) >= 0 && (m = mountat(at, m)) != nil){
			/* The union takes over cn's reference, and one more of each other. */
			if(cn->mnt != nil){
				mntclose(cn->mnt);
				cn->mnt = nil;
			}
			for(i = 0; i < nu; i++)
				if(u[i] != cn)
					incref(u[i]);
			for(i = 0; i < m->n; i++)
				cclose(m->to[i]);
			for(i = 0; i < nu; i++)
				m->to[i] = u[i];
			m->n = nu;
			cn = nil;
			r = 0;
		}
		unlock(&mountlk);
	}
	if(cn != nil)
		cclose(cn);
	if(co != nil)
		cclose(co);
	return r;
}

/*
 * unmount new old: take new out of the union at old; with new nil,
 * undo every bind onto old.  A union left empty leaves the table.
 */
int
kunmount(char *new, char *old)
{
	Chan *cn = nil, *co;
	Mount *m;
	int i, j, r = 0;

	if((co = namec(old, nil)) == nil)
		return -1;
	if(new != nil && (cn = namec(new, nil)) == nil){
		cclose(co);
		return -1;
	}
	lock(&mountlk);
	if((i = findmount(mountpoint(co))) < 0)
		r = seterr(EINVAL, "not mounted");
	else{
		m = mounts[i];
		if(cn != nil){
			for(j = 0; j < m->n && !eqchan(m->to[j], cn); j++)
				;
			if(j == m->n)
				r = seterr(ENOENT, "not in the union");
			else{
				cclose(m->to[j]);
				m->n--;
				memmove(&m->to[j], &m->to[j + 1], (m->n - j)*sizeof m->to[0]);
			}
		}
		if(r == 0 && (cn == nil || m->n == 0)){
			mounts[i] = nil;
			mntclose(m);
		}
	}
	unlock(&mountlk);
	if(cn != nil)
		cclose(cn);
	cclose(co);
	return r;
}

/*
 * Take out of the table the binds onto directories that have been
 * removed (their stat fails): no name reaches them now, and they must
 * not fill the table for good.  mountlk must be held.
 */
static void
reclaim(void)
{
	Dir d;
	int i;

	for(i = 0; i < NMOUNT; i++)
		if(mounts[i] != nil && devtab[mounts[i]->from->type]->stat(mounts[i]->from, &d) < 0){
			mntclose(mounts[i]);
			mounts[i] = nil;
		}
}

/*
 * A file has been removed: the binds onto it go now, not when the
 * table next wants a slot, so that their heap comes back with it
 * (its maker may be long gone by then).
 */
void
mountgone(void)
{
	lock(&mountlk);
	reclaim();
	unlock(&mountlk);
}

void
chaninit(Chan *root)
{
	rootchan = root;
}
