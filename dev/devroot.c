/*
 * The root file system, #/: a tree of directories and files in kernel
 * memory, filled at boot from the archive GRUB loaded (kern/archive.c),
 * and writable.  The tree (names, directories, lengths) is rootlk's, a
 * spinlock held for the whole of a walk, stat or create; a file's data
 * is its own QLock's, held for the whole of a read, write, truncation
 * or removal, across the scheduling points of its long copies, so that
 * a 4 MB copy holds up only that file.  A file from the archive is read
 * where the archive lies, whose pages the kernel never reuses
 * (rootdata); its first write copies it to the heap.  A file's qid is
 * its slot in node[] with its serial number above it: each file made
 * gets the next serial, 47 bits of them (a new file every microsecond
 * for four years), so no two files ever share a qid, and a channel to
 * a removed file is recognised as stale however many files have used
 * its slot since.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	NNODE	= 1024,		/* files and directories at once */
	MAXFILE	= 4*1024*1024,	/* largest file */
	Slot	= 0xFFFF,	/* qid bits that give the slot */
	Chunk	= 64*1024,	/* bytes copied between scheduling points */
};

typedef struct Node Node;
struct Node {
	QLock	lk;		/* guards data and cap, and is held to change len */
	char	name[NAMELEN];
	int	used;
	int	parent;		/* slot of the directory holding it */
	int	kids;		/* a directory's first entry; 0 for none (the root is no one's) */
	int	next;		/* the next entry of its directory, in the order made; 0 at the end */
	uvlong	serial;		/* which file this is: never reused */
	uint	perm;		/* permission bits, and DMDIR for a directory */
	char	*data;		/* a file's contents */
	uint	len;		/* bytes in data: changed holding both locks (setlen) */
	uint	cap;		/* bytes allocated for data; 0 if in the archive */
};

static Lock	rootlk = { .name = "root" };	/* every field of every node but what its lk guards */
static Node node[NNODE];
static uvlong lastserial;	/* of the file made last; the root's is 0 */

static uvlong
qidof(int i)
{
	return (node[i].serial << 16) | i | (node[i].perm & DMDIR ? QDIR : 0);
}

/* The node c names, or nil (and an error) if it has been removed.  rootlk held. */
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

/*
 * The node c names, its lock held, or nil (and an error) if it
 * has been removed or the process was killed while it waited.  Held,
 * it cannot be removed.
 */
static Node*
pin(Chan *c)
{
	Node *n;

	lock(&rootlk);
	n = lookup(c);
	unlock(&rootlk);
	if(n == nil || qlockintr(&n->lk) < 0)
		return nil;
	lock(&rootlk);
	if(lookup(c) != n){	/* removed while it waited: the slot may hold another file now */
		unlock(&rootlk);
		qunlock(&n->lk);
		return nil;
	}
	unlock(&rootlk);
	return n;
}

static void
setlen(Node *n, uint len)
{
	lock(&rootlk);
	n->len = len;
	unlock(&rootlk);
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
	node[i].len = 0;	/* a removed file's len was 0, and no one has its lock for it */
	return i;
}

/*
 * Make room for len bytes in a pinned file, and make its data the
 * heap's, not the archive's, so that it can be written.  The data
 * moves to a buffer twice the size, a chunk at a time between
 * scheduling points.
 */
static int
grow(Node *n, uint len)
{
	char *d;
	uint cap, m, k;

	if(len <= n->cap)
		return 0;
	if(len < n->len)
		len = n->len;
	if(len > MAXFILE)
		return seterr(EFBIG, nil);
	cap = n->cap ? n->cap : 256;
	while(cap < len)
		cap *= 2;
	if((d = kmallocdata(cap)) == nil)
		return seterr(ENOSPC, "out of memory for files");
	for(m = 0; m < n->len; m += k){
		if(m > 0 && schedpoint() < 0){
			kfree(d);
			return -1;
		}
		k = n->len - m < Chunk ? n->len - m : Chunk;
		memmove(d + m, n->data + m, k);
	}
	if(n->cap > 0)
		kfree(n->data);
	n->data = d;
	n->cap = cap;
	return 0;
}

static void
rootinit(void)
{
	int i;

	for(i = 0; i < NNODE; i++)
		node[i].lk.lk.name = "rootfile";
	node[0].used = 1;
	node[0].perm = DMDIR|0775;
	strcpy(node[0].name, "/");
}

static int
rootwalk(Chan *c, char *name)
{
	Node *n;
	int i = -1;

	lock(&rootlk);
	if((n = lookup(c)) != nil && (i = child(n - node, name)) < 0)
		seterr(ENOENT, nil);
	if(i >= 0)
		c->qid = qidof(i);
	unlock(&rootlk);
	return i >= 0 ? 0 : -1;
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
rootstat(Chan *c, Dir *d)
{
	Node *n;

	lock(&rootlk);
	if((n = lookup(c)) != nil)
		nodestat(n, d);
	unlock(&rootlk);
	return n != nil ? 0 : -1;
}

static int
rootopen(Chan *c, int omode)
{
	Node *n;
	int r = 0;

	if((n = pin(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if((omode & O_ACCMODE) != O_RDONLY || omode & O_TRUNC)
			r = seterr(EISDIR, nil);
	}else if(omode & O_TRUNC && (omode & O_ACCMODE) != O_RDONLY)
		setlen(n, 0);
	qunlock(&n->lk);
	return r;
}

static int
rootcreate(Chan *c, char *name, int omode, uint perm)
{
	Node *n;
	int i = -1;

	USED(omode);
	lock(&rootlk);
	if((n = lookup(c)) == nil)
		;
	else if((n->perm & DMDIR) == 0)
		seterr(ENOTDIR, nil);
	else if(child(n - node, name) >= 0)
		seterr(EEXIST, nil);
	else if(strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		seterr(EINVAL, "bad file name");
	else if((i = newnode(n - node, name, perm & (DMDIR|0777))) >= 0)
		c->qid = qidof(i);
	unlock(&rootlk);
	return i >= 0 ? 0 : -1;
}

/* The Dir of directory n's entry k, if it has one: its size, or 0.  rootlk held. */
static long
dirent(Node *n, Dir *d, uint k)
{
	int i;

	for(i = n->kids; i != 0 && k > 0; i = node[i].next)
		k--;
	if(i == 0)
		return 0;
	nodestat(&node[i], d);
	return sizeof(Dir);
}

/* A directory reads as one Dir a call; a file a chunk at a time between scheduling points. */
static long
rootread(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;
	long m, r = 0;

	if((n = pin(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if(len >= (long)sizeof(Dir)){
			lock(&rootlk);
			r = dirent(n, buf, off / sizeof(Dir));
			unlock(&rootlk);
		}
	}else if(off < n->len){
		if(len > (long)(n->len - off))
			len = n->len - off;
		for(; r < len; r += m){
			if(r > 0 && schedpoint() < 0)
				break;
			m = len - r < Chunk ? len - r : Chunk;
			memmove((char*)buf + r, n->data + off + r, m);
		}
	}
	qunlock(&n->lk);
	return r;
}

/*
 * Write to a pinned file; a write past the end first fills the gap
 * with zeros.  A write of nothing changes nothing, wherever it is: it
 * neither fills a gap nor makes room for one.
 */
static long
write1(Node *n, char *buf, long len, uvlong off)
{
	long m = 0, k;

	if(n->perm & DMDIR)
		return seterr(EISDIR, nil);
	if(len == 0)
		return 0;
	if(off + len > MAXFILE)
		return seterr(EFBIG, nil);
	if(grow(n, off + len) < 0)
		return -1;
	while(m < len){
		if(n->len < off){
			k = off - n->len < Chunk ? off - n->len : Chunk;
			memset(n->data + n->len, 0, k);
			setlen(n, n->len + k);
		}else{
			k = len - m < Chunk ? len - m : Chunk;
			memmove(n->data + off + m, buf + m, k);
			m += k;
			if(off + m > n->len)
				setlen(n, off + m);
		}
		if(m < len && schedpoint() < 0)
			return m > 0 ? m : -1;
	}
	return m;
}

/*
 * A channel open with O_APPEND writes at the end, found here with the
 * file's lock held, and makes that its offset (the caller holds offlk):
 * the whole write holds the lock, so no other lands inside it.  A
 * write that fails (a file grown past its limit) leaves the offset.
 */
static long
rootwrite(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;
	long r;

	if((n = pin(c)) == nil)
		return -1;
	if(c->mode & O_APPEND)
		off = n->len;
	r = write1(n, buf, len, off);
	if(c->mode & O_APPEND && r >= 0)
		c->offset = off;
	qunlock(&n->lk);
	return r;
}

static int
rootremove(Chan *c)
{
	Node *n;
	int i, *l, r = 0;

	if((n = pin(c)) == nil)
		return -1;
	lock(&rootlk);
	i = n - node;
	if(i == 0)
		r = seterr(EBUSY, "cannot remove the root");
	else if(n->perm & DMDIR && child(i, nil) >= 0)
		r = seterr(ENOTEMPTY, nil);
	else{
		if(n->cap > 0)
			kfree(n->data);
		n->data = nil;
		n->cap = n->len = 0;
		n->used = 0;
		for(l = &node[n->parent].kids; *l != i; l = &node[*l].next)
			;
		*l = n->next;
	}
	unlock(&rootlk);
	qunlock(&n->lk);
	return r;
}

/*
 * The hook for kern/archive.c: c, a file of #/, holds the len bytes at
 * data, a boot module the kernel never frees, from now on, in place.
 */
void
rootdata(Chan *c, uchar *data, uint len)
{
	Node *n;

	if(devtab[c->type]->dc != '/' || (n = pin(c)) == nil || n->perm & DMDIR)
		panic("rootdata: not a file of #/");
	if(n->cap > 0)
		kfree(n->data);
	n->data = (char*)data;
	n->cap = 0;
	setlen(n, len);
	qunlock(&n->lk);
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
