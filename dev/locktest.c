/*
 * locktest=twice or locktest=unheld on the test kernel's command line
 * (conf/kerneltest): once the processors are up, take a lock this
 * processor already holds, or let go of one it does not, each of which
 * must panic, naming the lock (tools/test/mp.sh); any other value is
 * refused with a warning.  Only whoever boots the kernel can ask for
 * it, and o/kernel does not have it.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

void
locktest(char *how)
{
	static Lock l = { .name = "locktest" };

	if(strcmp(how, "twice") != 0 && strcmp(how, "unheld") != 0){
		print("warning: locktest=%s: not twice or unheld\n", how);
		return;
	}
	if(strcmp(how, "twice") == 0){
		lock(&l);
		lock(&l);
	}else
		unlock(&l);
	print("locktest=%s: no panic\n", how);
}
