/*
 * sh: a small shell.
 *
 *	sh			read commands from the standard input
 *	sh file			run a script
 *	sh -c 'commands'	run a string
 *
 * A line holds pipelines (cmd | cmd ...) separated by ; & && or ||; a
 * pipeline ending in & runs in the background, one after && runs only
 * if the one before succeeded, one after || only if it failed.  A
 * command is words and the redirections <file, >file and >>file.
 * '...' quotes literally, "..." quotes but expands $status (or $?), the
 * last pipeline's exit status; # starts a comment.  The builtins are
 * cd [dir] and exit [status]; any other command name without a / is
 * looked up in /bin.
 *
 * At the console, the shell edits its own lines (editline) in the
 * console's raw mode, with a history, and runs each command in a note
 * group of its own that it makes the console's foreground: ^C kills
 * that command, not the shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>

#define LINEMAX	1024	/* longest input line */
#define MAXARGS	32	/* words in a command */
#define MAXPIPE	16	/* commands in a pipeline */
#define NHIST	32	/* lines of history */
#define CTRL(c)	((c) & 0x1F)
#define KILLED	255	/* the status of a process the kernel killed */

/* Tokens. */
enum {
	WORD,		/* a word, after quoting and $? */
	PIPE,		/* | */
	SEMI,		/* ; or newline */
	AMP,		/* & */
	AND,		/* && */
	OR,		/* || */
	LT,		/* < */
	GT,		/* > */
	GTGT,		/* >> */
	END,		/* end of the line */
	BAD,		/* an error, already reported */
};

typedef struct Lex Lex;
struct Lex {
	const char	*p;	/* next input character */
	char	*w;		/* where the next word goes */
	char	*wend;		/* end of room for words */
};

typedef struct Cmd Cmd;
struct Cmd {
	char	*argv[MAXARGS+1];	/* the words, then NULL */
	int	argc;		/* number of words */
	char	*in;		/* file for <, or NULL */
	char	*out;		/* file for > or >>, or NULL */
	int	append;		/* out was given by >> */
};

static int status;		/* $?: the last pipeline's exit status */
static int input;		/* where commands come from */
static int consctl = -1;	/* /dev/consctl, if the shell is at the console */
static char words[4*LINEMAX];	/* the words of the line being run */

/* Print "sh: what: " and the error string. */
static void
complain(const char *what)
{
	char msg[LINEMAX + 8];

	snprintf(msg, sizeof msg, "sh: %s", what);
	perror(msg);
}

/* Write a control message to the console; a failure is reported. */
static void
ctl(const char *msg)
{
	if(write(consctl, msg, strlen(msg)) < 0)
		complain("/dev/consctl");
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

/* Put the next token of l; a word's text is left in *word. */
static int
gettoken(Lex *l, char **word)
{
	const char *s = l->p;
	char num[16], q;
	int r = 0;

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
		if(s[0] == '$' && q != '\'' && (s[1] == '?' || strncmp(s + 1, "status", 6) == 0)){
			snprintf(num, sizeof num, "%d", status);
			r = addstr(l, num, strlen(num));
			s += s[1] == '?' ? 2 : 7;
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
static int
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
 * Run the builtins cd and exit in the shell itself; 0 if c is neither.
 * Exit with a bad status still exits, as asked, but with status 1.
 */
static int
builtin(Cmd *c)
{
	char *dir;
	long st;

	if(strcmp(c->argv[0], "exit") == 0){
		if(c->argc == 1)
			exit(status);
		if(c->argc > 2)
			fprintf(stderr, "usage: exit [status]\n");
		else if((st = parsenum(c->argv[1])) >= 0 && st <= 255)
			exit(st);
		else
			fprintf(stderr, "sh: exit: bad status %s\n", c->argv[1]);
		exit(1);
	}
	if(strcmp(c->argv[0], "cd") != 0)
		return 0;
	dir = c->argc > 1 ? c->argv[1] : "/";
	status = 0;
	if(c->argc > 2){
		fprintf(stderr, "usage: cd [dir]\n");
		status = 1;
	}else if(chdir(dir) < 0){
		complain(dir);
		status = 1;
	}
	return 1;
}

/* In a child: open file as descriptor fd, or exit. */
static void
redirect(const char *file, int fd, int mode)
{
	int f;

	f = open(file, mode);
	if(f < 0){
		complain(file);
		exit(1);
	}
	if(f != fd){
		dup2(f, fd);
		close(f);
	}
}

/* In a child: do c's redirections and run it; never returns. */
static void
runcmd(Cmd *c)
{
	char path[LINEMAX + 8];

	if(c->in != NULL)
		redirect(c->in, 0, O_RDONLY);
	if(c->out != NULL)
		redirect(c->out, 1, O_WRONLY|O_CREAT|(c->append ? O_APPEND : O_TRUNC));
	if(strchr(c->argv[0], '/') == NULL){
		snprintf(path, sizeof path, "/bin/%s", c->argv[0]);
		exec(path, c->argv);
		if(errno == ENOENT){
			fprintf(stderr, "sh: %s: not found\n", c->argv[0]);
			exit(1);
		}
	}else
		exec(c->argv[0], c->argv);
	complain(c->argv[0]);
	exit(1);
}

/*
 * Run a pipeline of n commands, each in a child, connected by pipes.
 * In the foreground, wait for them all (collecting any background
 * children that finish meanwhile); the status is the last one's.
 * A background pipeline reads /dev/null unless redirected.  At the
 * console, each pipeline is a note group, named by its first process;
 * a foreground one is the console's foreground while the shell waits.
 */
static void
runpipe(Cmd *cmds, int n, int bg)
{
	int pids[MAXPIPE], p[2], i, j, np, in, w, st, failed = 0;
	char msg[32];

	if(n == 1 && builtin(&cmds[0]))
		return;
	in = -1;
	for(np = 0; np < n; np++){
		p[0] = p[1] = -1;
		if(np < n - 1 && pipe(p) < 0){
			complain("pipe");
			failed = 1;
			break;
		}
		pids[np] = fork();
		if(pids[np] == 0){
			if(consctl >= 0){
				setnoteid(np == 0 ? 0 : pids[0]);
				close(consctl);
			}
			if(input != 0)
				close(input);
			if(in >= 0){
				dup2(in, 0);
				close(in);
			}else if(bg)
				redirect("/dev/null", 0, O_RDONLY);
			if(p[1] >= 0){
				dup2(p[1], 1);
				close(p[1]);
				close(p[0]);
			}
			runcmd(&cmds[np]);
		}
		if(in >= 0)
			close(in);
		if(p[1] >= 0)
			close(p[1]);
		in = p[0];
		if(pids[np] < 0){
			complain("fork");
			failed = 1;
			break;
		}
	}
	if(in >= 0)
		close(in);
	status = failed;
	if(bg)
		return;
	if(consctl >= 0 && np > 0){
		snprintf(msg, sizeof msg, "fg %d", pids[0]);
		ctl(msg);
	}
	for(i = 0; i < np && (w = wait(&st)) >= 0; )
		for(j = 0; j < np; j++)
			if(pids[j] == w){
				if(j == n - 1)
					status = st;
				i++;
			}
	if(consctl >= 0 && np > 0)
		ctl("fg 0");
}

/*
 * Run the pipelines of a line in turn.  A pipeline after && or || that
 * is skipped leaves the status as it was, so that a || after it sees
 * the status of the last one that ran: false && a || b runs b.  At the
 * console, a foreground pipeline that was killed (by ^C, say) ends the
 * line: ^C on spin 9; spin 9 stops both.
 */
static void
runline(const char *line)
{
	Lex l = { line, words, words + sizeof words };
	Cmd cmds[MAXPIPE];
	int n, term, prev = SEMI;

	do{
		n = parsepipe(&l, cmds, &term);
		if(n == 0 && (prev == AND || prev == OR)){
			fprintf(stderr, "sh: syntax error\n");
			n = -1;
		}
		if(n < 0){
			status = 1;
			return;
		}
		if(n > 0 && (prev == AND ? status == 0 : prev == OR ? status != 0 : 1)){
			runpipe(cmds, n, term == AMP);
			if(consctl >= 0 && term != AMP && status == KILLED)
				return;
		}
		prev = term;
	}while(term != END);
}

/*
 * Read the next line of fd into line, which has room for LINEMAX
 * bytes, without its newline: 0, or -1 at end of file.  A line too
 * long for buf is read through its newline and thrown away, and the
 * result is 1: running only a part of it, or its tail as a second
 * command, could do what no one asked for.
 */
static int
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
	if(!toolong){
		memmove(line, buf, i);
		line[i] = '\0';
	}
	used = i < nbuf ? i + 1 : i;
	nbuf -= used;
	memmove(buf, buf + used, nbuf);
	return toolong;
}

/* The line being edited at the console, and the history. */
static struct {
	char	buf[LINEMAX];	/* the line, not NUL-terminated */
	int	n;		/* its length */
	int	pos;		/* the cursor, 0 to n */
	int	cur;		/* where the cursor is on the screen */
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

/* Delete the bytes [a, b) of the line. */
static void
cut(int a, int b)
{
	int oldn = ed.n;

	memmove(ed.buf + a, ed.buf + b, ed.n - b);
	ed.n -= b - a;
	ed.pos = a;
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

/*
 * Prompt, and read a line from the console in raw mode, editing it as
 * typed: backspace (DEL or ^H), ^U and ^W erase, left and right arrows
 * move, up and down walk the history, ^C abandons the line, ^D on an
 * empty line is end of file.  0, or -1 at end of file.  Raw mode goes
 * on before the prompt, so that nothing typed after it is echoed twice.
 */
static int
editline(char *line)
{
	char c, seq[2];
	int h = nhist, i, oldn;

	ed.n = ed.pos = ed.cur = 0;
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
			remember(line);
			return 0;
		case CTRL('C'):
			write(2, "^C\n", 3);
			ed.n = ed.pos = ed.cur = 0;
			fprintf(stderr, "$ ");
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
			seq[1] = 0;
			if(read(0, seq, 1) != 1 || (seq[0] != '[' && seq[0] != 'O'))
				break;
			do
				if(read(0, seq + 1, 1) != 1)
					break;
			while(seq[1] < 0x40 || seq[1] > 0x7E);
			if(seq[1] == 'A' && h > 0)
				recall(--h);
			else if(seq[1] == 'B' && h < nhist)
				recall(++h);
			else if(seq[1] == 'C' && ed.pos < ed.n){
				ed.pos++;
				repaint(ed.cur, ed.n);
			}else if(seq[1] == 'D' && ed.pos > 0){
				ed.pos--;
				repaint(ed.pos, ed.n);
			}
			break;
		default:
			if((unsigned char)c < ' ' || ed.n == LINEMAX - 1)
				break;
			oldn = ed.n;
			memmove(ed.buf + ed.pos + 1, ed.buf + ed.pos, ed.n - ed.pos);
			ed.buf[ed.pos++] = c;
			ed.n++;
			repaint(ed.pos - 1, oldn);
		}
	}
}

/*
 * Is fd 0 the console?  Then the shell edits its lines, and keeps
 * /dev/consctl open for raw mode and the foreground note group.
 */
static int
atconsole(void)
{
	struct Dir d0, dc;

	if(fstat(0, &d0) < 0 || stat("/dev/cons", &dc) < 0
	|| d0.type != dc.type || d0.qid != dc.qid)
		return 0;
	consctl = open("/dev/consctl", O_WRONLY);
	return consctl >= 0;
}

int
main(int argc, char *argv[])
{
	char line[LINEMAX];
	int atcons, r;

	if(argc > 2 && strcmp(argv[1], "-c") == 0){
		runline(argv[2]);
		return status;
	}
	if(argc > 1 && (input = open(argv[1], O_RDONLY)) < 0){
		complain(argv[1]);
		return 1;
	}
	atcons = argc < 2 && atconsole();
	for(;;){
		if((r = atcons ? editline(line) : readline(input, line)) < 0)
			break;
		if(r > 0){
			fprintf(stderr, "sh: line too long\n");
			status = 1;
		}else
			runline(line);
	}
	return status;
}
