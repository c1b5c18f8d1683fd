/*
 * The boot archive: the ustar file the boot loader passes as the first
 * module, unpacked at boot into the root file system through the
 * device table, as a program would make the same files, except that
 * the files' contents stay where they lie in the archive (rootdata):
 * /kernel and /bin cost no copy.  The other modules appear as
 * /boot/NAME (kern/main.c).
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "tar.h"

/* The channel to path, made if it is not there; a file's is open to write, and empty. */
static Chan*
make(char *path, int dir)
{
	Chan *c;

	if((c = namec(path, nil)) != nil)
		return dir ? c : copen(c, O_WRONLY|O_TRUNC);
	return ccreate(path, dir ? O_RDONLY : O_WRONLY, dir ? DMDIR|0775 : 0664);
}

/* Add a file or directory from the boot archive, making its parents. */
static int
addpath(char *path, int dir, const uchar *data, uint size)
{
	char sub[PATHMAX];
	Chan *c;
	char *e;

	if(strlen(path) + 1 >= PATHMAX)
		return -1;
	for(e = strchr(path, '/'); e != nil; e = strchr(e + 1, '/')){
		snprintf(sub, sizeof sub, "/%.*s", (int)(e - path), path);
		if((c = make(sub, 1)) == nil)
			return -1;
		cclose(c);
	}
	snprintf(sub, sizeof sub, "/%s", path);
	if((c = make(sub, dir)) == nil)
		return -1;
	if(!dir)
		rootdata(c, (uchar*)data, size);
	cclose(c);
	return 0;
}

/* Fill the tree from a ustar archive; a malformed one is a panic. */
void
rootload(uchar *a, uint len)
{
	Tarent e;
	uint off = 0;
	int r;

	while((r = tarnext(a, len, &off, &e)) > 0)
		if(addpath(e.name, e.dir, e.data, e.size) < 0)
			panic("root: cannot add %s", e.name);
	if(r < 0)
		panic("root: bad archive at byte %d", off);
}

/* Add a file to the tree: how the boot modules other than the root appear. */
void
rootfile(char *path, uchar *data, uint len)
{
	if(addpath(path, 0, data, len) < 0)
		panic("root: cannot add %s", path);
}
