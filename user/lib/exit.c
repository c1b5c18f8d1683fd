/*
 * exit: call the functions registered with atexit, last registered
 * first, flush the standard streams, then end the process.  If
 * writing the standard output failed, say so, and fail.
 */
#include "stdio.h"
#include "stdlib.h"
#include "unistd.h"

enum { NATEXIT = 32 };		/* room for registered functions */

static void	(*atfn[NATEXIT])(void);
static int	natexit;

/* Have exit call fn; 0, or -1 if there is no room. */
int
atexit(void (*fn)(void))
{
	if(natexit == NATEXIT)
		return -1;
	atfn[natexit++] = fn;
	return 0;
}

void
exit(int status)
{
	while(natexit > 0)
		atfn[--natexit]();
	if(fflush(stdout) == EOF || stdout->err){
		warn("write error");
		if(status == 0)
			status = 1;
	}
	fflush(stderr);
	_exit(status);
}
