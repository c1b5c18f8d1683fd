/*
 * copyfd: copy from one file descriptor to another until end of file.
 * The bytes copied, or Copyread if a read failed and Copywrite if a
 * write did, so that the caller names the file that failed: cat's
 * output refused ("bad control message") is no fault of its input.
 */
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
				return Copywrite;
		}
		total += n;
	}
	return n < 0 ? Copyread : total;
}
