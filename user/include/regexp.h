/*
 * Simple regular expressions, for grep (user/lib/regexp.c): c, ., x*,
 * \c, and ^ and $ as anchors.  Pure logic, built for the host's unit
 * tests too.
 */
#ifndef REGEXP_H
#define REGEXP_H

typedef struct Reitem Reitem;
struct Reitem {
	int	c;		/* the byte to match, or REANY */
	int	star;		/* followed by *: any number of times */
};

enum { REANY = 256 };	/* an item matching any byte */

typedef struct Regexp Regexp;
struct Regexp {
	Reitem	*item;		/* the expression, in order */
	int	n;		/* its items */
	int	bol;		/* anchored at the start: ^ */
	int	eol;		/* anchored at the end: $ */
	char	*cur;		/* state sets for regexec, n+1 bytes each */
	char	*next;
};

Regexp	*regcomp(const char *pat, const char **err);
int	regexec(Regexp*, const char *s, long len);
void	regfree(Regexp*);

#endif
