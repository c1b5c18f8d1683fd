/*
 * Host unit test of the kernel's and the C library's formatter,
 * kern/fmt.c: the cases of one group (ints, alt, strings, trunc) are
 * formatted by it and by the host's snprintf, which must agree; a
 * line for each that does not, and exit status 1.
 */
#include <stdio.h>
#include <string.h>

/* kern/fmt.c itself, under other names, beside the host's printf. */
#define vsnprintf	kvsnprintf
#define snprintf	ksnprintf
#include "../../kern/fmt.c"
#undef vsnprintf
#undef snprintf

static int	failed;

static void
same(const char *what, const char *got, int ngot, const char *want, int nwant)
{
	if(strcmp(got, want) != 0 || ngot != nwant){
		printf("%s: got \"%s\" (%d), want \"%s\" (%d)\n", what, got, ngot, want, nwant);
		failed = 1;
	}
}

/* Each integer format with each value; then as long long. */
static void
ints(void)
{
	static const char *fmts[] = {
		"%d", "%5d", "%-5d|", "%05d", "%.3d", "%8.3d", "%-8.3d|", "%.0d",
		"%u", "%x", "%X", "%o", "%08x", "%-8x|", "%*d", "%-*d|", "%.*d",
	};
	static const char *llfmts[] = { "%lld", "%20lld", "%-20lld|", "%llu", "%llx", "%016llx" };
	static const int vals[] = { 0, 1, -1, 31, -31, 123456, 0x7fffffff, -0x7fffffff-1 };
	char got[64], want[64], what[64];
	int ngot, nwant;
	long long v;
	size_t i, j;

	for(i = 0; i < sizeof fmts/sizeof fmts[0]; i++)
		for(j = 0; j < sizeof vals/sizeof vals[0]; j++){
			snprintf(what, sizeof what, "%s of %d", fmts[i], vals[j]);
			if(strchr(fmts[i], '*') != NULL){
				ngot = ksnprintf(got, sizeof got, fmts[i], 6, vals[j]);
				nwant = snprintf(want, sizeof want, fmts[i], 6, vals[j]);
			}else{
				ngot = ksnprintf(got, sizeof got, fmts[i], vals[j]);
				nwant = snprintf(want, sizeof want, fmts[i], vals[j]);
			}
			same(what, got, ngot, want, nwant);
		}
	for(i = 0; i < sizeof llfmts/sizeof llfmts[0]; i++)
		for(j = 0; j < sizeof vals/sizeof vals[0]; j++){
			v = vals[j] * 1000003LL;
			snprintf(what, sizeof what, "%s of %lld", llfmts[i], v);
			ngot = ksnprintf(got, sizeof got, llfmts[i], v);
			nwant = snprintf(want, sizeof want, llfmts[i], v);
			same(what, got, ngot, want, nwant);
		}
}

/* '#': the 0x or 0 goes inside the field width, before any zero padding. */
static void
alt(void)
{
	static const char *fmts[] = {
		"%#x", "%#X", "%#o", "%#8x", "%#-8x|", "%#08x", "%#10.4x", "%#3x", "%#8o", "%#08o",
	};
	static const unsigned vals[] = { 0, 1, 0x1f, 0xdeadbeef };
	char got[64], want[64], what[64];
	size_t i, j;
	int ngot, nwant;

	for(i = 0; i < sizeof fmts/sizeof fmts[0]; i++)
		for(j = 0; j < sizeof vals/sizeof vals[0]; j++){
			snprintf(what, sizeof what, "%s of %#x", fmts[i], vals[j]);
			ngot = ksnprintf(got, sizeof got, fmts[i], vals[j]);
			nwant = snprintf(want, sizeof want, fmts[i], vals[j]);
			same(what, got, ngot, want, nwant);
		}
	ngot = ksnprintf(got, sizeof got, "%#8x", 0x1f);
	same("%#8x of 0x1f", got, ngot, "    0x1f", 8);
	ngot = ksnprintf(got, sizeof got, "%p", (void*)0x1f);
	same("%p of 0x1f", got, ngot, "0x0000001f", 10);
}

static void
strings(void)
{
	static const char *fmts[] = { "%s", "%10s", "%-10s|", "%.2s", "%10.2s", "%c", "%5c", "%-5c|", "%%" };
	char got[64], want[64], what[64];
	size_t i;
	int ngot, nwant;

	for(i = 0; i < sizeof fmts/sizeof fmts[0]; i++){
		snprintf(what, sizeof what, "%s", fmts[i]);
		if(strchr(fmts[i], 'c') != NULL){
			ngot = ksnprintf(got, sizeof got, fmts[i], 'q');
			nwant = snprintf(want, sizeof want, fmts[i], 'q');
		}else{
			ngot = ksnprintf(got, sizeof got, fmts[i], "hello");
			nwant = snprintf(want, sizeof want, fmts[i], "hello");
		}
		same(what, got, ngot, want, nwant);
	}
}

/* Cutting the text short is what this tests. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* A short buffer: the text cut, NUL-terminated, and the full length returned. */
static void
cut(void)
{
	char got[64], want[64], what[64];
	size_t n;
	int ngot, nwant;

	for(n = 0; n < 12; n++){
		memset(got, 'Z', sizeof got);
		memset(want, 'Z', sizeof want);
		snprintf(what, sizeof what, "size %zu", n);
		ngot = ksnprintf(got, n, "%s=%#x", "value", 0xbeef);
		nwant = snprintf(want, n, "%s=%#x", "value", 0xbeef);
		got[sizeof got - 1] = want[sizeof want - 1] = '\0';
		same(what, got, ngot, want, nwant);
	}
}

int
main(int argc, char *argv[])
{
	if(argc != 2){
		fprintf(stderr, "usage: fmttest ints|alt|strings|trunc\n");
		return 2;
	}
	if(strcmp(argv[1], "ints") == 0)
		ints();
	else if(strcmp(argv[1], "alt") == 0)
		alt();
	else if(strcmp(argv[1], "strings") == 0)
		strings();
	else if(strcmp(argv[1], "trunc") == 0)
		cut();
	else{
		fprintf(stderr, "fmttest: unknown group %s\n", argv[1]);
		return 2;
	}
	return failed;
}
