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
 * last pipeline's exit status, and $!, the last background process;
 * # starts a comment.  The builtins are cd [dir], exit [status] and
 * wait [pid]; any other command name without a / is looked up in /bin.
 *
 * At the console, the shell edits its own lines (user/sh/input.c) in
 * the console's raw mode, with a history, and runs each command in a
 * note group of its own that it makes the console's foreground: ^C
 * kills that command, not the shell.  This file runs lines; the parser
 * is user/sh/parse.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include "sh/sh.h"

/* The background processes not yet waited for with wait: NPROC of them, so room for all. */
enum { NJOB = 64 };

int status;
int apid;
int consctl = -1;
static int input;		/* where commands come from */

static struct {
	int	pid;		/* 0: a free slot */
	int	group;		/* its pipeline's note group: the first one's pid */
	int	done;		/* it has exited, with status st */
	int	st;
} jobs[NJOB];

/* Print "sh: what: " and the error string. */
void
complain(const char *what)
{
	char msg[LINEMAX + 8];

	snprintf(msg, sizeof msg, "sh: %s", what);
	perror(msg);
}

/* Write a control message to the console; a failure is reported. */
void
ctl(const char *msg)
{
	if(write(consctl, msg, strlen(msg)) < 0)
		complain("/dev/consctl");
}

/* Remember background process pid of note group group, for wait. */
static void
addjob(int pid, int group)
{
	int i, free = -1;

	for(i = 0; i < NJOB; i++)
		if(jobs[i].pid == 0 || (free < 0 && jobs[i].done))
			free = i;
	if(free < 0)
		return;
	jobs[free].pid = pid;
	jobs[free].group = group;
	jobs[free].done = 0;
}

/* wait says child pid has exited: if it is a background one, note its status. */
static void
reaped(int pid, int st)
{
	int i;

	for(i = 0; i < NJOB; i++)
		if(jobs[i].pid == pid && !jobs[i].done){
			jobs[i].done = 1;
			jobs[i].st = st;
		}
}

/*
 * Wait for background process i, its note group the console's
 * foreground meanwhile, so that ^C kills it; forget it, and return its
 * status.  KILLED means killed while waited for: one killed before is 1.
 */
static int
waitjob(int i)
{
	char msg[32];
	int w, st, fg;

	fg = !jobs[i].done && consctl >= 0;
	if(fg){
		snprintf(msg, sizeof msg, "fg %d", jobs[i].group);
		ctl(msg);
	}
	while(!jobs[i].done && (w = wait(&st)) >= 0)
		reaped(w, st);
	if(fg)
		ctl("fg 0");
	jobs[i].pid = 0;
	if(!jobs[i].done)
		return 1;
	return fg || jobs[i].st != KILLED ? jobs[i].st : 1;
}

/*
 * wait: every background process, status 0 (at the console, one killed
 * as it is waited for, by ^C, ends the wait with its status); wait pid:
 * that one, its status.
 */
static void
waitcmd(Cmd *c)
{
	long pid;
	int i;

	if(c->argc > 2){
		fprintf(stderr, "usage: wait [pid]\n");
		status = 1;
		return;
	}
	if(c->argc == 2){
		pid = parsenum(c->argv[1]);
		for(i = 0; i < NJOB && (pid <= 0 || jobs[i].pid != pid); i++)
			;
		if(i == NJOB){
			fprintf(stderr, "sh: wait: %s: no such background process\n", c->argv[1]);
			status = 1;
		}else
			status = waitjob(i);
		return;
	}
	status = 0;
	for(i = 0; i < NJOB; i++)
		if(jobs[i].pid != 0 && waitjob(i) == KILLED && consctl >= 0){
			status = KILLED;
			return;
		}
}

/*
 * Run the builtins cd, exit and wait in the shell itself; 0 if c is
 * none of them.  Exit with a bad status still exits, as asked, but
 * with status 1.
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
	if(strcmp(c->argv[0], "wait") == 0){
		waitcmd(c);
		return 1;
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

/*
 * In a child: do c's redirections and run it; never returns.  A
 * builtin here, in a pipeline or the background, runs in the child, as
 * rc's do: cd /tmp & changes nothing for the shell, and exit 3 & does
 * not end it.
 */
static void
runcmd(Cmd *c)
{
	char path[LINEMAX + 8];

	if(c->in != NULL)
		redirect(c->in, 0, O_RDONLY);
	if(c->out != NULL)
		redirect(c->out, 1, O_WRONLY|O_CREAT|(c->append ? O_APPEND : O_TRUNC));
	if(builtin(c))
		exit(status);
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
 * In the foreground, wait for them all (noting the status of any
 * background ones that finish meanwhile); the status is the last one's.
 * A background pipeline reads /dev/null unless redirected, and its
 * processes are remembered for wait.  At the
 * console, each pipeline is a note group, named by its first process;
 * a foreground one is the console's foreground while the shell waits.
 */
static void
runpipe(Cmd *cmds, int n, int bg)
{
	int pids[MAXPIPE], p[2], i, j, np, in, w, st, failed = 0;
	char msg[32];

	if(n == 1 && !bg && builtin(&cmds[0]))
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
				consctl = -1;
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
	if(bg){
		for(i = 0; i < np; i++)
			addjob(pids[i], pids[0]);
		if(np > 0)
			apid = pids[np - 1];
		return;
	}
	if(consctl >= 0 && np > 0){
		snprintf(msg, sizeof msg, "fg %d", pids[0]);
		ctl(msg);
	}
	for(i = 0; i < np && (w = wait(&st)) >= 0; ){
		reaped(w, st);
		for(j = 0; j < np; j++)
			if(pids[j] == w){
				if(j == n - 1)
					status = st;
				i++;
			}
	}
	if(consctl >= 0 && np > 0)
		ctl("fg 0");
}

/*
 * Run the pipelines of a line in turn, once the whole line has parsed
 * (a syntax error anywhere runs none of it).  A pipeline after && or || that
 * is skipped leaves the status as it was, so that a || after it sees
 * the status of the last one that ran: false && a || b runs b.  At the
 * console, a foreground pipeline that was killed (by ^C, say) ends the
 * line: ^C on spin 9; spin 9 stops both.
 */
static void
runline(const char *line)
{
	Lex l;
	Cmd cmds[MAXPIPE];
	int n, term, prev = SEMI;

	if(checkline(line) < 0){
		status = 1;
		return;
	}
	lexinit(&l, line);
	do{
		n = parsepipe(&l, cmds, &term);
		if(n < 0){	/* words that $status made longer than checkline's */
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

/*
 * Is fd a directory?  Read as a script, its entries' names would be
 * run as commands: a file named halt in it would power off.
 */
static int
isdir(int fd)
{
	struct Dir d;

	return fstat(fd, &d) == 0 && (d.mode & DMDIR);
}

int
main(int argc, char *argv[])
{
	char line[LINEMAX];
	int atcons, r;

	if(argc > 3 || (argc == 3 && strcmp(argv[1], "-c") != 0)
	|| (argc == 2 && argv[1][0] == '-')){
		fprintf(stderr, "usage: sh [file]\n       sh -c commands\n");
		return 1;
	}
	if(argc == 3){
		runline(argv[2]);
		return status;
	}
	if(argc > 1 && (input = open(argv[1], O_RDONLY)) < 0){
		complain(argv[1]);
		return 1;
	}
	if(argc > 1 && isdir(input)){
		fprintf(stderr, "sh: %s: is a directory\n", argv[1]);
		return 1;
	}
	atcons = argc < 2 && atconsole();
	for(;;){
		if((r = atcons ? editline(line) : readline(input, line)) < 0)
			break;
		if(r > 0){
			fprintf(stderr, r == 1 ? "sh: line too long\n" : "sh: NUL in a line\n");
			status = 1;
		}else
			runline(line);
	}
	return status;
}
