/* copyfd: copy from one file descriptor to another until end of file. */
#include "unistd.h"

long
copyfd(int from, int to)
{
	char buf[4096];
	long n, w, off, total = 0;

	while((n = read(from, buf, sizeof buf)) > 0){
		for(off = 0; off < n; off += w){
			w = write(to, buf + off, n - off);
			if(w <= 0)
				return -1;
		}
		total += n;
	}
	return n < 0 ? -1 : total;
}
