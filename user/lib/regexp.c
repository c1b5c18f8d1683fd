/*
 * Simple regular expressions: c matches itself, . any byte, x* any
 * number of x, \c the byte c itself; ^ at the start anchors a match
 * to the start of the string, $ at the end to its end.
 *
 * regexec runs all the expression's states at once over the string (a
 * Thompson simulation): state i means "items 0..i-1 have matched", and
 * each byte moves every live state on together.  So the time is the
 * string's length times the pattern's, whatever the pattern, with no
 * backtracking.
 */
#include <stdlib.h>
#include <string.h>
#include "regexp.h"

void
regfree(Regexp *re)
{
	if(re == NULL)
		return;
	free(re->item);
	free(re->cur);
	free(re->next);
	free(re);
}

/* Compile pat: the expression, or NULL with *err saying why. */
Regexp*
regcomp(const char *pat, const char **err)
{
	Regexp *re;
	long n = strlen(pat), i, k;

	if((re = calloc(1, sizeof *re)) == NULL){
		*err = "out of memory";
		return NULL;
	}
	re->item = malloc((n + 1) * sizeof *re->item);
	re->cur = malloc(n + 2);
	re->next = malloc(n + 2);
	if(re->item == NULL || re->cur == NULL || re->next == NULL){
		regfree(re);
		*err = "out of memory";
		return NULL;
	}
	i = 0;
	if(pat[0] == '^'){
		re->bol = 1;
		i++;
	}
	for(; i < n; i++){
		if(pat[i] == '$' && i == n - 1){
			re->eol = 1;
			break;
		}
		if(pat[i] == '*'){
			regfree(re);
			*err = "* with nothing before it";
			return NULL;
		}
		k = re->n++;
		if(pat[i] == '\\'){
			if(++i == n){
				regfree(re);
				*err = "\\ at the end of the pattern";
				return NULL;
			}
			re->item[k].c = (unsigned char)pat[i];
		}else
			re->item[k].c = pat[i] == '.' ? REANY : (unsigned char)pat[i];
		re->item[k].star = pat[i+1] == '*';
		if(re->item[k].star)
			i++;
	}
	return re;
}

/* Add state i to set s, and the states that starred items let it skip to. */
static void
addstate(Regexp *re, char *s, int i)
{
	for(; i < re->n && !s[i]; i++){
		s[i] = 1;
		if(!re->item[i].star)
			return;
	}
	s[i] = 1;	/* the accepting state, or one already there */
}

/* Does the string s, len bytes long, contain a match? */
int
regexec(Regexp *re, const char *s, long len)
{
	long k;
	int i, c;
	char *t;

	memset(re->cur, 0, re->n + 1);
	addstate(re, re->cur, 0);
	for(k = 0; ; k++){
		if(re->cur[re->n] && (!re->eol || k == len))
			return 1;
		if(k == len)
			return 0;
		memset(re->next, 0, re->n + 1);
		c = (unsigned char)s[k];
		for(i = 0; i < re->n; i++)
			if(re->cur[i] && (re->item[i].c == REANY || re->item[i].c == c))
				addstate(re, re->next, re->item[i].star ? i : i + 1);
		if(!re->bol)
			addstate(re, re->next, 0);
		t = re->cur;
		re->cur = re->next;
		re->next = t;
	}
}
