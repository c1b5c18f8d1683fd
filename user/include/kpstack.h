/*
 * Call stacks for kprof -s and -g: kpstack's lines read and named by
 * the kernel's symbols and the program's (user/lib/kpstack.c), and
 * drawn as a flame graph (user/lib/flame.c).
 *
 * The same source builds for the guest and for the host, so this header
 * uses only standard names.
 */
#ifndef KPSTACK_H
#define KPSTACK_H
#include <stdint.h>
#include "elfsym.h"
#include "kern/kprof.h"

typedef struct Path Path;
typedef struct Stacks Stacks;

/* One distinct folded stack: frames root first, as name numbers. */
struct Path {
	uint64_t	count;		/* ticks */
	uint32_t	*f;		/* its frames, in Stacks.frame */
	int	n;		/* how many, 1 to KPMAXFRAMES */
};

/*
 * A kpstack file folded: the paths in order of their names, root
 * first, one for each distinct sequence of names, none with 0 ticks.
 * A frame is a number into name[], which is in the order of the names,
 * so that paths compare as arrays of numbers.
 */
struct Stacks {
	Path	*path;
	int	npath;
	uint32_t	*frame;		/* all the paths' frames */
	const char	**name;		/* the names, in strcmp order, no two alike */
	int	nname;
	char	*hex;		/* the names made up for pcs in no function */
	uint64_t	total;		/* ticks in all the paths */
	int	depth;		/* the most frames in a path */
};

void	stackload(Stacks *s, Symtab *k, Symtab *u, const char *path);
void	stackcheck(Stacks *s, const char *path, const uint32_t *cell, const char *kpdata);
void	stackprint(Stacks *s);
void	putname(const char *name);
void	stacktop(Stacks *s, int max);
void	stackfree(Stacks *s);
void	flamegraph(Stacks *s);
void	stackincl(Stacks *s);
void	stackpeek(Stacks *s, const char *fn);

#endif
