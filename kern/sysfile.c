/*
 * The system calls on names and files.  A file descriptor is an index
 * into the process's fd table of channels; dup and fork share the
 * channel, and so its offset, as Unix does.  Processes that use one
 * channel at once, on several processors or by turns at a sleep, take
 * turns at it: a read, write or seek holds the channel's offlk from
 * the offset it starts at to the one it leaves, so that no two calls
 * start at the same offset and no update is lost.  A call that waits
 * (for a pipe, or the console's next line) keeps the others on that
 * channel waiting too; those waiting can still be killed.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Maxoff = 0x7FFFFFFF };	/* the largest offset seek gives and takes */

/* The channel open on fd, or nil and EBADF. */
static Chan*
fdchan(int fd)
{
	if(fd < 0 || fd >= NFD || up->fd[fd] == nil){
		seterr(EBADF, nil);
		return nil;
	}
	return up->fd[fd];
}

/* Put c in the lowest free fd; on failure c is closed. */
static int
newfd(Chan *c)
{
	int fd;

	for(fd = 0; fd < NFD; fd++)
		if(up->fd[fd] == nil){
			up->fd[fd] = c;
			return fd;
		}
	cclose(c);
	return seterr(EMFILE, nil);
}

/* A path argument, copied in. */
static int
argpath(uint va, char *buf)
{
	if(fetchstr(va, buf, PATHMAX) < 0)
		return -1;
	if(buf[0] == '\0')
		return seterr(ENOENT, nil);
	return 0;
}

/*
 * Whether omode is one that open or create take: O_TRUNC empties the
 * file, a write, so not with O_RDONLY (taken, it kept the file whole:
 * a success that did not do what was asked).
 */
static int
okmode(int omode, int flags)
{
	if(omode & ~(O_ACCMODE|flags) || (omode & O_ACCMODE) == O_ACCMODE
	|| (omode & O_TRUNC && (omode & O_ACCMODE) == O_RDONLY))
		return seterr(EINVAL, "bad open mode");
	return 0;
}

/* Open c as omode; on failure c is closed. */
Chan*
copen(Chan *c, int omode)
{
	if((c->qid & QDIR) && ((omode & O_ACCMODE) != O_RDONLY || omode & O_TRUNC)){
		cclose(c);
		seterr(EISDIR, nil);
		return nil;
	}
	if(devtab[c->type]->open(c, omode) < 0){
		cclose(c);
		return nil;
	}
	c->mode = omode;
	c->offset = 0;
	return c;
}

/* Create name in the directory path names; returns it open, or nil. */
Chan*
ccreate(char *path, int omode, uint perm)
{
	char name[NAMELEN];
	Chan *c, *nc, *dirs[NUNION];
	int i, n;

	if((c = namec(path, name)) == nil)
		return nil;
	n = unionof(c, dirs);
	for(i = 0; i < n; i++)
		if(devtab[dirs[i]->type]->create != devcreate)
			break;
	if(i == n){
		unionclose(dirs, n);
		cclose(c);
		seterr(EACCES, "directory does not allow create");
		return nil;
	}
	nc = cclone(dirs[i]);
	unionclose(dirs, n);
	cclose(c);
	if((c = nc) == nil){
		seterr(ENOMEM, nil);
		return nil;
	}
	if(devtab[c->type]->create(c, name, omode, perm) < 0){
		cclose(c);
		return nil;
	}
	c->mode = omode;
	return c;
}

long
sysopen(uint *arg)
{
	char path[PATHMAX];
	Chan *c;
	int omode = arg[1], bound;

	if(okmode(omode, O_CREAT|O_TRUNC|O_APPEND) < 0 || argpath(arg[0], path) < 0)
		return -1;
	/*
	 * With O_CREAT, a file that another process makes after the walk
	 * found none is opened, not refused (EEXIST), and one it removes
	 * between the walk and the open is made again, not refused
	 * (ENOENT): look again.  Only such a race goes round; each turn
	 * walks the path, whose scheduling points end it if killed.  Not
	 * through a bind, whose file the walk does not look at again: one
	 * removed since is gone for good.
	 */
	for(;;){
		if((c = namec(path, nil)) != nil){
			bound = c->mnt != nil;
			if((c = copen(c, omode)) != nil || up->errno != ENOENT || (omode & O_CREAT) == 0 || bound)
				break;
		}else if(up->errno != ENOENT || (omode & O_CREAT) == 0)
			break;
		else if((c = ccreate(path, omode, 0664)) != nil || up->errno != EEXIST)
			break;
	}
	if(c == nil)
		return -1;
	return newfd(c);
}

/* create(path, omode, perm): make a file, or with DMDIR in perm a directory. */
long
syscreate(uint *arg)
{
	char path[PATHMAX];
	Chan *c;
	int omode = arg[1];

	if(okmode(omode, O_TRUNC|O_APPEND) < 0)
		return -1;
	if(arg[2] & DMDIR && (omode & O_ACCMODE) != O_RDONLY)
		return seterr(EISDIR, nil);
	if(argpath(arg[0], path) < 0)
		return -1;
	if((c = namec(path, nil)) != nil){
		cclose(c);
		return seterr(EEXIST, nil);
	}
	if((c = ccreate(path, omode, arg[2])) == nil)
		return -1;
	return newfd(c);
}

long
sysmkdir(uint *arg)
{
	char path[PATHMAX];
	Chan *c;

	if(argpath(arg[0], path) < 0)
		return -1;
	if((c = namec(path, nil)) != nil){
		cclose(c);
		return seterr(EEXIST, nil);
	}
	if((c = ccreate(path, O_RDONLY, DMDIR|0775)) == nil)
		return -1;
	cclose(c);
	return 0;
}

/*
 * Read a union directory: the entries of each of its directories in
 * turn, a whole Dir at a time, with a scheduling point at each (the
 * root file system finds entry k by walking k entries: a read of 900
 * held the processor 3.8 ms without).  The entries before off are
 * read into the kernel's own Dir, not the user's buffer, so that a
 * read that returns n bytes writes those n and nothing past them,
 * and one from past the end writes nothing.
 */
static long
unionread(Chan *c, char *buf, long n, uvlong off)
{
	Chan *dirs[NUNION];
	uint skip = off / sizeof(Dir), k;
	int i, nd;
	long m = 0, r;
	Dir skipped;

	nd = unionof(c, dirs);
	for(i = 0; i < nd && m + (long)sizeof(Dir) <= n; i++)
		for(k = 0; m + (long)sizeof(Dir) <= n; k++){
			if(schedpoint() < 0){
				unionclose(dirs, nd);
				return -1;
			}
			r = dirread(dirs[i], skip > 0 ? (char*)&skipped : buf + m, sizeof(Dir), k*sizeof(Dir));
			if(r <= 0)
				break;
			if(skip > 0)
				skip--;
			else
				m += r;
		}
	unionclose(dirs, nd);
	return m;
}

/*
 * Move c's offset past the n bytes a read or write moved.  A device
 * that ignores the offset (the console, null, a control file's
 * writes) would carry it past what seek can give back: it stops at
 * Maxoff, where every file with an end is at its end.
 */
static void
advance(Chan *c, long n)
{
	if(n > 0)
		c->offset = c->offset + n < Maxoff ? c->offset + n : Maxoff;
}

/*
 * The channel of read's or write's fd (arg[0]), open for how (O_RDONLY
 * or O_WRONLY), with arg[1] a buffer of arg[2] bytes the process may
 * write or read; or nil and the error.
 */
static Chan*
rwchan(uint *arg, int how)
{
	Chan *c;

	if((c = fdchan(arg[0])) == nil)
		return nil;
	if((long)arg[2] < 0){
		seterr(EINVAL, "negative count");
		return nil;
	}
	if((c->mode & O_ACCMODE) == (how == O_RDONLY ? O_WRONLY : O_RDONLY)){
		seterr(EBADF, how == O_RDONLY ? "file not open for reading" : "file not open for writing");
		return nil;
	}
	if(uvalid(arg[1], arg[2], how == O_RDONLY) < 0)
		return nil;
	return c;
}

long
sysread(uint *arg)
{
	Chan *c;
	long n = arg[2];

	if((c = rwchan(arg, O_RDONLY)) == nil)
		return -1;
	if((c->qid & QDIR) && n < (long)sizeof(Dir))
		return seterr(EINVAL, "directory read smaller than a Dir");
	if(n == 0)
		return 0;	/* as Unix's: nothing asked, so nothing to wait for on an empty pipe */
	if(qlockintr(&c->offlk) < 0)
		return -1;
	if(c->qid & QDIR)
		n = unionread(c, (char*)arg[1], n - n % sizeof(Dir), c->offset);
	else
		n = devtab[c->type]->read(c, (void*)arg[1], n, c->offset);
	advance(c, n);
	qunlock(&c->offlk);
	return n;
}

long
syswrite(uint *arg)
{
	Chan *c;
	long n = arg[2];

	if((c = rwchan(arg, O_WRONLY)) == nil)
		return -1;
	if(qlockintr(&c->offlk) < 0)
		return -1;
	/* With O_APPEND a device that has an end writes there, and moves the offset to it (devroot). */
	n = devtab[c->type]->write(c, (void*)arg[1], n, c->offset);
	advance(c, n);
	qunlock(&c->offlk);
	return n;
}

/* Move c's offset; its offlk held. */
static long
seekchan(Chan *c, vlong off, int whence)
{
	Dir d;

	switch(whence){
	case SEEK_SET:
		break;
	case SEEK_CUR:
		off += c->offset;
		break;
	case SEEK_END:
		if(devtab[c->type]->stat(c, &d) < 0)
			return -1;
		off += d.length;
		break;
	default:
		return seterr(EINVAL, "bad whence");
	}
	if(off < 0 || off > Maxoff)
		return seterr(EINVAL, "bad offset");
	c->offset = off;
	return off;
}

/* seek(fd, off, whence): the new offset. */
long
sysseek(uint *arg)
{
	Chan *c;
	long r;

	if((c = fdchan(arg[0])) == nil)
		return -1;
	if(devtab[c->type]->dc == '|')
		return seterr(ESPIPE, nil);
	if(qlockintr(&c->offlk) < 0)
		return -1;
	r = seekchan(c, (int)arg[1], arg[2]);
	qunlock(&c->offlk);
	return r;
}

long
sysclose(uint *arg)
{
	Chan *c;

	if((c = fdchan(arg[0])) == nil)
		return -1;
	up->fd[arg[0]] = nil;
	cclose(c);
	return 0;
}

long
sysdup(uint *arg)
{
	Chan *c;

	if((c = fdchan(arg[0])) == nil)
		return -1;
	incref(c);
	return newfd(c);
}

long
sysdup2(uint *arg)
{
	Chan *c;
	uint fd = arg[1];

	if((c = fdchan(arg[0])) == nil)
		return -1;
	if(fd >= NFD)
		return seterr(EBADF, nil);
	if(fd == arg[0])
		return fd;
	incref(c);
	if(up->fd[fd] != nil)
		cclose(up->fd[fd]);
	up->fd[fd] = c;
	return fd;
}

/* File name in directory d, open as omode; d stays as it was. */
static Chan*
openin(Chan *d, char *name, int omode)
{
	Chan *c;

	if((c = cclone(d)) == nil){
		seterr(ENOMEM, nil);
		return nil;
	}
	if(devtab[c->type]->walk(c, name) < 0){
		cclose(c);
		return nil;
	}
	return copen(c, omode);
}

/* As Plan 9's: a new #|, its data open to read and its data1 to write. */
long
syspipe(uint *arg)
{
	Chan *d, *c[2];
	int fd[2];

	if(uvalid(arg[0], sizeof fd, 1) < 0 || (d = cattach('|')) == nil)
		return -1;
	c[0] = openin(d, "data", O_RDONLY);
	c[1] = c[0] != nil ? openin(d, "data1", O_WRONLY) : nil;
	cclose(d);
	if(c[1] == nil){
		if(c[0] != nil)
			cclose(c[0]);
		return -1;
	}
	if((fd[0] = newfd(c[0])) < 0){
		cclose(c[1]);
		return -1;
	}
	if((fd[1] = newfd(c[1])) < 0){
		up->fd[fd[0]] = nil;
		cclose(c[0]);
		return -1;
	}
	memmove((void*)arg[0], fd, sizeof fd);
	return 0;
}

long
sysstat(uint *arg)
{
	char path[PATHMAX];
	Chan *c;
	int r;

	if(argpath(arg[0], path) < 0 || uvalid(arg[1], sizeof(Dir), 1) < 0)
		return -1;
	if((c = namec(path, nil)) == nil)
		return -1;
	r = devtab[c->type]->stat(c, (Dir*)arg[1]);
	cclose(c);
	return r;
}

long
sysfstat(uint *arg)
{
	Chan *c;

	if((c = fdchan(arg[0])) == nil || uvalid(arg[1], sizeof(Dir), 1) < 0)
		return -1;
	return devtab[c->type]->stat(c, (Dir*)arg[1]);
}

long
sysremove(uint *arg)
{
	char path[PATHMAX];
	Chan *c;
	int r;

	if(argpath(arg[0], path) < 0)
		return -1;
	if((c = namec(path, nil)) == nil)
		return -1;
	r = devtab[c->type]->remove(c);
	cclose(c);
	if(r == 0)
		mountgone();
	return r;
}

long
syschdir(uint *arg)
{
	char path[PATHMAX], clean[PATHMAX];
	Chan *c;

	if(argpath(arg[0], path) < 0 || cleanpath(clean, up->dot, path) < 0)
		return -1;
	if((c = namec(clean, nil)) == nil)
		return -1;
	if((c->qid & QDIR) == 0){
		cclose(c);
		return seterr(ENOTDIR, nil);
	}
	cclose(c);
	strcpy(up->dot, clean);
	return 0;
}

/* getwd(buf, n): the current directory, if it fits in n bytes with its NUL. */
long
sysgetwd(uint *arg)
{
	uint n = arg[1];

	if((int)n <= 0)
		return seterr(EINVAL, "bad length");
	if(strlen(up->dot) >= n)
		return seterr(ERANGE, "buffer too small");
	if(uvalid(arg[0], n, 1) < 0)
		return -1;
	strcpy((char*)arg[0], up->dot);
	return 0;
}

long
sysbind(uint *arg)
{
	char new[PATHMAX], old[PATHMAX];

	if(argpath(arg[0], new) < 0 || argpath(arg[1], old) < 0)
		return -1;
	return kbind(new, old, arg[2]);
}

/* unmount(new, old): new may be nil, to undo every bind onto old. */
long
sysunmount(uint *arg)
{
	char new[PATHMAX], old[PATHMAX];

	if(arg[0] != 0 && argpath(arg[0], new) < 0)
		return -1;
	if(argpath(arg[1], old) < 0)
		return -1;
	return kunmount(arg[0] != 0 ? new : nil, old);
}
