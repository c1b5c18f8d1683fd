/*
 * exec: replace the current process's memory with a static ELF32
 * program read from a file, arguments on the new stack.  Everything is
 * built in a new page directory first, so a bad file leaves the
 * process as it was.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"
#include "x86.h"

enum { Elfmag = 0x464C457F, Ptload = 1, Pfw = 2 };

typedef struct Ehdr Ehdr;
struct Ehdr {
	uint	magic;
	uchar	ident[12];
	ushort	type;
	ushort	machine;
	uint	version;
	uint	entry;
	uint	phoff;
	uint	shoff;
	uint	flags;
	ushort	ehsize;
	ushort	phentsize;
	ushort	phnum;
	ushort	shentsize;
	ushort	shnum;
	ushort	shstrndx;
};

typedef struct Phdr Phdr;
struct Phdr {
	uint	type;
	uint	offset;
	uint	vaddr;
	uint	paddr;
	uint	filesz;
	uint	memsz;
	uint	flags;
	uint	align;
};

/* Read exactly n bytes at off, or fail with ENOEXEC. */
static int
readn(Chan *c, void *buf, uint n, uint off)
{
	if(devtab[c->type]->read(c, buf, n, off) != (long)n)
		return seterr(ENOEXEC, "exec: truncated program");
	return 0;
}

/* Copy n bytes of kernel memory to user address va in pd. */
static int
copyto(pte_t *pd, uintptr va, void *src, uint n)
{
	char *s = src, *d;
	uint m;

	while(n > 0){
		if((d = uaddr(pd, va, 1)) == nil)
			return seterr(EFAULT, nil);
		m = BY2PG - va % BY2PG;
		if(m > n)
			m = n;
		memmove(d, s, m);
		va += m;
		s += m;
		n -= m;
	}
	return 0;
}

/*
 * Load the segments of the program on c into pd, through buf, a page;
 * returns the end of its memory, or 0 (an end above 2 GB is no
 * negative error).
 */
static uintptr
loadsegs(Chan *c, Ehdr *eh, pte_t *pd, char *buf)
{
	Phdr ph;
	uint i, off, n;
	uintptr top = UTZERO;

	for(i = 0; i < eh->phnum; i++){
		/* A point at each header too: 65535 of them, all empty, held the processor 35 ms. */
		if(schedpoint() < 0 || readn(c, &ph, sizeof ph, eh->phoff + i*sizeof ph) < 0)
			return 0;
		if(ph.type != Ptload || ph.memsz == 0)
			continue;
		if(ph.filesz > ph.memsz || ph.vaddr < UTZERO
		|| ph.memsz > USTACK - ph.vaddr || ph.vaddr > USTACK){
			seterr(ENOEXEC, "exec: bad segment");
			return 0;
		}
		/*
		 * As sbrk does, refuse before mapping what memory cannot
		 * hold: a segment of 3 GB had every free page zeroed and
		 * mapped before it failed, and others' forks failed meanwhile.
		 */
		if(ph.memsz / BY2PG > (uint)pagesfree()
		|| mapuser(pd, ph.vaddr, ph.vaddr + ph.memsz) < 0){
			seterr(ENOMEM, nil);
			return 0;
		}
		for(off = 0; off < ph.filesz; off += n){
			n = ph.filesz - off < BY2PG ? ph.filesz - off : BY2PG;
			if(schedpoint() < 0 || readn(c, buf, n, ph.offset + off) < 0
			|| copyto(pd, ph.vaddr + off, buf, n) < 0)
				return 0;
		}
		if((ph.flags & Pfw) == 0)
			protectuser(pd, ph.vaddr, ph.vaddr + ph.memsz, PTEW);
		if(ph.vaddr + ph.memsz > top)
			top = ph.vaddr + ph.memsz;
	}
	return ROUNDUP(top, BY2PG);
}

/*
 * Lay out argc, argv and the strings at the top of the stack; returns
 * the new stack pointer, which points at argc, or 0.
 */
static uintptr
pushargs(pte_t *pd, char **argv)
{
	uintptr sp = USTACKTOP, uargv[MAXARG + 1];
	int argc, n;

	for(argc = 0; argv[argc] != nil; argc++){
		n = strlen(argv[argc]) + 1;
		sp -= n;
		if(copyto(pd, sp, argv[argc], n) < 0)
			return 0;
		uargv[argc] = sp;
	}
	uargv[argc] = 0;
	sp = ROUNDDOWN(sp, 4) - (argc + 1)*4;
	if(copyto(pd, sp, uargv, (argc + 1)*4) < 0)
		return 0;
	uargv[0] = argc;
	uargv[1] = sp;
	sp -= 8;
	if(copyto(pd, sp, uargv, 8) < 0)
		return 0;
	return sp;
}

/*
 * The current process's name, for /dev/ps, kpproc and the line of a
 * fault: the last element of path, clean (as namec walked it, so
 * "/bin/ps/" and "/bin/ps/." are ps), and a control character in it
 * shown as '?', as a newline in a file's name would break those lines
 * in two, and forge a line.  Mended before it is copied in: /dev/ps
 * and kpproc read names on other processors meanwhile, under procs,
 * which this does not take.
 */
static void
setname(char *path)
{
	char clean[PATHMAX], *s;
	int i;

	if(cleanpath(clean, up->dot, path) < 0)
		return;	/* not after namec took it */
	s = strrchr(clean, '/');
	s = s != nil ? s + 1 : clean;
	for(i = 0; s[i] != '\0'; i++)
		if((uchar)s[i] < ' ' || s[i] == 0x7F)
			s[i] = '?';
	strlcpy(up->name, s, NAMELEN);
}

int
kexec(char *path, char **argv)
{
	Ehdr eh;
	Chan *c;
	pte_t *pd;
	Image *nim;
	uintptr top;
	uintptr sp;
	char *buf;

	if((c = namec(path, nil)) == nil)
		return -1;
	if(c->qid & QDIR){
		cclose(c);
		return seterr(EACCES, "exec: a directory");
	}
	/* Opened, as any read is: a device may set up its state at open (#| does). */
	if((c = copen(c, O_RDONLY)) == nil)
		return -1;
	pd = nil;
	nim = nil;
	if((buf = kmalloc(BY2PG)) == nil){
		seterr(ENOMEM, nil);
		goto bad;
	}
	if(readn(c, &eh, sizeof eh, 0) < 0)
		goto bad;
	if(eh.magic != Elfmag || eh.ident[0] != 1 || eh.machine != 3 || eh.type != 2
	|| eh.phentsize != sizeof(Phdr)){
		seterr(ENOEXEC, "exec: not an i386 executable");
		goto bad;
	}
	if((pd = newpgdir()) == nil || (nim = newimage()) == nil){
		seterr(ENOMEM, nil);
		goto bad;
	}
	if((top = loadsegs(c, &eh, pd, buf)) == 0)
		goto bad;
	if(mapuser(pd, USTACK, USTACKTOP) < 0){
		seterr(ENOMEM, nil);
		goto bad;
	}
	if((sp = pushargs(pd, argv)) == 0)
		goto bad;
	kfree(buf);
	cclose(c);

	setname(path);
	/* A new image, its profilers off; the caller's other threads go on in the old. */
	nim->hbase = nim->brk = nim->top = top;
	imleave(nim, pd);
	memset(up->ureg, 0, sizeof *up->ureg);
	up->ureg->pc = eh.entry;
	up->ureg->sp = sp;
	up->ureg->cs = UCSEG;
	up->ureg->ds = up->ureg->es = up->ureg->fs = up->ureg->gs = up->ureg->ss = UDSEG;
	up->ureg->flags = 0x200;
	fxrstor(&fpclean);	/* the FPU holds the running process's registers */
	return 0;
bad:
	if(pd != nil)
		freepgdir(pd, USTACK);	/* segments may have been mapped anywhere below the stack */
	if(nim != nil)
		kfree(nim);
	kfree(buf);
	cclose(c);
	return -1;
}

/*
 * exec(path, argv): copy the path and arguments in, then kexec.  The
 * arguments' buffer is the call's own: kexec may sleep reading a file.
 */
long
sysexec(uint *arg)
{
	char path[PATHMAX], *argv[MAXARG + 1], *strs;
	uintptr va;
	uint used = 0;
	int i, r = -1;

	if(fetchstr(arg[0], path, PATHMAX) < 0)
		return -1;
	if((strs = kmalloc(ARGMAX)) == nil)
		return seterr(ENOMEM, nil);
	for(i = 0;; i++){
		va = arg[1] + 4*i;
		if(!okuser(va, 4, 0)){
			seterr(EFAULT, nil);
			goto out;
		}
		if(*(uintptr*)va == 0)
			break;
		if(i == MAXARG){
			seterr(E2BIG, nil);
			goto out;
		}
		if(fetchstr(*(uintptr*)va, strs + used, ARGMAX - used) < 0){
			seterr(up->errno == ENAMETOOLONG ? E2BIG : EFAULT, nil);
			goto out;
		}
		argv[i] = strs + used;
		used += strlen(argv[i]) + 1;
	}
	argv[i] = nil;
	r = kexec(path, argv);
out:
	kfree(strs);
	return r;
}
