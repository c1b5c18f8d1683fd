/*
 * sh: a small shell.
 *
 *	sh			read commands from the standard input
 *	sh file			run a script
 *	sh -c 'commands'	run a string
 *
 * A line holds pipelines (cmd | cmd ...) separated by ; or &; a pipeline
 * ending in & runs in the background.  A command is words and the
 * redirections <file, >file and >>file.  '...' quotes literally, "..."
 * quotes but expands $?, the status of the last pipeline; # starts a
 * comment.  The builtins are cd [dir] and exit [status]; any other
 * command name without a / is looked up in /bin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define LINEMAX	1024	/* longest input line */
#define MAXARGS	32	/* words in a command */
#define MAXPIPE	16	/* commands in a pipeline */

/* Tokens. */
enum {
	WORD,		/* a word, after quoting and $? */
	PIPE,		/* | */
	SEMI,		/* ; or newline */
	AMP,		/* & */
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
static char words[4*LINEMAX];	/* the words of the line being run */

/* Print "sh: what: " and the error string. */
static void
complain(const char *what)
{
	char msg[LINEMAX + 8];

	snprintf(msg, sizeof msg, "sh: %s", what);
	perror(msg);
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
		return PIPE;
	case ';':
	case '\n':
		return SEMI;
	case '&':
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
		if(s[0] == '$' && s[1] == '?' && q != '\''){
			snprintf(num, sizeof num, "%d", status);
			r = addstr(l, num, strlen(num));
			s += 2;
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
 * Parse one pipeline into cmds, up to the ; & or end of line that ends
 * it, which goes in *term.  Returns the number of commands (0 for an
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
			if(c == cmds && c->in == NULL && c->out == NULL && t != AMP)
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
	}else
		exec(c->argv[0], c->argv);
	complain(c->argv[0]);
	exit(1);
}

/*
 * Run a pipeline of n commands, each in a child, connected by pipes.
 * In the foreground, wait for them all (collecting any background
 * children that finish meanwhile); the status is the last one's.
 * A background pipeline reads /dev/null unless redirected.
 */
static void
runpipe(Cmd *cmds, int n, int bg)
{
	int pids[MAXPIPE], p[2], i, j, np, in, w, st, failed = 0;

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
	for(i = 0; i < np && (w = wait(&st)) >= 0; )
		for(j = 0; j < np; j++)
			if(pids[j] == w){
				if(j == n - 1)
					status = st;
				i++;
			}
}

/* Run every pipeline of a line. */
static void
runline(const char *line)
{
	Lex l = { line, words, words + sizeof words };
	Cmd cmds[MAXPIPE];
	int n, term;

	do{
		n = parsepipe(&l, cmds, &term);
		if(n < 0){
			status = 1;
			return;
		}
		if(n > 0)
			runpipe(cmds, n, term == AMP);
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

int
main(int argc, char *argv[])
{
	char line[LINEMAX];
	struct Dir d;
	int prompt, r;

	if(argc > 2 && strcmp(argv[1], "-c") == 0){
		runline(argv[2]);
		return status;
	}
	if(argc > 1 && (input = open(argv[1], O_RDONLY)) < 0){
		complain(argv[1]);
		return 1;
	}
	prompt = argc < 2 && fstat(0, &d) == 0 && d.type == 'c';
	for(;;){
		if(prompt)
			fprintf(stderr, "$ ");
		if((r = readline(input, line)) < 0)
			break;
		if(r > 0){
			fprintf(stderr, "sh: line too long\n");
			status = 1;
		}else
			runline(line);
	}
	return status;
}
