/*
 * The root file system, #/: a tree of directories and files in kernel
 * memory, filled at boot from the archive GRUB loaded (kern/archive.c),
 * and writable.
 * A file's qid is its slot in node[] with a generation number above
 * it, so a channel to a removed file is recognised as stale.
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
};

typedef struct Node Node;
struct Node {
	char	name[NAMELEN];
	int	used;
	int	parent;		/* slot of the directory holding it */
	uint	gen;		/* bumped each time the slot is freed */
	uint	perm;		/* permission bits, and DMDIR for a directory */
	char	*data;		/* a file's contents */
	uint	len;		/* bytes in data */
	uint	cap;		/* bytes allocated for data */
};

static Node node[NNODE];

static uint
qidof(int i)
{
	return (node[i].gen << 16) | i | (node[i].perm & DMDIR ? QDIR : 0);
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

	for(i = 1; i < NNODE; i++)
		if(node[i].used && node[i].parent == dir && (name == nil || strcmp(node[i].name, name) == 0))
			return i;
	return -1;
}

static int
newnode(int dir, char *name, uint perm)
{
	int i;

	for(i = 1; i < NNODE; i++)
		if(!node[i].used)
			break;
	if(i == NNODE)
		return seterr(ENOSPC, "too many files");
	strlcpy(node[i].name, name, NAMELEN);
	node[i].used = 1;
	node[i].parent = dir;
	node[i].perm = perm;
	node[i].len = 0;
	return i;
}

/* Make room for len bytes in a file. */
static int
grow(Node *n, uint len)
{
	char *d;
	uint cap;

	if(len <= n->cap)
		return 0;
	if(len > MAXFILE)
		return seterr(EFBIG, nil);
	cap = n->cap ? n->cap : 256;
	while(cap < len)
		cap *= 2;
	if(cap > heapfree() - Reserve || (d = kmalloc(cap)) == nil)
		return seterr(ENOSPC, "out of memory for files");
	memmove(d, n->data, n->len);
	kfree(n->data);
	n->data = d;
	n->cap = cap;
	return 0;
}

static void
rootinit(void)
{
	node[0].used = 1;
	node[0].perm = DMDIR|0775;
	strcpy(node[0].name, "/");
}

static int
rootwalk(Chan *c, char *name)
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
rootstat(Chan *c, Dir *d)
{
	Node *n;

	if((n = lookup(c)) == nil)
		return -1;
	nodestat(n, d);
	return 0;
}

static int
rootopen(Chan *c, int omode)
{
	Node *n;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if((omode & O_ACCMODE) != O_RDONLY || omode & O_TRUNC)
			return seterr(EISDIR, nil);
	}else if(omode & O_TRUNC && (omode & O_ACCMODE) != O_RDONLY)
		n->len = 0;
	return 0;
}

static int
rootcreate(Chan *c, char *name, int omode, uint perm)
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
rootread(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;
	int i;
	uint k;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR){
		if(len < (long)sizeof(Dir))
			return 0;
		k = off / sizeof(Dir);
		for(i = 1; i < NNODE; i++)
			if(node[i].used && node[i].parent == n - node && k-- == 0){
				nodestat(&node[i], buf);
				return sizeof(Dir);
			}
		return 0;
	}
	if(off >= n->len)
		return 0;
	if(len > (long)(n->len - off))
		len = n->len - off;
	memmove(buf, n->data + off, len);
	return len;
}

static long
rootwrite(Chan *c, void *buf, long len, uvlong off)
{
	Node *n;

	if((n = lookup(c)) == nil)
		return -1;
	if(n->perm & DMDIR)
		return seterr(EISDIR, nil);
	if(off + len > MAXFILE)
		return seterr(EFBIG, nil);
	if(grow(n, off + len) < 0)
		return -1;
	if(off > n->len)
		memset(n->data + n->len, 0, off - n->len);
	memmove(n->data + off, buf, len);
	if(off + len > n->len)
		n->len = off + len;
	return len;
}

static int
rootremove(Chan *c)
{
	Node *n;
	int i;

	if((n = lookup(c)) == nil)
		return -1;
	i = n - node;
	if(i == 0)
		return seterr(EBUSY, "cannot remove the root");
	if(n->perm & DMDIR && child(i, nil) >= 0)
		return seterr(ENOTEMPTY, nil);
	kfree(n->data);
	n->data = nil;
	n->cap = n->len = 0;
	n->used = 0;
	n->gen = (n->gen + 1) & 0x7FFF;
	return 0;
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
