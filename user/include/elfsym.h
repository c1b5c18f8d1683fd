/*
 * Function symbols of an i386 ELF program, for the profile formatters
 * kprof and prof (user/lib/elfsym.c).  symload reads the symbols in
 * .text; symcredit credits ticks at an address to the function whose
 * text holds it; symprint prints the busy functions, busiest first.
 *
 * The same source builds for the guest and for the host, so this header
 * uses only standard names.
 */
#ifndef ELFSYM_H
#define ELFSYM_H
#include <stddef.h>
#include <stdint.h>

typedef struct Sym Sym;
typedef struct Symtab Symtab;

/* A place in text that ticks are credited to. */
struct Sym {
	uint32_t	addr;		/* where it starts */
	const char	*name;		/* in the program image */
	int	rank;		/* which to keep of several at one address; 0: "text", no symbol */
	uint64_t	ticks;		/* credited to it */
	uint64_t	calls;		/* to it, along the arcs of a call graph */
};

/* What symload learns from a program file. */
struct Symtab {
	const char	*path;		/* for messages */
	uint8_t	*image;		/* the whole file */
	size_t	len;		/* its length */
	uint32_t	textbase;	/* address of .text */
	uint32_t	textsize;	/* bytes in .text */
	Sym	*sym;		/* symbols in .text, by address, one per address */
	int	nsym;		/* how many */
	int	withcalls;	/* symprint prints a calls column */
};

extern const char	*argv0;
void	fatal(const char *fmt, ...);
void	*grow(void *p, size_t *cap, size_t need, size_t size);
uint32_t	strhash(const char *s);
uint64_t	muldiv(uint64_t a, uint64_t b, uint64_t c);
const char	*flagarg(int argc, char **argv, int *i);
uint32_t	le16(const uint8_t*);
uint32_t	le32(const uint8_t*);
uint8_t	*readfile(const char *path, size_t hint, size_t *lenp);
const char	*symload(Symtab *t, const char *path);
int	symfind(Symtab *t, uint32_t addr);
void	symcredit(Symtab *t, uint32_t addr, uint64_t ticks);
void	symprint(Symtab *t, uint64_t total, unsigned long hz);
void	symfree(Symtab *t);

#endif
