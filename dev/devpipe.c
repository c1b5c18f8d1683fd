/*
 * Pipes, #|, as Plan 9's: each attach is a new pipe, a directory of
 * two files, data to read from and data1 to write to; pipe(2) is an
 * attach, a walk to each and an open.  The pipe's buffer exists while
 * either end is open.  A read waits for data or for the last writer to
 * go; a write waits for room.  Once the last reader has gone, a write
 * fails with EPIPE and its writer dies quietly on its way back to user
 * mode (status 255), as Plan 9's note "sys: write on closed pipe" or
 * Unix's SIGPIPE ends one: the reader chose to stop, so `man x | head`
 * is no error of the writer's to print.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum {
	Qdata = 1,		/* the end to read */
	Qdata1,			/* the end to write */
	Psize = 4096,
	Nshift = 2,		/* a qid is the pipe's number, then Qdata or Qdata1 */
};

/* Of a pipe's number, what fits beside QDIR: 2^61 attaches, so it never wraps. */
#define Nmask	(~QDIR >> Nshift)

#define PIPEQID(n, q)	(((n) & Nmask) << Nshift | (q))
#define PIPENO(qid)	(((qid) >> Nshift) & Nmask)
#define PIPEQ(qid)	((qid) & ((1 << Nshift) - 1))

static Dirtab pipedir[] = {
	{ "data",	Qdata,	0,	0400 },
	{ "data1",	Qdata1,	0,	0200 },
};

typedef struct Pipe Pipe;
struct Pipe {
	char	buf[Psize];
	uint	r;		/* bytes read, ever */
	uint	w;		/* bytes written, ever */
	int	readers;	/* open read channels */
	int	writers;	/* open write channels */
	uvlong	n;		/* its number, in its channels' qids */
	Pipe	*next;		/* in pipes */
};

/* The pipes open at either end, and the number of the next attach. */
static Lock	pipelk = { .name = "pipe" };	/* these, and every Pipe */
static Pipe	*pipes;
static uvlong	npipe;

/* Every attach is a fresh pipe, if only in its number: its buffer waits for an open. */
static int
pipeattach(Chan *c)
{
	lock(&pipelk);
	c->qid = QDIR | PIPEQID(npipe++, 0);
	unlock(&pipelk);
	return 0;
}

static int
pipewalk(Chan *c, char *name)
{
	int q;

	if((c->qid & QDIR) == 0)
		return seterr(ENOTDIR, nil);
	if(strcmp(name, "data") == 0)
		q = Qdata;
	else if(strcmp(name, "data1") == 0)
		q = Qdata1;
	else
		return seterr(ENOENT, nil);
	c->qid = PIPEQID(PIPENO(c->qid), q);
	return 0;
}

static int
pipestat(Chan *c, Dir *d)
{
	Pipe *p = c->aux;

	memset(d, 0, sizeof *d);
	if(c->qid & QDIR){
		strcpy(d->name, "#|");
		d->mode = DMDIR|0555;
	}else{
		strcpy(d->name, pipedir[PIPEQ(c->qid) - 1].name);
		d->mode = pipedir[PIPEQ(c->qid) - 1].perm;
	}
	d->qid = c->qid;
	lock(&pipelk);
	d->length = p != nil ? p->w - p->r : 0;
	unlock(&pipelk);
	d->type = '|';
	return 0;
}

/* data opens only to read, data1 only to write; the first open makes the pipe. */
static int
pipeopen(Chan *c, int omode)
{
	Pipe *p;
	int q = PIPEQ(c->qid);

	if(c->qid & QDIR)
		return 0;
	if((omode & O_ACCMODE) != (q == Qdata ? O_RDONLY : O_WRONLY) || omode & O_TRUNC)
		return seterr(EACCES, "permission denied");
	lock(&pipelk);
	for(p = pipes; p != nil && p->n != PIPENO(c->qid); p = p->next)
		;
	if(p == nil){
		if((p = kmalloc(sizeof *p)) == nil){
			unlock(&pipelk);
			return seterr(ENOMEM, nil);
		}
		p->r = p->w = 0;
		p->readers = p->writers = 0;
		p->n = PIPENO(c->qid);
		p->next = pipes;
		pipes = p;
	}
	if(q == Qdata)
		p->readers++;
	else
		p->writers++;
	unlock(&pipelk);
	c->aux = p;
	return 0;
}

static void
pipeclose(Chan *c)
{
	Pipe *p = c->aux, **l;

	if(p == nil)
		return;
	lock(&pipelk);
	if(PIPEQ(c->qid) == Qdata)
		p->readers--;
	else
		p->writers--;
	if(p->readers > 0 || p->writers > 0){
		wakeup(p);
		unlock(&pipelk);
		return;
	}
	for(l = &pipes; *l != p; l = &(*l)->next)
		;
	*l = p->next;
	unlock(&pipelk);
	kfree(p);
}

/*
 * The bytes a read or write can move in one piece at byte at (of all
 * ever moved): at most n, at most avail, and not past the end of buf.
 */
static long
piece(long n, uint avail, uint at)
{
	if((uint)n > avail)
		n = avail;
	if((uint)n > Psize - at % Psize)
		n = Psize - at % Psize;
	return n;
}

static long
piperead(Chan *c, void *buf, long n, uvlong off)
{
	Pipe *p = c->aux;
	char *b = buf;
	long m = 0, k;

	USED(off);
	if(PIPEQ(c->qid) != Qdata)
		return seterr(EBADF, nil);
	lock(&pipelk);
	while(p->r == p->w && p->writers > 0){
		if(up->killed){
			unlock(&pipelk);
			return seterr(EINTR, nil);
		}
		sleepintr(p, &pipelk);
	}
	while(m < n && p->r != p->w){
		k = piece(n - m, p->w - p->r, p->r);
		memmove(b + m, p->buf + p->r % Psize, k);
		p->r += k;
		m += k;
	}
	wakeup(p);
	unlock(&pipelk);
	return m;
}

static long
pipewrite(Chan *c, void *buf, long n, uvlong off)
{
	Pipe *p = c->aux;
	char *b = buf;
	long m = 0, k;

	USED(off);
	if(PIPEQ(c->qid) != Qdata1)
		return seterr(EBADF, nil);
	lock(&pipelk);
	while(m < n){
		if(p->readers == 0){
			unlock(&pipelk);
			pkill(up->pid);	/* init, which pkill spares, writes to no pipe */
			return seterr(EPIPE, nil);
		}
		if(up->killed){
			unlock(&pipelk);
			return seterr(EINTR, nil);
		}
		if(p->w - p->r == Psize){
			wakeup(p);
			sleepintr(p, &pipelk);
			continue;
		}
		k = piece(n - m, Psize - (p->w - p->r), p->w);
		memmove(p->buf + p->w % Psize, b + m, k);
		p->w += k;
		m += k;
	}
	wakeup(p);
	unlock(&pipelk);
	return m;
}

Dev pipedevtab = {
	.dc = '|',
	.tab = pipedir,
	.ntab = nelem(pipedir),
	.attach = pipeattach,
	.walk = pipewalk,
	.stat = pipestat,
	.open = pipeopen,
	.read = piperead,
	.write = pipewrite,
	.close = pipeclose,
};
