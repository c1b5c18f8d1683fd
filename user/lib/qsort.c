/*
 * qsort: heapsort, which makes at most about 2 n log n comparisons
 * whatever the order of the input (a quicksort can be made to take n^2,
 * by many equal keys among others).
 */
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

/* Move element i down the heap of the first n elements until it is no smaller than its children. */
static void
sift(char *a, size_t i, size_t n, size_t size, int (*cmp)(const void*, const void*))
{
	size_t c;

	for(; (c = 2*i + 1) < n; i = c){
		if(c + 1 < n && cmp(a + c*size, a + (c + 1)*size) < 0)
			c++;
		if(cmp(a + i*size, a + c*size) >= 0)
			return;
		swap(a + i*size, a + c*size, size);
	}
}

/* Make the array a heap, largest first; then move the largest to the end, n times. */
void
qsort(void *base, size_t n, size_t size, int (*cmp)(const void*, const void*))
{
	char *a = base;
	size_t i;

	if(n < 2)
		return;
	for(i = n/2; i-- > 0;)
		sift(a, i, n, size, cmp);
	for(i = n - 1; i > 0; i--){
		swap(a, a + i*size, size);
		sift(a, 0, i, size, cmp);
	}
}
