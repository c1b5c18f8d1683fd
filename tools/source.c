/*
 * A source file's lines, for the host's tools that show code beside
 * its ticks: srcline and kprof -a.  The file is read whole, once, and
 * its lines asked for in order, so that the time is the file's length
 * however many lines are shown.  Only a regular file is read: the
 * DWARF may name /dev/zero, which never ends, or a FIFO, which waits.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "elfsym.h"
#include "source.h"

enum {
	TEXTMAX		= 100,	/* bytes of a source line shown */
};

/* Read file into s; -1, with the reason in *why, if it can't be. */
int
srcopen(Source *s, const char *file, const char **why)
{
	struct stat st;
	size_t len;

	if(stat(file, &st) < 0){
		*why = strerror(errno);
		return -1;
	}
	if(!S_ISREG(st.st_mode)){
		*why = "not a regular file";
		return -1;
	}
	if((s->buf = (char*)readfile(file, 0, &len)) == NULL){
		*why = strerror(errno);
		return -1;
	}
	s->p = s->buf;
	s->end = s->buf + len;
	s->line = 1;
	return 0;
}

static char*
copy(const char *str)
{
	char *t;

	if((t = strdup(str)) == NULL)
		fatal("out of memory");
	return t;
}

/*
 * A copy of the text of line, at or after the last asked for: leading
 * blanks gone, other control bytes blanks, cut at TEXTMAX; or a note
 * that the file has no such line.  Line 1 is there even in an empty
 * file.
 */
char*
srctext(Source *s, int line)
{
	char msg[64], *t, *p;
	int n;

	for(; s->line < line && s->p < s->end; s->line++){
		s->p = memchr(s->p, '\n', s->end - s->p);
		s->p = s->p != NULL ? s->p + 1 : s->end;
	}
	if(s->line != line || (s->p == s->end && line != 1)){
		snprintf(msg, sizeof msg, "(no line %d in the source: changed?)", line);
		return copy(msg);
	}
	for(p = s->p; p < s->end && (*p == ' ' || *p == '\t'); p++)
		;
	if((t = malloc(TEXTMAX + 4)) == NULL)
		fatal("out of memory");
	for(n = 0; p < s->end && *p != '\n' && n < TEXTMAX; p++)
		t[n++] = (unsigned char)*p < ' ' || *p == 0x7f ? ' ' : *p;
	if(p < s->end && *p != '\n')
		t[n++] = '.', t[n++] = '.', t[n++] = '.';
	t[n] = '\0';
	return t;
}

void
srcclose(Source *s)
{
	free(s->buf);
	s->buf = NULL;
}
