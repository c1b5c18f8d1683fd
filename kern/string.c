/*
 * String and memory functions: the kernel's, and the C library's too,
 * which links this same object (kern/lib.h).
 */
#include "lib.h"

/*
 * memset and memmove move a word per step of a string instruction (rep
 * stosl, rep movsl) once the destination is word-aligned; the odd bytes
 * at either end go one at a time (rep stosb, rep movsb).  The kernel's
 * trap entry clears the direction flag, as the ABI wants, so a forward
 * copy need not.
 */
void*
memset(void *dst, int c, size_t n)
{
	unsigned int w = (unsigned char)c * 0x01010101U;
	void *d = dst;
	size_t k;

	if(n >= 8){
		k = -(size_t)d & 3;
		n -= k;
		asm volatile("rep stosb" : "+D"(d), "+c"(k) : "a"(w) : "memory");
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
 * ending at a word boundary of the destination.
 */
void*
memmove(void *dst, const void *src, size_t n)
{
	void *d = dst;
	const void *s = src;
	size_t k;

	if((size_t)((char*)d - (char*)s) >= n){
		if(n >= 8){
			k = -(size_t)d & 3;
			n -= k;
			asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
			k = n >> 2;
			n &= 3;
			asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		}
		asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
		return dst;
	}
	d = (char*)d + n - 1;
	s = (const char*)s + n - 1;
	asm volatile("std" ::: "cc");
	if(n >= 8){
		k = ((size_t)d + 1) & 3;
		n -= k;
		asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		d = (char*)d - 3;
		s = (const char*)s - 3;
		k = n >> 2;
		n &= 3;
		asm volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(k) : : "memory");
		d = (char*)d + 3;
		s = (const char*)s + 3;
	}
	asm volatile("rep movsb; cld" : "+D"(d), "+S"(s), "+c"(n) : : "memory", "cc");
	return dst;
}

void*
memcpy(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

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
