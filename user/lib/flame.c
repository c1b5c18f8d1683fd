/*
 * kprof -g: draw the folded kernel stacks of user/lib/kpstack.c as a
 * flame graph, an SVG picture that a browser shows by itself: no
 * script, no font or style sheet to fetch.
 *
 * Each function of a stack is a box as wide as its ticks, standing on
 * the box of its caller; the roots stand on one box, "all", at the
 * bottom.  Boxes side by side are in the order of their names, so a
 * box's width, not its place, says how much time went there.  Pointing
 * at a box shows its function, its ticks and its share of all the ticks
 * (the <title> of the box's <g>, which every browser shows on hover).
 *
 * The arithmetic is in integers, as the guest has no floating point:
 * places are in hundredths of a pixel.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "kpstack.h"

enum {
	WIDTH		= 1200,	/* pixels across the picture */
	PAD		= 10,	/* pixels of margin */
	INNER		= WIDTH - 2*PAD,	/* pixels across "all" */
	TOP		= 50,	/* pixels above the highest box, for the title */
	BOX		= 16,	/* pixels from one frame's box to its caller's */
	CHARW		= 720,	/* hundredths of a pixel a letter takes: 0.6em of 12px monospace */
	MINW		= 10,	/* hundredths: a narrower box is left out, with what stands on it */
};

typedef struct Open Open;

/* A box being measured: a frame of the paths that share it so far. */
struct Open {
	uint32_t	name;		/* number in Stacks.name */
	uint64_t	start;		/* ticks to the left of it */
	uint64_t	ticks;		/* its width */
};

/* Print at most n bytes of s as XML text: markup escaped, anything but printable ASCII a `?'. */
static void
putxml(const char *s, size_t n)
{
	size_t m;

	while(n > 0 && *s != '\0'){
		for(m = 0; m < n && s[m] >= ' ' && s[m] < 0x7f && strchr("&<>\"", s[m]) == NULL; m++)
			;
		fwrite(s, 1, m, stdout);
		s += m;
		n -= m;
		if(n == 0 || *s == '\0')
			break;
		switch(*s){
		case '&':
			fputs("&amp;", stdout);
			break;
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		default:
			putchar('?');
		}
		s++;
		n--;
	}
}

/* Hundredths as a decimal number. */
static void
puthund(uint64_t v)
{
	printf("%llu.%02llu", (unsigned long long)(v / 100), (unsigned long long)(v % 100));
}

/* A colour for a name, the same every time: reds, oranges and yellows, as of flames. */
static void
putcolour(const char *s)
{
	uint32_t h = strhash(s);

	printf("rgb(%u,%u,%u)", 205 + h % 51, (h >> 8) % 231, (h >> 20) % 56);
}

/*
 * Draw the box of a frame at depth (0 for "all") that has ticks, start
 * ticks from the left, and its name in it if the name fits, or enough
 * of it to read: three letters and "..".
 */
static void
box(Stacks *s, const char *name, int depth, uint64_t start, uint64_t ticks)
{
	uint64_t x, w, tenths, nchar;
	size_t len;

	x = muldiv(start, INNER*100, s->total);
	w = muldiv(start + ticks, INNER*100, s->total) - x;
	if(w < MINW)
		return;
	x += PAD*100;
	tenths = (muldiv(ticks, 2000, s->total) + 1) / 2;
	printf("<g><title>");
	putxml(name, (size_t)-1);
	printf(": %llu ticks, %llu.%llu%%</title><rect x=\"", (unsigned long long)ticks,
		(unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
	puthund(x);
	printf("\" y=\"%d\" width=\"", TOP + (s->depth - depth)*BOX);
	puthund(w);
	printf("\" height=\"%d\" fill=\"", BOX - 1);
	putcolour(name);
	printf("\"/>");
	nchar = w > 600 ? (w - 600) / CHARW : 0;
	len = strlen(name);
	if(len <= nchar || nchar >= 5){
		printf("<text x=\"");
		puthund(x + 300);
		printf("\" y=\"%d\">", TOP + (s->depth - depth)*BOX + 11);
		if(len <= nchar)
			putxml(name, len);
		else{
			putxml(name, nchar - 2);
			printf("..");
		}
		printf("</text>");
	}
	printf("</g>\n");
}

/*
 * Print the flame graph of s, which has ticks.  The paths come in
 * order, so those that share a frame are together: a walk along them
 * keeps the frames of the last path open, and draws each box when
 * the paths that share it end.
 */
void
flamegraph(Stacks *s)
{
	Open open[KPMAXFRAMES];
	Path *p;
	uint64_t x;
	int i, d, n, height;

	height = TOP + (s->depth + 1)*BOX + PAD;
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
	printf("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", WIDTH, height, WIDTH, height);
	printf("<style>\n"
		"text { font-family: monospace; font-size: 12px; fill: black; }\n"
		"text.title { font-family: sans-serif; font-size: 17px; text-anchor: middle; }\n"
		"text.note { font-family: sans-serif; text-anchor: middle; fill: #555; }\n"
		"g:hover rect { stroke: black; stroke-width: 1; }\n"
		"</style>\n");
	printf("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(250,245,235)\"/>\n",
		WIDTH, height);
	printf("<text class=\"title\" x=\"%d\" y=\"22\">Kernel call stacks: %llu ticks</text>\n",
		WIDTH/2, (unsigned long long)s->total);
	printf("<text class=\"note\" x=\"%d\" y=\"40\">A box is a function, as wide as its ticks, "
		"above its caller; point at one for its ticks and share</text>\n", WIDTH/2);
	n = 0;
	x = 0;
	for(i = 0; i < s->npath; i++){
		p = &s->path[i];
		for(d = 0; d < n && d < p->n && open[d].name == p->f[d]; d++)
			;
		while(n > d){
			n--;
			box(s, s->name[open[n].name], n + 1, open[n].start, open[n].ticks);
		}
		for(; n < p->n; n++){
			open[n].name = p->f[n];
			open[n].start = x;
			open[n].ticks = 0;
		}
		for(d = 0; d < n; d++)
			open[d].ticks += p->count;
		x += p->count;
	}
	while(n > 0){
		n--;
		box(s, s->name[open[n].name], n + 1, open[n].start, open[n].ticks);
	}
	box(s, "all", 0, 0, s->total);
	printf("</svg>\n");
}
