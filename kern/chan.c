/*
 * Names: channels, the mount table that bind fills, and namec, which
 * turns a path into a channel.  Paths are made absolute and cleaned
 * (".." removed lexically, as Plan 9 does) before they are walked, so
 * ".." never needs the devices' help.  There is one name space, shared
 * by all processes.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

static Mount	mounts[NMOUNT];
static Chan	*rootchan;	/* the root file system's root */

Chan*
newchan(int type, uint qid)
{
	Chan *c;

	if((c = kmalloc(sizeof *c)) == nil)
		return nil;
	c->ref = 1;
	c->type = type;
	c->qid = qid;
	c->mode = -1;
	return c;
}

/*
 * Only processes use channels, never interrupt handlers, and a process
 * in the kernel is not preempted: a plain count is enough.
 */
void
incref(Chan *c)
{
	c->ref++;
}

void
cclose(Chan *c)
{
	if(--c->ref > 0)
		return;
	if(c->mode >= 0)
		devtab[c->type]->close(c);
	kfree(c);
}

/* A new, unopened channel to the same file. */
Chan*
cclone(Chan *c)
{
	Chan *nc;

	if((nc = newchan(c->type, c->qid)) == nil)
		return nil;
	nc->aux = c->aux;
	nc->mnt = c->mnt;
	return nc;
}

static int
eqchan(Chan *a, Chan *b)
{
	return a->type == b->type && a->qid == b->qid;
}

static Mount*
findmount(Chan *c)
{
	Mount *m;

	for(m = mounts; m < mounts + NMOUNT; m++)
		if(m->from != nil && eqchan(m->from, c))
			return m;
	return nil;
}

/* If something is bound over c, the first directory of that union instead. */
static Chan*
domount(Chan *c)
{
	Mount *m;
	Chan *nc;

	if((m = findmount(c)) == nil || (nc = cclone(m->to[0])) == nil)
		return c;
	nc->mnt = m;
	cclose(c);
	return nc;
}

/* The directories to search when walking from c: a union's, or c alone. */
int
unionof(Chan *c, Chan **dirs)
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

/* Walk c one element down: the new channel, or nil.  Either way c is closed. */
static Chan*
walk1(Chan *c, char *elem)
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
		nc->mnt = nil;
		if(devtab[nc->type]->walk(nc, elem) == 0){
			cclose(c);
			return domount(nc);
		}
		cclose(nc);
	}
	cclose(c);
	seterr(i < n ? ENOMEM : ENOENT, nil);
	return nil;
}

/*
 * Make path absolute (relative to dot) and clean: no "." or empty
 * elements, and ".." applied to what precedes it.  A "#x" device
 * path stays rooted at its device.
 */
int
cleanpath(char *dst, char *dot, char *path)
{
	char tmp[PATHMAX], *p, *q, *elem;
	int n, root;

	if(path[0] == '/' || path[0] == '#')
		n = snprintf(tmp, sizeof tmp, "%s", path);
	else
		n = snprintf(tmp, sizeof tmp, "%s/%s", dot, path);
	if(n >= PATHMAX)
		return seterr(ENAMETOOLONG, nil);
	q = dst;
	p = tmp;
	if(*p == '#'){
		while(*p && *p != '/')
			*q++ = *p++;
	}
	root = q - dst;
	while(*p){
		while(*p == '/')
			p++;
		elem = p;
		while(*p && *p != '/')
			p++;
		n = p - elem;
		if(n == 0 || (n == 1 && elem[0] == '.'))
			continue;
		if(n == 2 && elem[0] == '.' && elem[1] == '.'){
			while(q > dst + root && *--q != '/')
				;
			continue;
		}
		if(n >= NAMELEN)
			return seterr(ENAMETOOLONG, nil);
		*q++ = '/';
		memmove(q, elem, n);
		q += n;
	}
	if(q == dst + root && root == 0)
		*q++ = '/';
	*q = '\0';
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
	if(*p == '#'){
		c = cattach(p[1]);
		while(*p && *p != '/')
			p++;
	}else if((c = cclone(rootchan)) == nil)
		seterr(ENOMEM, nil);
	if(c == nil)
		return nil;
	c = domount(c);
	/* A clean path is "/elem" repeated, each elem shorter than NAMELEN. */
	while(*p == '/' && p[1] != '\0'){
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
		if((c = walk1(c, elem)) == nil)
			return nil;
	}
	if(last != nil){
		cclose(c);
		seterr(EEXIST, "cannot create the root");
		return nil;
	}
	return c;
}

/* The union that binding cn at co makes, in u: its size, or -1. */
static int
newunion(Chan *cn, Chan *co, int flag, Chan **u)
{
	Chan *dirs[NUNION];
	int i, n, nu = 0;

	if(flag == MBEFORE)
		u[nu++] = cn;
	if(flag != MREPL){
		n = unionof(co, dirs);
		for(i = 0; i < n; i++){
			if(eqchan(dirs[i], cn))
				continue;
			if(nu == NUNION - 1)
				return seterr(ENOMEM, "union full");
			u[nu++] = dirs[i];
		}
	}
	if(flag != MBEFORE)
		u[nu++] = cn;
	return nu;
}

/* The mount point at co: the one there is, or a new one with an empty union. */
static Mount*
mountat(Chan *co)
{
	Mount *m;

	if(co->mnt != nil)
		return co->mnt;
	for(m = mounts; m < mounts + NMOUNT && m->from != nil; m++)
		;
	if(m == mounts + NMOUNT){
		seterr(ENOMEM, "mount table full");
		return nil;
	}
	if((m->from = cclone(co)) == nil){
		seterr(ENOMEM, nil);
		return nil;
	}
	m->from->mnt = nil;
	m->n = 0;
	return m;
}

/*
 * bind new old: old now shows new (MREPL), or a union of both
 * (MBEFORE: new first, MAFTER: old first).  Binding a directory that
 * is already in the union changes nothing.
 */
int
kbind(char *new, char *old, int flag)
{
	Chan *cn = nil, *co = nil, *u[NUNION];
	Mount *m;
	int i, nu, r = -1;

	if(flag != MREPL && flag != MBEFORE && flag != MAFTER)
		seterr(EINVAL, "bad bind flag");
	else if((cn = namec(new, nil)) == nil || (co = namec(old, nil)) == nil)
		;	/* namec has said why */
	else if((cn->qid & QDIR) != (co->qid & QDIR))
		seterr(ENOTDIR, "bind: directory and file");
	else if((nu = newunion(cn, co, flag, u)) >= 0 && (m = mountat(co)) != nil){
		/* The union takes over cn's reference, and one more of each other. */
		cn->mnt = nil;
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
	if(cn != nil)
		cclose(cn);
	if(co != nil)
		cclose(co);
	return r;
}

void
chaninit(Chan *root)
{
	rootchan = root;
}
