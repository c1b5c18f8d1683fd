/*
 * vsnprintf: the one formatter, used by the kernel's print and by the
 * C library's printf family.  It knows %d %i %u %x %X %o %p %s %c %%,
 * the flags '-', '0' and '#', a width and precision (or '*'), and the
 * length modifiers l, ll, z and h.
 */
#include "lib.h"

struct out {
	char	*buf;	/* where the text goes */
	size_t	size;	/* room in buf, with the NUL */
	size_t	n;	/* characters produced so far */
};

static void
put(struct out *o, char c)
{
	if(o->n + 1 < o->size)
		o->buf[o->n] = c;
	o->n++;
}

static void
pad(struct out *o, char c, int n)
{
	while(n-- > 0)
		put(o, c);
}

/*
 * Put one number: its prefix (a sign, or the 0x of '#'), zero
 * padding and digits, padded to the field width as a whole, as C's
 * printf does: %#8x of 0x1f is "    0x1f", %#08x "0x00001f".
 */
static void
number(struct out *o, unsigned long long v, const char *prefix, int base, int upper,
	int width, int prec, int left, int zero)
{
	char tmp[24];
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int len = 0, fill, plen;

	do{
		tmp[len++] = digits[v % base];
		v /= base;
	}while(v != 0);
	if(prec == 0 && len == 1 && tmp[0] == '0')
		len = 0;
	fill = prec > len ? prec - len : 0;
	for(plen = 0; prefix[plen] != '\0'; plen++)
		;
	width -= len + fill + plen;
	if(zero && !left && prec < 0){
		fill += width > 0 ? width : 0;
		width = 0;
	}
	if(!left)
		pad(o, ' ', width);
	while(*prefix != '\0')
		put(o, *prefix++);
	pad(o, '0', fill);
	while(len > 0)
		put(o, tmp[--len]);
	if(left)
		pad(o, ' ', width);
}

int
vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	int width, prec, left, zero, alt, lng;
	unsigned long long v;
	long long sv;
	const char *s, *pre;
	int len, i;

	for(; *fmt; fmt++){
		if(*fmt != '%'){
			put(&o, *fmt);
			continue;
		}
		fmt++;
		left = zero = alt = 0;
		for(;; fmt++){
			if(*fmt == '-')
				left = 1;
			else if(*fmt == '#')
				alt = 1;
			else if(*fmt == '0')
				zero = 1;
			else
				break;
		}
		width = 0;
		if(*fmt == '*'){
			width = va_arg(ap, int);
			if(width < 0){
				left = 1;
				width = -width;
			}
			fmt++;
		}
		while(*fmt >= '0' && *fmt <= '9')
			width = width*10 + *fmt++ - '0';
		prec = -1;
		if(*fmt == '.'){
			fmt++;
			prec = 0;
			if(*fmt == '*'){
				prec = va_arg(ap, int);
				fmt++;
			}
			while(*fmt >= '0' && *fmt <= '9')
				prec = prec*10 + *fmt++ - '0';
		}
		lng = 0;
		while(*fmt == 'l' || *fmt == 'z' || *fmt == 'h'){
			if(*fmt == 'l')
				lng++;
			fmt++;
		}
		switch(*fmt){
		case 'd':
		case 'i':
			sv = lng >= 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);
			v = sv < 0 ? -(unsigned long long)sv : (unsigned long long)sv;
			number(&o, v, sv < 0 ? "-" : "", 10, 0, width, prec, left, zero);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			v = lng >= 2 ? va_arg(ap, unsigned long long) : lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			pre = "";
			if(alt && *fmt != 'u' && v != 0)
				pre = *fmt == 'o' ? "0" : *fmt == 'x' ? "0x" : "0X";
			number(&o, v, pre, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
				*fmt == 'X', width, prec, left, zero);
			break;
		case 'p':
			number(&o, (unsigned long)va_arg(ap, void*), "0x", 16, 0, 10, -1, 0, 1);
			break;
		case 'c':
			if(!left)
				pad(&o, ' ', width - 1);
			put(&o, (char)va_arg(ap, int));
			if(left)
				pad(&o, ' ', width - 1);
			break;
		case 's':
			s = va_arg(ap, const char*);
			if(s == NULL)
				s = "<nil>";
			for(len = 0; s[len] && (prec < 0 || len < prec); len++)
				;
			if(!left)
				pad(&o, ' ', width - len);
			for(i = 0; i < len; i++)
				put(&o, s[i]);
			if(left)
				pad(&o, ' ', width - len);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
			break;
		}
	}
	if(size > 0)
		buf[o.n < size ? o.n : size - 1] = '\0';
	return o.n;
}

int
snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
