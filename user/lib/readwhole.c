/*
 * readwhole: a small file's text whole, as a string, for the one-line
 * status files of the devices (/dev/time, /dev/sysstat, kpctl).
 */
#include <fcntl.h>
#include <unistd.h>

long
readwhole(const char *path, char *buf, long n)
{
	long m;
	int fd;

	if(n <= 0 || (fd = open(path, O_RDONLY)) < 0)
		return -1;
	m = read(fd, buf, n - 1);
	close(fd);
	buf[m > 0 ? m : 0] = '\0';
	return m;
}
