/*
 * kprof: format the kernel profile.
 *
 *	kprof [-h hz] kernel kpdata
 *
 * kpdata (see kprof(3)) is an array of 4-byte big-endian counts: the
 * clock ticks while profiling was on, the ticks that found the kernel
 * running, then one count for each 8-byte bin of kernel text.  kprof
 * reads the kernel's ELF symbol table, credits each bin to the function
 * whose text holds it, and prints one line per function, busiest first,
 * in Plan 9's layout:
 *
 *	total: 1234	in kernel text: 1000	outside kernel text: 234
 *	KTZERO c0100000	HZ 100
 *	ms	  %	sym
 *	5000	 50.0	idle
 *
 * The clock rate comes from -h, else from the kpctl status line beside
 * kpdata (or /dev/kpctl), else is taken to be 100.
 *
 * The same source builds for the guest and for the host, so it uses only
 * standard names, no floating point, and decodes ELF a byte at a time.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

enum {
	BINSIZE		= 8,	/* bytes of kernel text per count */
	DEFHZ		= 100,	/* clock rate when nothing says */

	/* The little of ELF32 that kprof needs. */
	ELFCLASS32	= 1,
	ELFDATA2LSB	= 1,
	EM_386		= 3,
	EHDRSIZE	= 52,	/* bytes in the file header */
	SHDRSIZE	= 40,	/* in a section header */
	SYMSIZE		= 16,	/* in a symbol */
	SHT_SYMTAB	= 2,
	STB_LOCAL	= 0,
	STT_NOTYPE	= 0,
	STT_FUNC	= 2,
};

typedef struct Ehdr Ehdr;
typedef struct Shdr Shdr;
typedef struct Sym Sym;
typedef struct Kernel Kernel;

/* An ELF32 file header, as much of it as kprof uses, decoded. */
struct Ehdr {
	uint32_t	shoff;		/* file offset of the section headers */
	uint32_t	shentsize;	/* bytes in each */
	uint32_t	shnum;		/* how many */
	uint32_t	shstrndx;	/* the section holding their names */
};

/* An ELF32 section header, decoded. */
struct Shdr {
	uint32_t	name;		/* offset of its name in the names */
	uint32_t	type;		/* SHT_SYMTAB, ... */
	uint32_t	addr;		/* address when loaded */
	uint32_t	offset;		/* in the file */
	uint32_t	size;		/* bytes */
	uint32_t	link;		/* a symbol table's string table */
	uint32_t	entsize;	/* bytes in each entry of a table */
};

/* A place in kernel text that ticks are credited to. */
struct Sym {
	uint32_t	addr;		/* where it starts */
	const char	*name;		/* in the kernel image */
	int	rank;		/* which to keep of several at one address */
	uint64_t	ticks;		/* credited to it */
};

/* What kprof learns from the kernel file. */
struct Kernel {
	const char	*path;		/* for messages */
	uint8_t	*image;		/* the whole file */
	size_t	len;		/* its length */
	uint32_t	textbase;	/* address of .text */
	uint32_t	textsize;	/* bytes in .text */
	Sym	*sym;		/* symbols in .text, by address, one per address */
	int	nsym;		/* how many */
};

static void
fatal(const char *fmt, ...)
{
	va_list arg;

	fprintf(stderr, "kprof: ");
	va_start(arg, fmt);
	vfprintf(stderr, fmt, arg);
	va_end(arg);
	fprintf(stderr, "\n");
	exit(1);
}

static void
usage(void)
{
	fprintf(stderr, "usage: kprof [-h hz] kernel kpdata\n");
	exit(1);
}

static void*
emalloc(size_t n)
{
	void *p;

	p = malloc(n);
	if(p == NULL)
		fatal("out of memory");
	return p;
}

/*
 * Read all of the file at path into a buffer with room for a NUL
 * after the data.  Returns NULL, with errno set, if it can't.
 */
static uint8_t*
readall(const char *path, size_t *lenp)
{
	uint8_t *buf, *nbuf;
	size_t len, size;
	long n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if(fd < 0)
		return NULL;
	size = 8192;
	buf = emalloc(size);
	len = 0;
	for(;;){
		if(size - len < 4096){
			size *= 2;
			nbuf = realloc(buf, size);
			if(nbuf == NULL){
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if(n < 0){
			err = errno;
			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if(n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

static uint8_t*
ereadall(const char *path, size_t *lenp)
{
	uint8_t *buf;

	buf = readall(path, lenp);
	if(buf == NULL)
		fatal("%s: %s", path, strerror(errno));
	return buf;
}

static uint32_t
le16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1]<<8;
}

static uint32_t
le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1]<<8 | (uint32_t)p[2]<<16 | (uint32_t)p[3]<<24;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0]<<24 | (uint32_t)p[1]<<16 | (uint32_t)p[2]<<8 | p[3];
}

/* Do n bytes at off lie within a buffer of len bytes? */
static int
inside(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

/*
 * The NUL-terminated string at off in the string table of len bytes
 * at tab, or NULL if off is outside the table or no NUL ends the string
 * within it.
 */
static const char*
strat(const uint8_t *tab, uint32_t len, uint32_t off)
{
	uint32_t i;

	for(i = off; i < len; i++)
		if(tab[i] == '\0')
			return (const char*)tab + off;
	return NULL;
}

static void
corrupt(Kernel *k, const char *what)
{
	fatal("%s: corrupt ELF file (%s)", k->path, what);
}

/* Decode section header i; the caller has checked the table fits the file. */
static void
getshdr(Kernel *k, Ehdr *eh, uint32_t i, Shdr *sh)
{
	const uint8_t *p;

	p = k->image + eh->shoff + (uint64_t)i*eh->shentsize;
	sh->name = le32(p);
	sh->type = le32(p+4);
	sh->addr = le32(p+12);
	sh->offset = le32(p+16);
	sh->size = le32(p+20);
	sh->link = le32(p+24);
	sh->entsize = le32(p+36);
}

/*
 * Check the ELF file header and decode the section header table's
 * place, making sure all of the table lies within the file.
 */
static void
getehdr(Kernel *k, Ehdr *eh)
{
	const uint8_t *p;

	p = k->image;
	if(k->len < 4 || memcmp(p, "\177ELF", 4) != 0)
		fatal("%s: not an ELF file", k->path);
	if(k->len < EHDRSIZE)
		corrupt(k, "file header");
	if(p[4] != ELFCLASS32 || p[5] != ELFDATA2LSB || le16(p+18) != EM_386)
		fatal("%s: not an i386 ELF file", k->path);
	eh->shoff = le32(p+32);
	eh->shentsize = le16(p+46);
	eh->shnum = le16(p+48);
	eh->shstrndx = le16(p+50);
	if(eh->shnum == 0)
		fatal("%s: no section headers", k->path);
	if(eh->shentsize < SHDRSIZE
	|| !inside(k->len, eh->shoff, (uint64_t)eh->shnum*eh->shentsize))
		corrupt(k, "section headers");
}

/*
 * Order symbols by address and, at one address, best first:
 * then the first of each address is the one to keep.
 */
static int
byaddr(const Sym *a, const Sym *b)
{
	if(a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if(a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Order symbols by ticks, most first, then by name. */
static int
byticks(const Sym *a, const Sym *b)
{
	if(a->ticks != b->ticks)
		return a->ticks > b->ticks ? -1 : 1;
	if(strcmp(a->name, b->name) != 0)
		return strcmp(a->name, b->name);
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Merge sort, stable, using tmp for n symbols of scratch. */
static void
sortsyms(Sym *s, Sym *tmp, int n, int (*cmp)(const Sym*, const Sym*))
{
	int i, j, k, m;

	if(n < 2)
		return;
	m = n/2;
	sortsyms(s, tmp, m, cmp);
	sortsyms(s+m, tmp, n-m, cmp);
	i = 0;
	j = m;
	for(k = 0; k < n; k++){
		if(j >= n || (i < m && cmp(&s[i], &s[j]) <= 0))
			tmp[k] = s[i++];
		else
			tmp[k] = s[j++];
	}
	memcpy(s, tmp, n*sizeof s[0]);
}

/*
 * Should the symbol be a place ticks are credited to?  Functions are,
 * and untyped labels, as assembly code has, except those whose name
 * has a dot: NASM's local labels, such as `trapret.loop', which are
 * places within a function.
 */
static int
wanted(int type, int bind, const char *name)
{
	if(name[0] == '\0')
		return 0;
	if(type == STT_FUNC)
		return 1;
	return type == STT_NOTYPE && (bind != STB_LOCAL || strchr(name, '.') == NULL);
}

/*
 * Gather the symbols in .text from the symbol table sh, sort them by
 * address, and keep one for each address: a function before a label,
 * a global symbol before a local one.  A symbol "text" at the start of
 * text, ranked below all others, takes any bins before the first.
 */
static void
getsyms(Kernel *k, Ehdr *eh, Shdr *sh, uint32_t textndx)
{
	Shdr str;
	const uint8_t *p, *strtab;
	const char *name;
	Sym *s, *tmp;
	uint32_t i, nent, value;
	int type, bind, ns, n, j;

	if(sh->entsize < SYMSIZE || !inside(k->len, sh->offset, sh->size))
		corrupt(k, "symbol table");
	if(sh->link >= eh->shnum)
		corrupt(k, "symbol string table");
	getshdr(k, eh, sh->link, &str);
	if(!inside(k->len, str.offset, str.size))
		corrupt(k, "symbol string table");
	strtab = k->image + str.offset;

	nent = sh->size / sh->entsize;
	s = emalloc(((size_t)nent + 1) * sizeof s[0]);
	s[0].addr = k->textbase;
	s[0].name = "text";
	s[0].rank = 0;
	ns = 1;
	for(i = 0; i < nent; i++){
		p = k->image + sh->offset + (uint64_t)i*sh->entsize;
		value = le32(p+4);
		type = p[12] & 0xf;
		bind = p[12] >> 4;
		if(le16(p+14) != textndx || value - k->textbase >= k->textsize)
			continue;
		name = strat(strtab, str.size, le32(p));
		if(name == NULL)
			corrupt(k, "symbol name");
		if(!wanted(type, bind, name))
			continue;
		s[ns].addr = value;
		s[ns].name = name;
		s[ns].rank = 1 + 2*(type == STT_FUNC) + (bind != STB_LOCAL);
		ns++;
	}

	tmp = emalloc(ns * sizeof tmp[0]);
	sortsyms(s, tmp, ns, byaddr);
	free(tmp);
	n = 0;
	for(j = 0; j < ns; j++){
		if(n > 0 && s[n-1].addr == s[j].addr)
			continue;
		s[n] = s[j];
		s[n].ticks = 0;
		n++;
	}
	k->sym = s;
	k->nsym = n;
}

/*
 * Read the kernel ELF file: find .text by name, through the section
 * name table, and the symbol table.
 */
static void
readkernel(Kernel *k, const char *path)
{
	Ehdr eh;
	Shdr sh, names;
	const char *name;
	uint32_t i, textndx, symndx;

	k->path = path;
	k->image = ereadall(path, &k->len);
	getehdr(k, &eh);
	if(eh.shstrndx >= eh.shnum)
		corrupt(k, "section names");
	getshdr(k, &eh, eh.shstrndx, &names);
	if(!inside(k->len, names.offset, names.size))
		corrupt(k, "section names");

	textndx = 0;
	symndx = 0;
	for(i = 1; i < eh.shnum; i++){
		getshdr(k, &eh, i, &sh);
		name = strat(k->image + names.offset, names.size, sh.name);
		if(name == NULL)
			corrupt(k, "section names");
		if(textndx == 0 && strcmp(name, ".text") == 0){
			textndx = i;
			k->textbase = sh.addr;
			k->textsize = sh.size;
		}
		if(symndx == 0 && sh.type == SHT_SYMTAB)
			symndx = i;
	}
	if(textndx == 0)
		fatal("%s: no .text section", path);
	if(symndx == 0)
		fatal("%s: no symbol table", path);
	getshdr(k, &eh, symndx, &sh);
	getsyms(k, &eh, &sh, textndx);
}

/*
 * Read the profile at path, for a kernel text of nbins bins, into
 * an array of counts.
 */
static uint32_t*
readdata(const char *path, uint64_t nbins)
{
	uint8_t *buf;
	uint32_t *cell;
	size_t len, i;

	buf = ereadall(path, &len);
	if(len < 8)
		fatal("%s: too short (%lu bytes)", path, (unsigned long)len);
	if(len % 4 != 0)
		fatal("%s: length %lu is not a multiple of 4", path, (unsigned long)len);
	if(len/4 - 2 != nbins)
		fatal("%s has %lu bins, kernel text has %llu", path,
			(unsigned long)(len/4 - 2), (unsigned long long)nbins);
	cell = emalloc(len/4 * sizeof cell[0]);
	for(i = 0; i < len/4; i++)
		cell[i] = be32(buf + 4*i);
	free(buf);
	return cell;
}

/* Parse a clock rate: a decimal number from 1 to 1000000, else 0. */
static unsigned long
parsehz(const char *s)
{
	unsigned long hz;
	char *end;

	if(*s < '0' || *s > '9')
		return 0;
	hz = strtoul(s, &end, 10);
	if(*end != '\0' || hz > 1000000)
		return 0;
	return hz;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next blank-separated word at *p, NUL-terminated, or NULL at the end. */
static char*
word(char **p)
{
	char *s, *w;

	for(s = *p; blank(*s); s++)
		;
	if(*s == '\0')
		return NULL;
	w = s;
	while(*s != '\0' && !blank(*s))
		s++;
	if(*s != '\0')
		*s++ = '\0';
	*p = s;
	return w;
}

/*
 * The clock rate in the kpctl status line at path, such as
 * `off hz 100 bin 8 text 0xc0100000 etext 0xc0112340': a state,
 * then pairs of key and value.  0 if it can't be read or says none.
 */
static unsigned long
ctlhz(const char *path)
{
	char *buf, *p, *key, *val;
	unsigned long hz;
	size_t len;

	buf = (char*)readall(path, &len);
	if(buf == NULL)
		return 0;
	hz = 0;
	p = buf;
	if(word(&p) != NULL){
		while((key = word(&p)) != NULL && (val = word(&p)) != NULL){
			if(strcmp(key, "hz") == 0){
				hz = parsehz(val);
				break;
			}
		}
	}
	free(buf);
	return hz;
}

/* The clock rate of the kernel that made the data at datapath. */
static unsigned long
kernelhz(const char *datapath)
{
	const char *slash;
	char *ctl;
	unsigned long hz;
	size_t dirlen;

	slash = strrchr(datapath, '/');
	dirlen = slash != NULL ? (size_t)(slash - datapath) + 1 : 0;
	ctl = emalloc(dirlen + sizeof "kpctl");
	memcpy(ctl, datapath, dirlen);
	strcpy(ctl + dirlen, "kpctl");
	hz = ctlhz(ctl);
	free(ctl);
	if(hz == 0)
		hz = ctlhz("/dev/kpctl");
	if(hz == 0)
		hz = DEFHZ;
	return hz;
}

/*
 * Credit each bin's count to the last symbol at or before the bin's
 * address.  k->sym is sorted by address and its first symbol is at
 * textbase, so every bin has one.
 */
static void
credit(Kernel *k, const uint32_t *bin, uint64_t nbins)
{
	uint64_t i, addr;
	int j;

	j = 0;
	for(i = 0; i < nbins; i++){
		addr = k->textbase + i*BINSIZE;
		while(j+1 < k->nsym && k->sym[j+1].addr <= addr)
			j++;
		k->sym[j].ticks += bin[i];
	}
}

/* Print the profile: the totals, then a row for each busy symbol. */
static void
report(Kernel *k, const uint32_t *cell, unsigned long hz)
{
	Sym *s, *tmp;
	uint64_t ktotal, tenths;
	int i, n;

	printf("total: %u\tin kernel text: %u\toutside kernel text: %lld\n",
		(unsigned)cell[0], (unsigned)cell[1], (long long)cell[0] - (long long)cell[1]);
	printf("KTZERO %08x\tHZ %lu\n", (unsigned)k->textbase, hz);
	printf("ms\t  %%\tsym\n");
	ktotal = cell[1];
	if(ktotal == 0)
		return;

	s = k->sym;
	n = 0;
	for(i = 0; i < k->nsym; i++)
		if(s[i].ticks != 0)
			s[n++] = s[i];
	tmp = emalloc((n > 0 ? n : 1) * sizeof tmp[0]);
	sortsyms(s, tmp, n, byticks);
	free(tmp);
	for(i = 0; i < n; i++){
		tenths = (s[i].ticks*1000 + ktotal/2) / ktotal;
		printf("%llu\t%3llu.%llu\t%s\n",
			(unsigned long long)(s[i].ticks*1000 / hz),
			(unsigned long long)(tenths / 10),
			(unsigned long long)(tenths % 10), s[i].name);
	}
}

int
main(int argc, char *argv[])
{
	Kernel k;
	uint32_t *cell;
	uint64_t nbins;
	unsigned long hz;
	const char *arg;
	int i;

	hz = 0;
	for(i = 1; i < argc && argv[i][0] == '-'; i++){
		if(strcmp(argv[i], "--") == 0){
			i++;
			break;
		}
		if(argv[i][1] != 'h')
			usage();
		if(argv[i][2] != '\0')
			arg = argv[i] + 2;
		else if(i+1 < argc)
			arg = argv[++i];
		else
			usage();
		hz = parsehz(arg);
		if(hz == 0)
			fatal("bad hz: %s", arg);
	}
	if(argc - i != 2)
		usage();

	memset(&k, 0, sizeof k);
	readkernel(&k, argv[i]);
	nbins = ((uint64_t)k.textsize + BINSIZE-1) / BINSIZE;
	cell = readdata(argv[i+1], nbins);
	if(hz == 0)
		hz = kernelhz(argv[i+1]);
	credit(&k, cell+2, nbins);
	report(&k, cell, hz);
	free(cell);
	free(k.sym);
	free(k.image);
	return 0;
}
