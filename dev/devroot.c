/*
 * The root file system, #/: a tree of directories and files in kernel
 * memory, filled at boot from the archive GRUB loaded (kern/archive.c),
 * and writable.  A file from the archive is read where the archive
 * lies, whose pages the kernel never reuses (rootdata); its first write
 * copies it to the heap.  A file's qid is its slot in node[] with its serial
 * number above it: each file made gets the next serial, 47 bits of
 * them (a new file every microsecond for four years), so no two files
 * ever share a qid, and a channel to a removed file is recognised as
 * stale however many files have used its slot since.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	NNODE	= 1024,		/* files and directories at once */
	MAXFILE	= 4*1024*1024,	/* largest file */
	Reserve	= 2*1024*1024,	/* heap that files leave for processes and channels */
	Slot	= 0xFFFF,	/* qid bits that give the slot */
	Chunk	= 64*1024,	/* bytes copied between scheduling points */
};

typedef struct Node Node;
struct Node {
	char	name[NAMELEN];
	int	used;
	int	parent;		/* slot of the directory holding it */
	int	kids;		/* a directory's first entry; 0 for none (the root is no one's) */
	int	next;		/* the next entry of its directory, in the order made; 0 at the end */
	uvlong	serial;		/* which file this is: never reused */
	uint	perm;		/* permission bits, and DMDIR for a directory */
	char	*data;		/* a file's contents */
	uint	len;		/* bytes in data */
	uint	cap;		/* bytes allocated for data; 0 if in the archive */
	int	busy;		/* grow is moving data, or an append is under way: other writes, truncations and removals wait */
};

/*
 * rootlk guards the nodes and what they hold.  Each operation holds
 * it throughout, but across its scheduling points (rootpoint), after
 * which it finds its node again.
 */
static Lock	rootlk = { .name = "root" };
static Node node[NNODE];
static uvlong lastserial;	/* of the file made last; the root's is 0 */

/* A scheduling point of an operation holding rootlk. */
static int
rootpoint(void)
{
	int r;

	unlock(&rootlk);
	r = schedpoint();
	lock(&rootlk);
	return r;
}

static uvlong
qidof(int i)
{
	return (node[i].serial << 16) | i | (node[i].perm & DMDIR ? QDIR : 0);
}

/* The node c names, or nil (and an error) if it has been removed. */
static Node*
lookup(Chan *c)
{
	int i = c->qid & Slot;

	if(i >= NNODE || !node[i].used || qidof(i) != c->qid){
		seterr(ENOENT, "file has been removed");
		return nil;
	}
	return &node[i];
}

/* The slot of name in directory dir (any entry, if name is nil), or -1. */
static int
child(int dir, char *name)
{
	int i;

	for(i = node[dir].kids; i != 0; i = node[i].next)
		if(name == nil || strcmp(node[i].name, name) == 0)
			return i;
	return -1;
}

static int
newnode(int dir, char *name, uint perm)
{
	int i, *l;

	for(i = 1; i < NNODE; i++)
		if(!node[i].used)
			break;
	if(i == NNODE)
		return seterr(ENOSPC, "too many files");
	strlcpy(node[i].name, name, NAMELEN);
	node[i].used = 1;
	node[i].serial = ++lastserial;
	node[i].parent = dir;
	node[i].kids = 0;
	node[i].next = 0;
	for(l = &node[dir].kids; *l != 0; l = &node[*l].next)
		;
	*l = i;
	node[i].perm = perm;
	node[i].len = 0;
	return i;
}

/*
 * The node c names once no grow or append is at work on it, for what
 * changes it; or nil if it has been removed meanwhile.
 */
static Node*
lookupfixed(Chan *c)
{
	Node *n;

	while((n = lookup(c)) != nil && n->busy)
		sleep(n, &rootlk);
	return n;
}

/*
 * Make room for len bytes in a file, and make its data the heap's, not
 * the archive's, so that it can be written.  The data moves to a buffer
 * twice the size, a chunk at a time between scheduling points;
 * meanwhile readers read the old buffer, and whatever would change it
 * waits.
 */
static int
grow(Node *n, uint len)
{
	char *d;
	uint cap, m, k;
	int r = 0;

	if(len <= n->cap)
		return 0;
	if(len < n->len)
		len = n->len;
	if(len > MAXFILE)
		return seterr(EFBIG, nil);
	cap = n->cap ? n->cap : 256;
	while(cap < len)
		cap *= 2;
	/* heapfree() may already be under Reserve: compare without wrapping. */
	if(heapfree() < Reserve || cap > heapfree() - Reserve || (d = kmalloc(cap)) == nil)
		return seterr(ENOSPC, "out of memory for files");
	n->busy = 1;
	for(m = 0; m < n->len; m += k){
		if(m > 0 && (r = rootpoint()) < 0)
			break;
		k = n->len - m < Chunk ? n->len - m : Chunk;
		memmove(d + m, n->data + m, k);
	}
	if(r < 0)
		kfree(d);
	else{
		if(n->cap > 0)
			kfree(n->data);
		n->data = d;
		n->cap = cap;
	}
	n->busy = 0;
	wakeup(n);
	return r;
}

static void
rootinit(void)
{
	node[0].used = 1;
	node[0].perm = DMDIR|0775;
	strcpy(node[0].name, "/");
}

static int
rootwalk1(Chan *c, char *name)
{
	Node *n;
	int i;

	if((n = lookup(c)) == nil)
		return -1;
	if((i = child(n - node, name)) < 0)
		return seterr(ENOENT, nil);
	c->qid = qidof(i);
	return 0;
}

static void
nodestat(Node *n, Dir *d)
{
	memset(d, 0, sizeof *d);
	strlcpy(d->name, n->name, NAMELEN);
	d->qid = qidof(n - node);
	d->mode = n->perm;
	d->length = n->perm & DMDIR ? 0 : n->len;
	d->type = '/';
}

static int
rootstat1(Chan *c, Dir *d)
{
	Node *n;

	if((n = lookup(c)) == nil)
		return -1;
	nodestat(n, d);
	return 0;
}

static int
rootopen1(Chan *c, int omode)
{
	Node *n;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if((omode & O_ACCMODE) != O_RDONLY || omode & O_TRUNC)
			return seterr(EISDIR, nil);
	}else if(omode & O_TRUNC && (omode & O_ACCMODE) != O_RDONLY){
		if((n = lookupfixed(c)) == nil)
			return -1;
		n->len = 0;
	}
	return 0;
}

static int
rootcreate1(Chan *c, char *name, int omode, uint perm)
{
	Node *n;
	int i;

	if((n = lookup(c)) == nil)
		return -1;
	if((n->perm & DMDIR) == 0)
		return seterr(ENOTDIR, nil);
	if(child(n - node, name) >= 0)
		return seterr(EEXIST, nil);
	if(strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return seterr(EINVAL, "bad file name");
	if((i = newnode(n - node, name, perm & (DMDIR|0777))) < 0)
		return -1;
	c->qid = qidof(i);
	USED(omode);
	return 0;
}

static long
rootread1(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;
	int i;
	uint k;
	long m, r;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if(len < (long)sizeof(Dir))
			return 0;
		k = off / sizeof(Dir);
		for(i = n->kids; i != 0 && k > 0; i = node[i].next)
			k--;
		if(i == 0)
			return 0;
		nodestat(&node[i], buf);
		return sizeof(Dir);
	}
	for(m = 0; m < len; m += r){
		if(m > 0 && (rootpoint() < 0 || (n = lookup(c)) == nil))
			break;
		if(off + m >= n->len)
			break;
		r = n->len - (off + m);
		if(r > len - m)
			r = len - m;
		if(r > Chunk)
			r = Chunk;
		memmove((char*)buf + m, n->data + off + m, r);
	}
	return m;
}

/*
 * A write past the end first fills the gap with zeros.  The file's
 * room (cap) shrinks only when it is removed, so after a scheduling
 * point it is enough to find it again: another process may have
 * written, grown or truncated it meanwhile, as it may between two
 * write calls.  A channel open with O_APPEND writes at the end, which
 * is found here, under rootlk, and becomes its offset (the caller holds
 * offlk): two appends on channels of their own never find the same
 * end.  An append that meets scheduling points keeps the file busy
 * throughout, so that no other write lands inside it.
 */
static long
rootwrite1(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;
	long m, k;
	int append = c->mode & O_APPEND, held = 0;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR)
		return seterr(EISDIR, nil);
	if((n = lookupfixed(c)) == nil)
		return -1;
	if(append)
		c->offset = off = n->len;
	if(off + len > MAXFILE)
		return seterr(EFBIG, nil);
	if(grow(n, off + len) < 0)
		return -1;
	for(m = 0; m < len;){
		if(n->len < off){
			k = off - n->len < Chunk ? off - n->len : Chunk;
			memset(n->data + n->len, 0, k);
			n->len += k;
		}else{
			k = len - m < Chunk ? len - m : Chunk;
			memmove(n->data + off + m, (char*)buf + m, k);
			m += k;
			if(off + m > n->len)
				n->len = off + m;
		}
		if(m >= len)
			break;
		if(append && !held)
			n->busy = held = 1;
		if(rootpoint() < 0 || (held ? lookup(c) : (n = lookupfixed(c))) == nil){
			m = m > 0 ? m : -1;
			break;
		}
	}
	if(held){
		n->busy = 0;
		wakeup(n);
	}
	return m;
}

static int
rootremove1(Chan *c)
{
	Node *n;
	int i, *l;

	if((n = lookup(c)) == nil)
		return -1;
	i = n - node;
	if(i == 0)
		return seterr(EBUSY, "cannot remove the root");
	if(n->perm & DMDIR && child(i, nil) >= 0)
		return seterr(ENOTEMPTY, nil);
	if((n = lookupfixed(c)) == nil)
		return -1;
	if(n->cap > 0)
		kfree(n->data);
	n->data = nil;
	n->cap = n->len = 0;
	n->used = 0;
	for(l = &node[n->parent].kids; *l != i; l = &node[*l].next)
		;
	*l = n->next;
	return 0;
}

/*
 * The hook for kern/archive.c: c, a file of #/, holds the len bytes at
 * data, a boot module the kernel never frees, from now on, in place.
 */
void
rootdata(Chan *c, uchar *data, uint len)
{
	Node *n;

	lock(&rootlk);
	if(devtab[c->type]->dc != '/' || (n = lookup(c)) == nil || n->perm & DMDIR)
		panic("rootdata: not a file of #/");
	if(n->cap > 0)
		kfree(n->data);
	n->data = (char*)data;
	n->len = len;
	n->cap = 0;
	unlock(&rootlk);
}

/* The operations of the device table: each of the above, holding rootlk. */

static int
rootwalk(Chan *c, char *name)
{
	int r;

	lock(&rootlk);
	r = rootwalk1(c, name);
	unlock(&rootlk);
	return r;
}

static int
rootstat(Chan *c, Dir *d)
{
	int r;

	lock(&rootlk);
	r = rootstat1(c, d);
	unlock(&rootlk);
	return r;
}

static int
rootopen(Chan *c, int omode)
{
	int r;

	lock(&rootlk);
	r = rootopen1(c, omode);
	unlock(&rootlk);
	return r;
}

static int
rootcreate(Chan *c, char *name, int omode, uint perm)
{
	int r;

	lock(&rootlk);
	r = rootcreate1(c, name, omode, perm);
	unlock(&rootlk);
	return r;
}

static long
rootread(Chan *c, void *buf, long len, uvlong off)
{
	long r;

	lock(&rootlk);
	r = rootread1(c, buf, len, off);
	unlock(&rootlk);
	return r;
}

static long
rootwrite(Chan *c, void *buf, long len, uvlong off)
{
	long r;

	lock(&rootlk);
	r = rootwrite1(c, buf, len, off);
	unlock(&rootlk);
	return r;
}

static int
rootremove(Chan *c)
{
	int r;

	lock(&rootlk);
	r = rootremove1(c);
	unlock(&rootlk);
	return r;
}

Dev rootdevtab = {
	.dc = '/',
	.init = rootinit,
	.walk = rootwalk,
	.stat = rootstat,
	.open = rootopen,
	.create = rootcreate,
	.read = rootread,
	.write = rootwrite,
	.remove = rootremove,
};
