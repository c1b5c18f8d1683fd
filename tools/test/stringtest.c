/*
 * Host unit test of memset, memmove and memcpy from kern/string.c
 * (included, its names prefixed, beside the host's own): every
 * length to 80 and a few around a page, every alignment of source and
 * destination, and overlaps both ways, against a byte-at-a-time model;
 * the bytes around the destination must stay as they were, and the
 * direction flag must be clear afterwards.  Prints "ok" or the first
 * difference; exits non-zero on one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define memset	t_memset
#define memmove	t_memmove
#define memcpy	t_memcpy
#define memcmp	t_memcmp
#define strlen	t_strlen
#define strcmp	t_strcmp
#define strncmp	t_strncmp
#define strcpy	t_strcpy
#define strlcpy	t_strlcpy
#define strchr	t_strchr
#define strrchr	t_strrchr
#define strstr	t_strstr
#define strerror	t_strerror
#define vsnprintf	t_vsnprintf
#define snprintf	t_snprintf
#include "../../kern/string.c"
#undef snprintf

enum { Max = 4096 + 16, Room = 3*Max };

static unsigned char buf[Room], model[Room];
static int bad;

static void
fill(void)
{
	size_t i;

	for(i = 0; i < Room; i++)
		buf[i] = model[i] = (unsigned char)(i * 7 + 3);
}

static int
dfclear(void)
{
	unsigned long f;

	asm volatile("pushf; pop %0" : "=r"(f));
	return (f & 0x400) == 0;
}

static void
compare(const char *what, size_t d, size_t s, size_t n)
{
	size_t i;

	if(!dfclear()){
		printf("FAIL %s dst %zu src %zu len %zu: direction flag left set\n", what, d, s, n);
		bad = 1;
		return;
	}
	for(i = 0; i < Room; i++)
		if(buf[i] != model[i]){
			printf("FAIL %s dst %zu src %zu len %zu: byte %zu is %d, want %d\n",
				what, d, s, n, i, buf[i], model[i]);
			bad = 1;
			return;
		}
}

static void
one(size_t d, size_t s, size_t n)
{
	size_t i;
	void *r;

	fill();
	r = t_memset(buf + d, 0xA5, n);
	for(i = 0; i < n; i++)
		model[d + i] = 0xA5;
	compare("memset", d, s, n);
	if(r != buf + d){
		printf("FAIL memset returns %p, want %p\n", r, (void*)(buf + d));
		bad = 1;
	}

	fill();
	r = t_memmove(buf + d, buf + s, n);
	if(d < s)
		for(i = 0; i < n; i++)
			model[d + i] = model[s + i];
	else
		for(i = n; i-- > 0; )
			model[d + i] = model[s + i];
	compare("memmove", d, s, n);
	if(r != buf + d){
		printf("FAIL memmove returns %p, want %p\n", r, (void*)(buf + d));
		bad = 1;
	}

	if(d + n <= s || s + n <= d){
		fill();
		t_memcpy(buf + d, buf + s, n);
		for(i = 0; i < n; i++)
			model[d + i] = model[s + i];
		compare("memcpy", d, s, n);
	}
}

int
main(void)
{
	static size_t lens[] = { 4093, 4094, 4095, 4096, 4097, 4100 };
	size_t n, a, b, i;

	for(n = 0; n <= 80 && !bad; n++)
		for(a = 0; a < 8; a++)
			for(b = 0; b < 8; b++){
				one(Max + a, Max + b, n);		/* overlapping, both ways */
				one(Max + a, Max + b + n/2, n);
				one(Max + a + n/2, Max + b, n);
				one(a + 8, 2*Max + b, n);		/* apart */
			}
	for(i = 0; i < sizeof lens / sizeof lens[0] && !bad; i++)
		for(a = 0; a < 4; a++)
			for(b = 0; b < 4; b++){
				one(a + 8, Max + b + 8, lens[i]);
				one(Max + b + 8, a + 8, lens[i]);
				one(a + 8, b + 1008, lens[i]);
				one(b + 1008, a + 8, lens[i]);
			}
	if(bad)
		return 1;
	printf("ok\n");
	return 0;
}
