/*
 * String and memory functions: the kernel's, and the C library's too,
 * which links this same object (kern/lib.h).
 */
#include "lib.h"

/*
 * memset and memmove are the plain loops in them; a copy or fill of
 * Big bytes or more goes to bigset or bigmove instead, which move the
 * middle of it in 128-byte blocks through the SSE registers, 16 bytes
 * an instruction.  Those are most of the bytes the kernel moves (fork
 * copies whole pages), and the blocks save 16.6% of the instructions
 * of the suite's fuzz run (doc/benchmarks.md, "Speed tricks").  The
 * loops are built without gcc's turning them into calls of memset and
 * memmove, which are these.
 */
enum { Big = 256 };

#define PLAIN	__attribute__((optimize("no-tree-loop-distribute-patterns")))

static void*	bigset(char *d, unsigned int w, size_t n);
static void*	bigmove(char *d, const char *s, size_t n);

PLAIN void*
memset(void *dst, int c, size_t n)
{
	char *d = dst;

	if(n >= Big)
		return bigset(d, (unsigned char)c * 0x01010101U, n);
	while(n-- > 0)
		*d++ = c;
	return dst;
}

/* A destination above an overlapping source is copied from the end down. */
PLAIN void*
memmove(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	if(n >= Big)
		return bigmove(d, s, n);
	if((size_t)(d - s) >= n)
		while(n-- > 0)
			*d++ = *s++;
	else
		while(n-- > 0)
			d[n] = s[n];
	return dst;
}

/*
 * The SSE registers hold the user program's values while the kernel
 * runs (kern/fpu.c: they are saved only at a process switch, and the
 * kernel is built to use none of them), so ssefill and ssecopy save
 * all of the FPU on their own stack with fxsave before they touch an
 * SSE register and put it back with fxrstor after.  That makes them
 * safe wherever they run: nothing switches processes or looks at a
 * process's saved registers inside them, and an interrupt that came
 * in the middle and copied too would save and restore the same way.
 * In a user program the save is not needed (the ABI lets a call
 * clobber the SSE registers) but costs two instructions, and one
 * object serves both.  fpuinit makes sure the processor has SSE.
 */
#define FXBUF(fx)	(char*)(((size_t)(fx) + 15) & ~(size_t)15)	/* fxsave wants 16-byte alignment */

/* Set n bytes at d, 16-byte aligned, to the word w; n is a multiple of 128. */
static void
ssefill(char *d, unsigned int w, size_t n)
{
	char fx[512+15], *f = FXBUF(fx);
	size_t i = -n;

	d += n;
	asm volatile("fxsave (%[f])\n"
		"movss %[w], %%xmm0\n"
		"shufps $0, %%xmm0, %%xmm0\n"	/* w in all four words */
		"1: movaps %%xmm0, (%[d],%[i]); movaps %%xmm0, 16(%[d],%[i])\n"
		"movaps %%xmm0, 32(%[d],%[i]); movaps %%xmm0, 48(%[d],%[i])\n"
		"movaps %%xmm0, 64(%[d],%[i]); movaps %%xmm0, 80(%[d],%[i])\n"
		"movaps %%xmm0, 96(%[d],%[i]); movaps %%xmm0, 112(%[d],%[i])\n"
		"add $128, %[i]\n"
		"jnz 1b\n"
		"fxrstor (%[f])"
		: [i] "+r"(i)
		: [d] "r"(d), [f] "r"(f), [w] "m"(w)
		: "memory", "cc");
}

/* One 128-byte block at offset i: all of it into xmm0-7, then out. */
#define LOAD128 \
	"movups (%[s],%[i]), %%xmm0; movups 16(%[s],%[i]), %%xmm1\n" \
	"movups 32(%[s],%[i]), %%xmm2; movups 48(%[s],%[i]), %%xmm3\n" \
	"movups 64(%[s],%[i]), %%xmm4; movups 80(%[s],%[i]), %%xmm5\n" \
	"movups 96(%[s],%[i]), %%xmm6; movups 112(%[s],%[i]), %%xmm7\n"
#define STORE128 \
	"movaps %%xmm0, (%[d],%[i]); movaps %%xmm1, 16(%[d],%[i])\n" \
	"movaps %%xmm2, 32(%[d],%[i]); movaps %%xmm3, 48(%[d],%[i])\n" \
	"movaps %%xmm4, 64(%[d],%[i]); movaps %%xmm5, 80(%[d],%[i])\n" \
	"movaps %%xmm6, 96(%[d],%[i]); movaps %%xmm7, 112(%[d],%[i])\n"

/*
 * Copy n bytes from s to d, d 16-byte aligned, in 128-byte blocks; n
 * is a multiple of 128.  Each block is loaded whole before it is
 * stored, and the blocks go up (up != 0) or down, so that where d and
 * s overlap no block reads bytes an earlier block has overwritten.
 * Going up, the index runs from -n to 0 from the ends of d and s, so
 * that one add both steps and tests it.
 */
static void
ssecopy(char *d, const char *s, size_t n, int up)
{
	char fx[512+15], *f = FXBUF(fx);
	size_t i = n;

	if(up){
		d += n;
		s += n;
		i = -n;
		asm volatile("fxsave (%[f])\n"
			"1: " LOAD128 STORE128
			"add $128, %[i]\n"
			"jnz 1b\n"
			"fxrstor (%[f])"
			: [i] "+r"(i)
			: [d] "r"(d), [s] "r"(s), [f] "r"(f)
			: "memory", "cc");
	}else
		asm volatile("fxsave (%[f])\n"
			"1: sub $128, %[i]\n"
			LOAD128 STORE128
			"jnz 1b\n"
			"fxrstor (%[f])"
			: [i] "+r"(i)
			: [d] "r"(d), [s] "r"(s), [f] "r"(f)
			: "memory", "cc");
}

/*
 * n >= Big bytes: the head up to a 16-byte boundary of d and the tail
 * past the last whole block by the plain loop, the blocks between by
 * SSE.  Where d is above an overlapping s, the tail goes first and the
 * head last, so that each part reads its source before a later part
 * writes over it.
 */
static void*
bigset(char *d, unsigned int w, size_t n)
{
	size_t head = -(size_t)d & 15, k = (n - head) & ~(size_t)127;

	memset(d, w, head);
	ssefill(d + head, w, k);
	memset(d + head + k, w, n - head - k);
	return d;
}

static void*
bigmove(char *d, const char *s, size_t n)
{
	size_t head = -(size_t)d & 15, k = (n - head) & ~(size_t)127, tail = head + k;

	if((size_t)(d - s) >= n){
		memmove(d, s, head);
		ssecopy(d + head, s + head, k, 1);
		memmove(d + tail, s + tail, n - tail);
	}else{
		memmove(d + tail, s + tail, n - tail);
		ssecopy(d + head, s + head, k, 0);
		memmove(d, s, head);
	}
	return d;
}

void*
memcpy(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}

/*
 * memcmp skips equal words a load at a time, then finds the first
 * differing byte one at a time: the system-call fuzzer compares two
 * 512-byte FPU images after every call, and a byte loop was a third of
 * its instructions.  Word is a word that may lie anywhere and alias
 * anything.
 */
typedef unsigned long Word __attribute__((aligned(1), may_alias));

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for(; n >= sizeof(Word); n -= sizeof(Word), p += sizeof(Word), q += sizeof(Word))
		if(*(const Word*)p != *(const Word*)q)
			break;
	for(; n > 0; n--, p++, q++)
		if(*p != *q)
			return *p - *q;
	return 0;
}

void*
memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for(; n > 0; n--, p++)
		if(*p == (unsigned char)c)
			return (void*)p;
	return NULL;
}

size_t
strlen(const char *s)
{
	size_t n = 0;

	while(s[n])
		n++;
	return n;
}

int
strcmp(const char *a, const char *b)
{
	while(*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int
strncmp(const char *a, const char *b, size_t n)
{
	for(; n > 0; n--, a++, b++)
		if(*a != *b || *a == '\0')
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

char*
strcpy(char *dst, const char *src)
{
	char *d = dst;

	while((*d++ = *src++) != '\0')
		;
	return dst;
}

/* Copy at most n-1 characters and always terminate, as Plan 9's strecpy would. */
size_t
strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);

	if(n > 0){
		size_t m = len < n - 1 ? len : n - 1;
		memmove(dst, src, m);
		dst[m] = '\0';
	}
	return len;
}

char*
strchr(const char *s, int c)
{
	for(; *s; s++)
		if(*s == (char)c)
			return (char*)s;
	return c == 0 ? (char*)s : NULL;
}

char*
strrchr(const char *s, int c)
{
	const char *r = NULL;

	do{
		if(*s == (char)c)
			r = s;
	}while(*s++);
	return (char*)r;
}

char*
strstr(const char *s, const char *t)
{
	size_t n = strlen(t);

	for(; *s; s++)
		if(strncmp(s, t, n) == 0)
			return (char*)s;
	return n == 0 ? (char*)s : NULL;
}
