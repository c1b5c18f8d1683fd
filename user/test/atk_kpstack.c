/*
 * atk_kpstack N: reads of /dev/kpstack in storms of kpctl commands,
 * from several processes at once.  One child writes start, startclr and
 * stop to kpctl N times; two read kpstack at odd offsets and lengths,
 * into buffers at odd addresses and bad ones, N times each; one keeps
 * #S spinning with interrupts off and through deep stacks, so that the
 * NMIs land there.  Then, profiling stopped, kpstack must still sum to
 * kpdata's cell 1.  Prints "atk_kpstack: ok", or what failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int failures;

static void
fail(const char *what, long r)
{
	printf("atk_kpstack: FAIL %s (returned %ld)\n", what, r);
	failures++;
}

static unsigned long
rnd(unsigned long *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 8;
}

static void
ctl(char *msg)
{
	int fd = open("/dev/kpctl", O_WRONLY);
	long r;

	if(fd < 0 || (r = write(fd, msg, strlen(msg))) != (long)strlen(msg))
		fail("kpctl write", fd < 0 ? fd : r);
	close(fd);
}

static void
storm(int n)
{
	static char *cmd[] = { "startclr", "start", "stop", "startclr\n", "stop  " };
	int i;

	for(i = 0; i < n; i++)
		ctl(cmd[i % 5]);
}

/* Reads at odd offsets and lengths; into bad buffers they must fail, not panic. */
static void
reader(int n, unsigned long seed)
{
	static char buf[9000];
	long r, len;
	int i, fd;

	if((fd = open("/dev/kpstack", O_RDONLY)) < 0){
		fail("open kpstack", fd);
		return;
	}
	for(i = 0; i < n; i++){
		seek(fd, rnd(&seed) % 20000, SEEK_SET);
		len = rnd(&seed) % 8000;
		if((r = read(fd, buf + rnd(&seed) % 1000, len)) < 0 || r > len)
			fail("read at an odd offset", r);
		if(i % 8 == 0){
			seek(fd, 0, SEEK_SET);
			if((r = read(fd, (void*)0x10, 100)) != -1 || errno != EFAULT)
				fail("read into page 0", r);
			if((r = read(fd, (void*)0xC0100000, 100)) != -1 || errno != EFAULT)
				fail("read into the kernel", r);
			if((r = read(fd, (void*)fail, 100)) != -1 || errno != EFAULT)
				fail("read into text", r);
		}
	}
	close(fd);
}

static void
spinner(int n)
{
	char *cmd[] = { "c 300000", "t 40", "a 100000" };
	int i, fd;

	if((fd = open("#S/spinctl", O_WRONLY)) < 0){
		fail("open #S/spinctl", fd);
		return;
	}
	for(i = 0; i < n; i++)
		write(fd, cmd[i % 3], strlen(cmd[i % 3]));
	close(fd);
}

/* Profiling stopped: do kpstack's counts sum to kpdata's cell 1? */
static void
sums(void)
{
	static char buf[1<<20];
	unsigned char c[8];
	unsigned long long sum = 0;
	unsigned long k;
	long n = 0, r;
	char *p;
	int fd;

	ctl("stop");
	fd = open("/dev/kpstack", O_RDONLY);
	while(n < (long)sizeof buf - 1 && (r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	for(p = buf; *p != '\0'; p++){
		sum += strtoul(p, &p, 10);
		while(*p != '\n' && *p != '\0')
			p++;
	}
	fd = open("/dev/kpdata", O_RDONLY);
	if(read(fd, c, 8) != 8)
		fail("read kpdata", -1);
	close(fd);
	k = (unsigned long)c[4] << 24 | c[5] << 16 | c[6] << 8 | c[7];
	if(sum != k)
		fail("kpstack's counts sum to cell 1", (long)(sum - k));
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? parsenum(argv[1]) : 100, i, st, pid;

	if(argc > 2 || n < 0){
		fprintf(stderr, "usage: atk_kpstack [rounds]\n");
		return 2;
	}

	for(i = 0; i < 4; i++){
		if((pid = fork()) < 0){
			fail("fork", pid);
			break;
		}
		if(pid == 0){
			switch(i){
			case 0: storm(n); break;
			case 1: reader(n, 1); break;
			case 2: reader(n, 2); break;
			case 3: spinner(n/4 + 1); break;
			}
			exit(failures != 0);
		}
	}
	while((pid = wait(&st)) > 0)
		if(st != 0)
			fail("child", st);
	sums();
	if(failures){
		printf("atk_kpstack: %d failures\n", failures);
		return 1;
	}
	printf("atk_kpstack: ok\n");
	return 0;
}
