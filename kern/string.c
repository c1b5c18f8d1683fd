/*
 * String and memory functions: the kernel's, and the C library's too,
 * which links this same object (kern/lib.h).
 */
#include "lib.h"

/*
 * memset and memmove move a word per step of a string instruction (rep
 * stosl, rep movsl) once the destination is word-aligned; the odd bytes
 * at either end go one at a time (rep stosb, rep movsb).  From Big bytes
 * on, the middle goes in 128-byte blocks through the SSE registers
 * (ssefill, ssecopy): 16 bytes an instruction, where a step of a string
 * instruction moves 4.  The kernel's trap entry clears the direction
 * flag, as the ABI wants, so a forward copy need not.
 */
enum { Big = 256 };

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

void*
memset(void *dst, int c, size_t n)
{
	unsigned int w = (unsigned char)c * 0x01010101U;
	char *d = dst;
	size_t k;

	if(n >= 8){
		k = -(size_t)d & 3;
		n -= k;
		asm volatile("rep stosb" : "+D"(d), "+c"(k) : "a"(w) : "memory");
		if(n >= Big){
			k = (-(size_t)d & 15) >> 2;
			n -= 4*k;
			asm volatile("rep stosl" : "+D"(d), "+c"(k) : "a"(w) : "memory");
			k = n & ~(size_t)127;
			ssefill(d, w, k);
			d += k;
			n -= k;
		}
		k = n >> 2;
		n &= 3;
		asm volatile("rep stosl" : "+D"(d), "+c"(k) : "a"(w) : "memory");
	}
	asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(w) : "memory");
	return dst;
}

/*
 * A destination above an overlapping source is copied backwards, with
 * the direction flag set: from the last byte down, the first words
 * ending at a word boundary of the destination, and the SSE blocks at
 * a 16-byte one.
 */
void*
memmove(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;
	size_t k;

	if((size_t)(d - s) >= n){
		if(n >= 8){
			k = -(size_t)d & 3;
			n -= k;
			asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
			if(n >= Big){
				k = (-(size_t)d & 15) >> 2;
				n -= 4*k;
				asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
				k = n & ~(size_t)127;
				ssecopy(d, s, k, 1);
				d += k;
				s += k;
				n -= k;
			}
			k = n >> 2;
			n &= 3;
			asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		}
		asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
		return dst;
	}
	d += n - 1;
	s += n - 1;
	asm volatile("std" ::: "cc");
	if(n >= 8){
		k = ((size_t)d + 1) & 3;
		n -= k;
		asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		d -= 3;
		s -= 3;
		if(n >= Big){
			k = (((size_t)d + 4) & 15) >> 2;
			n -= 4*k;
			asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
			k = n & ~(size_t)127;
			d -= k;
			s -= k;
			ssecopy(d + 4, s + 4, k, 0);
			n -= k;
		}
		k = n >> 2;
		n &= 3;
		asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		d += 3;
		s += 3;
	}
	asm volatile("rep movsb; cld" : "+D"(d), "+S"(s), "+c"(n) : : "memory", "cc");
	return dst;
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
