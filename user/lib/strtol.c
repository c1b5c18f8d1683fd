/* Number conversion: strtoul, strtol, atoi, and parsenum and parsems for arguments. */
#include "stdlib.h"
#include "ctype.h"
#include "errno.h"
#include "string.h"

#define ULONGMAX	0xffffffffUL
#define LONGMAX		0x7fffffffL

/* The value of digit c, or 99 if c is no digit. */
static int
digit(int c)
{
	if(isdigit(c))
		return c - '0';
	if(isalpha(c))
		return tolower(c) - 'a' + 10;
	return 99;
}

/*
 * Read an optionally signed number in base 2..36, or in base 0:
 * decimal, octal after a 0 or hexadecimal after 0x.  *neg tells
 * whether it had a minus sign; *end is set past the last digit
 * (to s if there was none).  On overflow *over is set, the result
 * is ULONGMAX and errno is ERANGE.
 */
static unsigned long
convert(const char *s, char **end, int base, int *neg, int *over)
{
	const char *p = s, *start;
	unsigned long v = 0;
	int d;

	while(isspace(*p))
		p++;
	*neg = *p == '-';
	if(*p == '-' || *p == '+')
		p++;
	if((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit(p[2]) < 16){
		p += 2;
		base = 16;
	}else if(base == 0)
		base = *p == '0' ? 8 : 10;
	start = p;
	*over = 0;
	for(; (d = digit(*p)) < base; p++){
		if(v > (ULONGMAX - d) / base)
			*over = 1;
		v = v*base + d;
	}
	if(end != NULL)
		*end = (char*)(p == start ? s : p);
	if(*over){
		errno = ERANGE;
		return ULONGMAX;
	}
	return v;
}

unsigned long
strtoul(const char *s, char **end, int base)
{
	unsigned long v;
	int neg, over;

	v = convert(s, end, base, &neg, &over);
	return neg && !over ? -v : v;
}

long
strtol(const char *s, char **end, int base)
{
	unsigned long v;
	int neg, over;

	v = convert(s, end, base, &neg, &over);
	if(!neg && v > LONGMAX){
		errno = ERANGE;
		return LONGMAX;
	}
	if(neg && v > LONGMAX + 1UL){
		errno = ERANGE;
		return -LONGMAX - 1;
	}
	return neg ? -(long)(v - 1) - 1 : (long)v;
}

int
atoi(const char *s)
{
	return strtol(s, NULL, 10);
}

/*
 * The value of s if it is a decimal number, digits only with nothing
 * after them, that fits in a long; else -1.  For a program's numeric
 * arguments, where strtol alone would take "foo" as 0, "10x" as 10 and
 * "-1" as a negative count.
 */
long
parsenum(const char *s)
{
	char *end;
	long v;

	if(!isdigit(*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if(*end != '\0' || errno == ERANGE)
		return -1;
	return v;
}

/*
 * Seconds, s a decimal number as parsenum takes with up to three
 * decimals after a point (0.25, 2, 1.5), in milliseconds; -1 if s is
 * not that or is over a million seconds.
 */
long
parsems(const char *s)
{
	char whole[16];
	long ms, scale;
	size_t n;

	for(n = 0; s[n] != '\0' && s[n] != '.'; n++)
		;
	if(n >= sizeof whole)
		return -1;
	memcpy(whole, s, n);
	whole[n] = '\0';
	if((ms = parsenum(whole)) < 0 || ms > 1000000)
		return -1;
	ms *= 1000;
	if(s[n] == '\0')
		return ms;
	if(s[n + 1] == '\0')
		return -1;
	for(s += n + 1, scale = 100; *s != '\0'; s++, scale /= 10){
		if(!isdigit(*s) || scale == 0)
			return -1;
		ms += (*s - '0') * scale;
	}
	return ms;
}
