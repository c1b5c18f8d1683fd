/* qsort: quicksort with the middle element as pivot. */
#include <stddef.h>
#include "stdlib.h"

static void
swap(char *a, char *b, size_t size)
{
	char t;

	while(size-- > 0){
		t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

/*
 * Move the pivot to the front, partition the rest around it, put it
 * between the parts; then sort the smaller part by recursion and the
 * larger by looping, so the stack stays shallow.
 */
void
qsort(void *base, size_t n, size_t size, int (*cmp)(const void*, const void*))
{
	char *a = base;
	size_t i, last;

	while(n > 1){
		swap(a, a + (n/2)*size, size);
		last = 0;
		for(i = 1; i < n; i++)
			if(cmp(a + i*size, a) < 0)
				swap(a + ++last*size, a + i*size, size);
		swap(a, a + last*size, size);
		if(last < n - last - 1){
			qsort(a, last, size, cmp);
			a += (last + 1)*size;
			n -= last + 1;
		}else{
			qsort(a + (last + 1)*size, n - last - 1, size, cmp);
			n = last;
		}
	}
}
