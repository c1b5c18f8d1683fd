/*
 * Pipes, #|: pipe() makes a buffer and two channels to it, qid Qread
 * for reading and Qwrite for writing.  A read waits for data or for
 * the last writer to go; a write waits for room, and fails with EPIPE
 * once the last reader has gone.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Qread = 1, Qwrite, Psize = 4096 };

typedef struct Pipe Pipe;
struct Pipe {
	char	buf[Psize];
	uint	r;		/* bytes read, ever */
	uint	w;		/* bytes written, ever */
	int	readers;	/* open read channels */
	int	writers;	/* open write channels */
};

/* Make a pipe: c[0] to read from, c[1] to write to. */
int
newpipe(Chan **c)
{
	Pipe *p;

	if((p = kmalloc(sizeof *p)) == nil)
		return seterr(ENOMEM, nil);
	c[0] = devattach('|');
	c[1] = devattach('|');
	if(c[0] == nil || c[1] == nil){
		if(c[0] != nil)
			cclose(c[0]);
		if(c[1] != nil)
			cclose(c[1]);
		kfree(p);
		return seterr(ENOMEM, nil);
	}
	c[0]->qid = Qread;
	c[0]->mode = O_RDONLY;
	c[0]->aux = p;
	c[1]->qid = Qwrite;
	c[1]->mode = O_WRONLY;
	c[1]->aux = p;
	p->r = p->w = 0;
	p->readers = p->writers = 1;
	return 0;
}

static Chan*
pipeattach(char *spec)
{
	USED(spec);
	return devattach('|');
}

static int
pipewalk(Chan *c, char *name)
{
	USED(c);
	USED(name);
	return seterr(ENOENT, nil);
}

static int
pipestat(Chan *c, Dir *d)
{
	Pipe *p = c->aux;

	memset(d, 0, sizeof *d);
	strcpy(d->name, c->qid == QDIR ? "#|" : "pipe");
	d->qid = c->qid;
	d->mode = c->qid == QDIR ? DMDIR|0555 : 0600;
	d->length = p != nil ? p->w - p->r : 0;
	d->type = '|';
	return 0;
}

static int
pipeopen(Chan *c, int omode)
{
	if((omode & O_ACCMODE) != O_RDONLY)
		return seterr(EISDIR, nil);
	USED(c);
	return 0;
}

static void
pipeclose(Chan *c)
{
	Pipe *p = c->aux;

	if(p == nil)
		return;
	if(c->qid == Qread)
		p->readers--;
	else
		p->writers--;
	if(p->readers == 0 && p->writers == 0)
		kfree(p);
	else
		wakeup(p);
}

/*
 * Only other processes change a pipe, and a process in the kernel is
 * never preempted: interrupts need be off only to sleep.
 */
static void
pipewait(Pipe *p)
{
	int s = splhi();

	sleep(p);
	splx(s);
}

static long
piperead(Chan *c, void *buf, long n, uvlong off)
{
	Pipe *p = c->aux;
	char *b = buf;
	long m = 0;

	USED(off);
	if(c->qid != Qread)
		return c->qid == QDIR ? 0 : seterr(EBADF, nil);
	while(p->r == p->w && p->writers > 0){
		if(up->killed)
			return seterr(EINTR, nil);
		pipewait(p);
	}
	while(m < n && p->r != p->w)
		b[m++] = p->buf[p->r++ % Psize];
	wakeup(p);
	return m;
}

static long
pipewrite(Chan *c, void *buf, long n, uvlong off)
{
	Pipe *p = c->aux;
	char *b = buf;
	long m = 0;

	USED(off);
	if(c->qid != Qwrite)
		return seterr(EBADF, nil);
	while(m < n){
		if(p->readers == 0)
			return seterr(EPIPE, nil);
		if(up->killed)
			return seterr(EINTR, nil);
		if(p->w - p->r == Psize){
			wakeup(p);
			pipewait(p);
			continue;
		}
		p->buf[p->w++ % Psize] = b[m++];
	}
	wakeup(p);
	return m;
}

Dev pipedevtab = {
	'|',
	nil, pipeattach, pipewalk, pipestat, pipeopen, nil,
	piperead, pipewrite, pipeclose, nil,
};
