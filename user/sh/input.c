/*
 * The shell's input: lines read from a file or a pipe (readline), or
 * typed at the console (editline), where the shell edits them itself
 * in the console's raw mode, with a history.  A line too long to keep
 * is refused whole, never cut: running only a part of it, or its tail
 * as a second command, could do what no one asked for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

#define NHIST	32	/* lines of history */
#define CTRL(c)	((c) & 0x1F)

/*
 * Read the next line of fd into line, which has room for LINEMAX
 * bytes, without its newline: 0, or -1 at end of file.  A line too
 * long for buf is read through its newline and thrown away, and the
 * result is 1; one that holds a NUL, which would end it early, is
 * thrown away too, and the result is 2.
 */
int
readline(int fd, char *line)
{
	static char buf[LINEMAX];	/* input read but not yet used */
	static int nbuf;		/* bytes in buf */
	int i, used, toolong;
	long r;

	toolong = 0;
	for(;;){
		for(i = 0; i < nbuf && buf[i] != '\n'; i++)
			;
		if(i < nbuf)
			break;
		if(nbuf == sizeof buf){	/* drop it, and read on to the newline */
			toolong = 1;
			nbuf = i = 0;
		}
		r = read(fd, buf + nbuf, sizeof buf - nbuf);
		if(r <= 0){
			if(nbuf == 0 && !toolong)
				return -1;
			break;
		}
		nbuf += r;
	}
	r = toolong ? 1 : memchr(buf, '\0', i) != NULL ? 2 : 0;
	if(r == 0){
		memmove(line, buf, i);
		line[i] = '\0';
	}
	used = i < nbuf ? i + 1 : i;
	nbuf -= used;
	memmove(buf, buf + used, nbuf);
	return r;
}

/* The line being edited at the console, and the history. */
static struct {
	char	buf[LINEMAX];	/* the line, not NUL-terminated */
	int	n;		/* its length */
	int	pos;		/* the cursor, 0 to n */
	int	cur;		/* where the cursor is on the screen */
	int	toolong;	/* a byte typed did not fit: the line is refused */
} ed;
static char hist[NHIST][LINEMAX];	/* earlier lines, oldest first */
static int nhist;

/*
 * The screen shows the line as it was, oldn bytes long, and only from
 * byte from on has it changed: rewrite it from there, blank what is
 * left of the old one, and put the cursor at ed.pos.
 */
static void
repaint(int from, int oldn)
{
	char out[3*LINEMAX];
	int k = 0, i;

	if(from > ed.cur)
		from = ed.cur;
	for(; ed.cur > from; ed.cur--)
		out[k++] = '\b';
	for(i = from; i < ed.n; i++)
		out[k++] = ed.buf[i];
	for(; i < oldn; i++)
		out[k++] = ' ';
	for(; i > ed.pos; i--)
		out[k++] = '\b';
	ed.cur = ed.pos;
	write(2, out, k);
}

/* Delete the bytes [a, b) of the line; erasing all of it forgives a byte that did not fit. */
static void
cut(int a, int b)
{
	int oldn = ed.n;

	memmove(ed.buf + a, ed.buf + b, ed.n - b);
	ed.n -= b - a;
	ed.pos = a;
	if(ed.n == 0)
		ed.toolong = 0;
	repaint(a, oldn);
}

/* Replace the line with history entry h, or an empty line past the last. */
static void
recall(int h)
{
	int oldn = ed.n;

	ed.n = h < nhist ? strlen(hist[h]) : 0;
	memmove(ed.buf, hist[h < nhist ? h : 0], ed.n);
	ed.pos = ed.n;
	ed.toolong = 0;
	repaint(0, oldn);
}

/* Remember line, unless it is empty or the same as the last. */
static void
remember(const char *line)
{
	if(line[0] == '\0' || (nhist > 0 && strcmp(hist[nhist-1], line) == 0))
		return;
	if(nhist == NHIST){
		memmove(hist[0], hist[1], sizeof hist[0] * (NHIST - 1));
		nhist--;
	}
	strcpy(hist[nhist++], line);
}

/* Prompt, and show the line from its start with the cursor in place. */
static void
redraw(void)
{
	fprintf(stderr, "$ ");
	ed.cur = 0;
	repaint(0, ed.n);
}

/* Take the arrow key whose ESC has been read: move, or walk the history from *h. */
static void
arrow(int *h)
{
	char seq[2];

	seq[1] = 0;
	if(read(0, seq, 1) != 1 || (seq[0] != '[' && seq[0] != 'O'))
		return;
	do
		if(read(0, seq + 1, 1) != 1)
			return;
	while(seq[1] < 0x40 || seq[1] > 0x7E);
	if(seq[1] == 'A' && *h > 0)
		recall(--*h);
	else if(seq[1] == 'B' && *h < nhist)
		recall(++*h);
	else if(seq[1] == 'C' && ed.pos < ed.n){
		ed.pos++;
		repaint(ed.cur, ed.n);
	}else if(seq[1] == 'D' && ed.pos > 0){
		ed.pos--;
		repaint(ed.pos, ed.n);
	}
}

/*
 * Prompt, and read a line from the console in raw mode, editing it as
 * typed: backspace (DEL or ^H), ^U and ^W erase, left and right arrows
 * move, up and down walk the history, ^C abandons the line, ^P (after
 * the kernel's process list) shows the prompt and the line again, ^D
 * on an empty line is end of file.  0; 1 if the line was too long, and
 * is refused; -1 at end of file.  Raw mode goes on before the prompt,
 * so that nothing typed after it is echoed twice.
 */
int
editline(char *line)
{
	char c;
	int h = nhist, i, oldn;

	ed.n = ed.pos = ed.cur = ed.toolong = 0;
	ctl("rawon");
	fprintf(stderr, "$ ");
	for(;;){
		if(read(0, &c, 1) != 1 || (c == CTRL('D') && ed.n == 0)){
			ctl("rawoff");
			write(2, "\n", 1);
			return -1;
		}
		switch(c){
		case '\r':
		case '\n':
			ctl("rawoff");
			ed.pos = ed.n;
			repaint(ed.n, ed.n);
			write(2, "\n", 1);
			memmove(line, ed.buf, ed.n);
			line[ed.n] = '\0';
			if(ed.toolong)
				return 1;
			remember(line);
			return 0;
		case CTRL('C'):
			write(2, "^C\n", 3);
			ed.n = ed.pos = ed.cur = ed.toolong = 0;
			fprintf(stderr, "$ ");
			break;
		case CTRL('P'):
			redraw();
			break;
		case '\b':
		case 0x7F:
			if(ed.pos > 0)
				cut(ed.pos - 1, ed.pos);
			break;
		case CTRL('U'):
			cut(0, ed.pos);
			break;
		case CTRL('W'):
			for(i = ed.pos; i > 0 && ed.buf[i-1] == ' '; i--)
				;
			for(; i > 0 && ed.buf[i-1] != ' '; i--)
				;
			cut(i, ed.pos);
			break;
		case 0x1B:	/* ESC [ A, B, C, D: the arrows; others are dropped */
			arrow(&h);
			break;
		default:
			if((unsigned char)c < ' ')
				break;
			if(ed.n == LINEMAX - 1){
				ed.toolong = 1;
				break;
			}
			oldn = ed.n;
			memmove(ed.buf + ed.pos + 1, ed.buf + ed.pos, ed.n - ed.pos);
			ed.buf[ed.pos++] = c;
			ed.n++;
			repaint(ed.pos - 1, oldn);
		}
	}
}
