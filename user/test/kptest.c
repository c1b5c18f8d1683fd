/*
 * kptest: check the kernel profiling device, #T, from inside: the
 * length of kpdata, the invariants of its cells, start/stop/startclr,
 * bad control messages, reads at any offset and length, and that
 * kpdata cannot be written; and kpstack: its lines' form, their counts
 * summing to cell 0, reads at any offset and length, startclr clearing
 * it, and that it cannot be written.  Prints "ok NAME" or "FAIL NAME: why" for
 * each check and "kptest: ok" if all passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include "kern/sys.h"
#include "kern/kprof.h"
#include "clock.h"

static int failures;

static void
check(int ok, char *name, char *why)
{
	if(ok)
		printf("ok %s\n", name);
	else{
		printf("FAIL %s: %s\n", name, why);
		failures++;
	}
}

/* Write a message to kpctl; the write's result. */
static long
ctl(char *msg)
{
	long n;
	int fd;

	if((fd = open("/dev/kpctl", O_WRONLY)) < 0){
		perror("kptest: /dev/kpctl");
		exit(1);
	}
	n = write(fd, msg, strlen(msg));
	close(fd);
	return n;
}

/* The status line of kpctl. */
static void
status(char *buf, int n)
{
	if(readwhole("/dev/kpctl", buf, n) < 0){
		perror("kptest: /dev/kpctl");
		exit(1);
	}
}

/* All of kpdata, read in one go; its length in *len. */
static unsigned char*
readdata(long *len, long size)
{
	unsigned char *buf = malloc(size + 16);
	int fd;

	if(buf == NULL || (fd = open("/dev/kpdata", O_RDONLY)) < 0){
		perror("kptest: /dev/kpdata");
		exit(1);
	}
	*len = read(fd, buf, size + 16);
	close(fd);
	return buf;
}

static unsigned int
cell(unsigned char *d, int i)
{
	return (unsigned int)d[4*i] << 24 | d[4*i+1] << 16 | d[4*i+2] << 8 | d[4*i+3];
}

/* Do the bins (cells 2 to the last, kprof's own cost, before it) add up to cell 1, and is cell 1 at most cell 0? */
static int
consistent(unsigned char *d, int ncell)
{
	unsigned long long sum = 0;
	int i;

	for(i = 2; i < ncell - 1; i++)
		sum += cell(d, i);
	return sum == cell(d, 1) && cell(d, 1) <= cell(d, 0);
}

/* Keep the kernel busy, in system calls, for n ticks. */
static void
busy(unsigned int n)
{
	unsigned int hz, t0 = clockticks(&hz);
	struct Dir d;

	while(clockticks(&hz) - t0 < n)
		stat("/dev/kpdata", &d);
}

/* All of kpstack, read with reads of n bytes; its length in *len. */
static char*
readstack(long *len, long n)
{
	long size = 4096, m;
	char *buf = malloc(size + 1);
	int fd;

	if(buf == NULL || (fd = open("/dev/kpstack", O_RDONLY)) < 0){
		perror("kptest: /dev/kpstack");
		exit(1);
	}
	*len = 0;
	for(;;){
		if(*len + n > size){
			size = 2*size + n;
			if((buf = realloc(buf, size + 1)) == NULL){
				perror("kptest: kpstack");
				exit(1);
			}
		}
		if((m = read(fd, buf + *len, n)) <= 0)
			break;
		*len += m;
	}
	close(fd);
	buf[*len] = '\0';
	return buf;
}

/*
 * Is s kpstack's form, lines of a decimal count and 1 to KPMAXFRAMES
 * pcs of 8 hex digits: up to KPKFRAMES in [text, etext), then, after
 * KPUMARK, up to KPUFRAMES below text; with counts summing to sum?
 */
static int
stackform(char *s, unsigned long text, unsigned long etext, unsigned long long sum)
{
	unsigned long long t = 0;
	unsigned long v;
	char *e;
	int n, k, u;

	while(*s != '\0'){
		if(*s < '0' || *s > '9')
			return 0;
		t += strtoul(s, &e, 10);
		for(s = e, n = 0, k = 0, u = -1; *s == ' '; n++){
			v = strtoul(s + 1, &e, 16);
			if(e != s + 9)
				return 0;
			if(v == KPUMARK && u < 0)
				u = 0;
			else if(u >= 0 ? v >= text || ++u > KPUFRAMES : v < text || v >= etext || ++k > KPKFRAMES)
				return 0;
			s = e;
		}
		if(*s++ != '\n' || n < 1)
			return 0;
	}
	return t == sum;
}

int
main(void)
{
	char st[128], err[64], *p, *sa, *sb;
	unsigned char *d1, *d2, *one;
	unsigned long text, etext;
	long len, len2, size, i;
	int fd, ncell;
	struct Dir d;

	status(st, sizeof st);
	p = strstr(st, "text ");
	text = p ? strtoul(p + 5, &p, 16) : 0;
	p = p ? strstr(p, "etext ") : NULL;
	etext = p ? strtoul(p + 6, NULL, 16) : 0;
	check(text != 0 && etext > text, "status-line", st);
	ncell = 3 + (etext - text + 7) / 8;
	size = 4L * ncell;
	check(stat("/dev/kpdata", &d) == 0 && d.length == (unsigned long)size, "stat-length", "stat length is not 4*(3+nbins)");

	check(ctl("startclr\n") > 0, "startclr", "write failed");
	busy(20);
	check(ctl("stop") > 0, "stop", "write failed");
	status(st, sizeof st);
	check(strncmp(st, "off ", 4) == 0, "stopped-status", st);
	d1 = readdata(&len, size);
	check(len == size, "read-length", "a whole read is not the file's length");
	check(cell(d1, 0) >= 20, "ticks-counted", "fewer ticks than the busy loop ran");
	check(consistent(d1, ncell), "invariants", "bins do not sum to cell 1, or cell 1 > cell 0");

	busy(5);
	d2 = readdata(&len2, size);
	check(len2 == len && memcmp(d1, d2, len) == 0, "stop-keeps", "data changed while stopped");
	free(d2);

	one = malloc(size);
	fd = open("/dev/kpdata", O_RDONLY);
	for(i = 0; i < size; i++)
		if(read(fd, one + i, 1) != 1)
			break;
	check(i == size && read(fd, one, 1) == 0, "bytewise-length", "byte reads ended early or late");
	check(memcmp(one, d1, size) == 0, "bytewise-equal", "byte-by-byte read differs from a whole read");
	seek(fd, 3, SEEK_SET);
	check(read(fd, one, 9) == 9 && memcmp(one, d1 + 3, 9) == 0, "odd-offset", "read at offset 3 differs");
	seek(fd, size - 2, SEEK_SET);
	check(read(fd, one, 100) == 2, "short-at-end", "read near the end not cut short");
	seek(fd, size + 100, SEEK_SET);
	check(read(fd, one, 4) == 0, "past-end", "read past the end returned data");
	close(fd);

	check(ctl("bogus") < 0 && errno == EINVAL, "bad-message-fails", "bad message accepted");
	errstr(err, sizeof err);
	check(strcmp(err, "bad control message") == 0, "bad-message-text", err);
	check(ctl("start now") < 0 && ctl("") < 0 && ctl("stopp") < 0, "bad-messages", "a near miss was accepted");
	status(st, sizeof st);
	check(strncmp(st, "off ", 4) == 0, "bad-message-no-state-change", st);
	d2 = readdata(&len2, size);
	check(memcmp(d1, d2, size) == 0, "bad-message-no-data-change", "data changed");
	free(d2);

	check(ctl("start  \n") > 0, "start-blanks", "start with trailing blanks refused");
	busy(10);
	ctl("stop");
	d2 = readdata(&len2, size);
	check(cell(d2, 0) >= cell(d1, 0) + 10, "start-keeps", "start did not keep the old counts");
	check(consistent(d2, ncell), "invariants-again", "inconsistent after start/stop");
	free(d2);

	ctl("startclr");
	ctl("stop");
	d2 = readdata(&len2, size);
	check(cell(d2, 0) < cell(d1, 0) && consistent(d2, ncell), "startclr-zeroes", "startclr kept old counts");
	free(d2);

	/* kpstack, after some work in system calls. */
	ctl("startclr");
	busy(20);
	ctl("stop");
	d2 = readdata(&len2, size);
	sa = readstack(&len, 100000);
	check(len > 0 && stackform(sa, text, etext, cell(d2, 0)), "kpstack-form-and-sum", "bad lines, or counts not summing to cell 0");
	sb = readstack(&len2, 1);
	check(len2 == len && strcmp(sa, sb) == 0, "kpstack-bytewise", "byte-by-byte read differs from a whole read");
	free(sb);
	sb = readstack(&len2, 7);
	check(len2 == len && strcmp(sa, sb) == 0, "kpstack-7-bytes", "7-byte reads differ from a whole read");
	free(sb);
	fd = open("/dev/kpstack", O_RDONLY);
	for(i = 1; i < len; i += 37){
		seek(fd, i, SEEK_SET);
		if(read(fd, one, 13) != (len - i < 13 ? len - i : 13) || memcmp(one, sa + i, len - i < 13 ? len - i : 13) != 0)
			break;
	}
	check(i >= len, "kpstack-odd-offsets", "a read at an odd offset differs");
	seek(fd, len, SEEK_SET);
	check(read(fd, one, 10) == 0, "kpstack-at-end", "read at the end returned data");
	seek(fd, len + 1000000, SEEK_SET);
	check(read(fd, one, 10) == 0, "kpstack-past-end", "read past the end returned data");
	check(read(fd, one, 0) == 0, "kpstack-zero-length", "a read of 0 bytes returned data");
	close(fd);
	check(open("/dev/kpstack", O_WRONLY) < 0 && open("/dev/kpstack", O_RDWR) < 0, "kpstack-no-write", "kpstack opened for writing");
	ctl("startclr");
	ctl("stop");
	free(d2);
	d2 = readdata(&len2, size);
	free(sa);
	sa = readstack(&len, 4096);
	check(stackform(sa, text, etext, cell(d2, 0)) && cell(d2, 0) < 5, "kpstack-startclr-clears", "stacks left after startclr");
	free(sa);
	free(d2);
	status(st, sizeof st);
	check(strstr(st, " cut 0 ") != NULL, "status-cut", st);

	fd = open("/dev/kpdata", O_WRONLY);
	check(fd < 0, "no-write-open", "kpdata opened for writing");
	fd = open("/dev/kpdata", O_RDWR);
	check(fd < 0 || write(fd, "x", 1) < 0, "no-write", "kpdata written");

	if(failures){
		printf("kptest: %d failures\n", failures);
		return 1;
	}
	printf("kptest: ok\n");
	return 0;
}
