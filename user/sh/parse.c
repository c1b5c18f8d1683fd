/*
 * The shell's parser: a line into pipelines.  Words are made as they
 * are read, quotes taken off and $status, $? and $! put in; a
 * pipeline's words live in one buffer until the next line.  checkline
 * reads a whole line first, so that a syntax error anywhere in it is
 * reported before any of it runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sh.h"

static char words[4*LINEMAX];	/* the words of the line being run */

void
lexinit(Lex *l, const char *line)
{
	l->p = line;
	l->w = words;
	l->wend = words + sizeof words;
}

/* Add s to the word being built; -1 if there is no room. */
static int
addstr(Lex *l, const char *s, int n)
{
	if(l->w + n > l->wend)
		return -1;
	memmove(l->w, s, n);
	l->w += n;
	return 0;
}

/* The length of the variable at s ($?, $! or $status), or 0 if none is. */
static int
isvar(const char *s)
{
	if(s[0] != '$')
		return 0;
	if(s[1] == '?' || s[1] == '!')
		return 2;
	return strncmp(s + 1, "status", 6) == 0 ? 7 : 0;
}

/* Put the next token of l; a word's text is left in *word. */
static int
gettoken(Lex *l, char **word)
{
	const char *s = l->p;
	char num[16], q;
	int r = 0, v;

	while(*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if(*s == '#')
		s += strlen(s);
	l->p = s + 1;
	switch(*s){
	case '\0':
		l->p = s;
		return END;
	case '|':
		if(s[1] == '|'){
			l->p = s + 2;
			return OR;
		}
		return PIPE;
	case ';':
	case '\n':
		return SEMI;
	case '&':
		if(s[1] == '&'){
			l->p = s + 2;
			return AND;
		}
		return AMP;
	case '<':
		return LT;
	case '>':
		if(s[1] == '>'){
			l->p = s + 2;
			return GTGT;
		}
		return GT;
	}
	*word = l->w;
	q = 0;
	while(r == 0 && *s != '\0' && (q != 0 || strchr(" \t\r\n|;&<>", *s) == NULL)){
		if(q != '\'' && (v = isvar(s)) > 0){
			snprintf(num, sizeof num, "%d", s[1] == '!' ? apid : status);
			r = addstr(l, num, strlen(num));
			s += v;
		}else if(*s == q){
			q = 0;
			s++;
		}else if(q == 0 && (*s == '\'' || *s == '"'))
			q = *s++;
		else
			r = addstr(l, s++, 1);
	}
	if(r == 0)
		r = addstr(l, "", 1);
	l->p = s;
	if(q != 0){
		fprintf(stderr, "sh: unmatched %c\n", q);
		return BAD;
	}
	if(r < 0){
		fprintf(stderr, "sh: line too long\n");
		return BAD;
	}
	return WORD;
}

/*
 * Parse one pipeline into cmds, up to the ; & && || or end of line that
 * ends it, which goes in *term.  Returns the number of commands (0 for an
 * empty one), or -1 after reporting a syntax error.
 */
int
parsepipe(Lex *l, Cmd *cmds, int *term)
{
	Cmd *c = cmds;
	char *w;
	int t;

	memset(c, 0, sizeof *c);
	for(;;){
		switch(t = gettoken(l, &w)){
		case WORD:
			if(c->argc == MAXARGS){
				fprintf(stderr, "sh: too many arguments\n");
				return -1;
			}
			c->argv[c->argc++] = w;
			break;
		case LT:
		case GT:
		case GTGT:
			if(gettoken(l, &w) != WORD)
				goto syntax;
			if(t == LT)
				c->in = w;
			else{
				c->out = w;
				c->append = t == GTGT;
			}
			break;
		case PIPE:
			if(c->argc == 0)
				goto syntax;
			if(++c == cmds + MAXPIPE){
				fprintf(stderr, "sh: pipeline too long\n");
				return -1;
			}
			memset(c, 0, sizeof *c);
			break;
		case BAD:
			return -1;
		default:
			*term = t;
			if(c->argc > 0)
				return c - cmds + 1;
			if(c == cmds && c->in == NULL && c->out == NULL && (t == SEMI || t == END))
				return 0;
			goto syntax;
		}
	}
syntax:
	fprintf(stderr, "sh: syntax error\n");
	return -1;
}

/*
 * Parse the whole of line, running nothing: 0, or -1 after reporting
 * its first error.  An empty pipeline after && or || is one.
 */
int
checkline(const char *line)
{
	Lex l;
	Cmd cmds[MAXPIPE];
	int n, term, prev = SEMI;

	lexinit(&l, line);
	do{
		n = parsepipe(&l, cmds, &term);
		if(n == 0 && (prev == AND || prev == OR)){
			fprintf(stderr, "sh: syntax error\n");
			return -1;
		}
		if(n < 0)
			return -1;
		prev = term;
	}while(term != END);
	return 0;
}
