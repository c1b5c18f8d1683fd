/*
 * Host unit test of memset, memmove, memcpy and memcmp from kern/string.c
 * (included, its names prefixed, beside the host's own): every
 * length to 80 and a few around a page, every alignment of source and
 * destination, and overlaps both ways, against a byte-at-a-time model;
 * the bytes around the destination must stay as they were, and the
 * direction flag must be clear afterwards.  From 256 bytes on they go
 * through the SSE registers: every alignment mod 16 at lengths around
 * the 128-byte blocks, and overlaps closer and farther than a block,
 * and the SSE registers and MXCSR must be as they were after each call
 * (the kernel's copies run with the user's registers in them).  memcmp,
 * which skips equal words, at every length to 80 and alignment of both
 * sides, with the first difference at every place (or none), each way
 * round, must have the sign of a byte-at-a-time comparison.  Prints
 * "ok" or the first difference; exits non-zero on one.
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
/* The host's own, fast, to set up and to look over the buffers. */
#undef memcpy
#undef memcmp

enum { Max = 4096 + 16, Room = 3*Max };

static unsigned char buf[Room], model[Room], pattern[Room];
static int bad;

static void
fill(void)
{
	memcpy(buf, pattern, Room);
	memcpy(model, pattern, Room);
}

static int
dfclear(void)
{
	unsigned long f;

	asm volatile("pushf; pop %0" : "=r"(f));
	return (f & 0x400) == 0;
}

/*
 * fxsave images: regs is loaded before each call with values in xmm0-7
 * and a rounding mode in MXCSR; after is what they are after the call.
 */
static unsigned char regs[512] __attribute__((aligned(16)));
static unsigned char after[512] __attribute__((aligned(16)));

enum { Mxcsr = 24, Xmm0 = 160, Xmm8 = 288 };	/* offsets in an fxsave image */

/* ASan's code around a function may use the SSE registers itself. */
#ifdef __SANITIZE_ADDRESS__
enum { sanitized = 1 };
#else
enum { sanitized = 0 };
#endif

static void
setregs(void)
{
	size_t i;

	asm volatile("fxsave %0" : "=m"(regs));
	regs[Mxcsr + 1] |= 0x60;	/* round toward zero */
	for(i = Xmm0; i < Xmm8; i++)
		regs[i] = (unsigned char)(i * 13 + 1);
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
	if(!sanitized && (memcmp(regs + Mxcsr, after + Mxcsr, 4) != 0 || memcmp(regs + Xmm0, after + Xmm0, Xmm8 - Xmm0) != 0)){
		printf("FAIL %s dst %zu src %zu len %zu: SSE registers or MXCSR changed\n", what, d, s, n);
		bad = 1;
		return;
	}
	if(memcmp(buf, model, Room) == 0)
		return;
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
	asm volatile("fxrstor %0" : : "m"(regs));
	r = t_memset(buf + d, 0xA5, n);
	asm volatile("fxsave %0" : "=m"(after));
	for(i = 0; i < n; i++)
		model[d + i] = 0xA5;
	compare("memset", d, s, n);
	if(r != buf + d){
		printf("FAIL memset returns %p, want %p\n", r, (void*)(buf + d));
		bad = 1;
	}

	fill();
	asm volatile("fxrstor %0" : : "m"(regs));
	r = t_memmove(buf + d, buf + s, n);
	asm volatile("fxsave %0" : "=m"(after));
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
		asm volatile("fxrstor %0" : : "m"(regs));
		t_memcpy(buf + d, buf + s, n);
		asm volatile("fxsave %0" : "=m"(after));
		for(i = 0; i < n; i++)
			model[d + i] = model[s + i];
		compare("memcpy", d, s, n);
	}
}

/* The sign of a comparison, -1, 0 or 1. */
static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

/*
 * memcmp of n bytes at buf+a and buf+Max+b, equal but for the byte at
 * (none if at is n), which is lo on the first side and hi on the other.
 */
static void
cmpone(size_t a, size_t b, size_t n, size_t at, unsigned char lo, unsigned char hi)
{
	unsigned char *p = buf + a, *q = buf + Max + b;
	int want = 0, got;

	memcpy(p, pattern, n);
	memcpy(q, pattern, n);
	if(at < n){
		p[at] = lo;
		q[at] = hi;
		want = sign(lo - hi);
	}
	got = sign(t_memcmp(p, q, n));
	if(got != want){
		printf("FAIL memcmp a %zu b %zu len %zu: difference at %zu (%d, %d): sign %d, want %d\n",
			a, b, n, at, lo, hi, got, want);
		bad = 1;
	}
}

int
main(void)
{
	static size_t lens[] = { 4093, 4094, 4095, 4096, 4097, 4100 };
	static size_t big[] = { 255, 256, 257, 271, 383, 384, 385, 400, 512, 1000, 4096, 4111 };
	static size_t dist[] = { 1, 3, 4, 15, 16, 17, 64, 127, 128, 129, 200, 300 };
	size_t n, a, b, i, j;

	for(i = 0; i < Room; i++)
		pattern[i] = (unsigned char)(i * 7 + 3);
	setregs();

	for(n = 0; n <= 80 && !bad; n++)
		for(a = 0; a < 8; a++)
			for(b = 0; b < 8; b++)
				for(j = 0; j <= n; j++){
					cmpone(a, b, n, j, 0x01, 0xFF);
					cmpone(a, b, n, j, 0xFF, 0x01);
				}

	for(n = 0; n <= 80 && !bad; n++)
		for(a = 0; a < 8 && !bad; a++)
			for(b = 0; b < 8 && !bad; b++){
				one(Max + a, Max + b, n);		/* overlapping, both ways */
				one(Max + a, Max + b + n/2, n);
				one(Max + a + n/2, Max + b, n);
				one(a + 8, 2*Max + b, n);		/* apart */
			}
	for(i = 0; i < sizeof lens / sizeof lens[0] && !bad; i++)
		for(a = 0; a < 4 && !bad; a++)
			for(b = 0; b < 4 && !bad; b++){
				one(a + 8, Max + b + 8, lens[i]);
				one(Max + b + 8, a + 8, lens[i]);
				one(a + 8, b + 1008, lens[i]);
				one(b + 1008, a + 8, lens[i]);
			}
	for(i = 0; i < sizeof big / sizeof big[0] && !bad; i++)
		for(a = 0; a < 16 && !bad; a++){
			one(a + 8, Max + 400 + 3*a % 16, big[i]);	/* apart */
			for(j = 0; j < sizeof dist / sizeof dist[0]; j++){
				one(Max + a, Max + a + dist[j], big[i]);	/* overlapping, both ways */
				one(Max + a + dist[j], Max + a, big[i]);
			}
		}
	if(bad)
		return 1;
	printf("ok\n");
	return 0;
}
