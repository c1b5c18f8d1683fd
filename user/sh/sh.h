/*
 * The shell's parts, one subsystem a file: user/sh.c runs lines (the
 * builtins, pipelines, background jobs), user/sh/parse.c turns a line
 * into pipelines, user/sh/input.c reads lines, editing them itself at
 * the console.
 */

#define LINEMAX	1024	/* longest input line, with its NUL */
#define MAXARGS	32	/* words in a command */
#define MAXPIPE	16	/* commands in a pipeline */
#define KILLED	255	/* the status of a process the kernel killed */

/* Tokens. */
enum {
	WORD,		/* a word, after quoting and $ */
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

/* sh.c */
extern int	status;		/* $? and $status: the last pipeline's exit status */
extern int	apid;		/* $!: the last background pipeline's last process */
extern int	consctl;	/* /dev/consctl, if the shell is at the console; else -1 */
void	complain(const char*);
void	ctl(const char*);

/* parse.c */
void	lexinit(Lex*, const char*);
int	parsepipe(Lex*, Cmd*, int*);
int	checkline(const char*);

/* input.c */
int	readline(int, char*);
int	editline(char*);
