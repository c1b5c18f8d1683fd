/*
 * atk_heap: try to take the whole kernel heap for files in /tmp, past
 * the 2 MB that files leave for processes.  Fill the heap with files
 * until the root file system refuses (heap free just over its reserve),
 * make one pipe so that free heap drops below the reserve, and grow
 * files again: they must still be refused.  (The check compared with
 * heapfree() - Reserve, which wrapped round below the reserve, and then
 * no process could be made again, not even to remove the files.)
 */
#include <stdio.h>
#include <unistd.h>

static int nfile;

/* Files of size s, as many as fit; how many. */
static int
fill(unsigned s)
{
	char name[32];
	int fd, k = 0;

	for(;;){
		snprintf(name, sizeof name, "/tmp/h%d", nfile);
		if((fd = create(name, O_WRONLY, 0664)) < 0)
			return k;
		nfile++;
		if(seek(fd, s - 1, SEEK_SET) < 0 || write(fd, "x", 1) != 1){
			close(fd);
			remove(name);
			nfile--;
			return k;
		}
		close(fd);
		k++;
	}
}

static void
fillall(void)
{
	unsigned s;

	for(s = 4*1024*1024; s >= 256; s /= 2)
		fill(s);
}

static void
sysstat(char *when)
{
	char buf[128];

	readwhole("/dev/sysstat", buf, sizeof buf);
	printf("atk_heap: %s: %s", when, buf);
}

int
main(void)
{
	int p[2];

	sysstat("before");
	fillall();
	sysstat("files refused");
	if(pipe(p) < 0)
		printf("atk_heap: pipe failed\n");
	fillall();
	sysstat("after the reserve");
	printf("atk_heap: %d files\n", nfile);
	return 0;
}
