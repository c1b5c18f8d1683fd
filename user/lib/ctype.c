/* Character classes, for ASCII only. */
#include "ctype.h"

int
isdigit(int c)
{
	return c >= '0' && c <= '9';
}

int
isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int
isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

int
islower(int c)
{
	return c >= 'a' && c <= 'z';
}

int
isalpha(int c)
{
	return isupper(c) || islower(c);
}

int
isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}

int
isprint(int c)
{
	return c >= ' ' && c < 0x7f;
}

int
isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int
toupper(int c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}

int
tolower(int c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}
