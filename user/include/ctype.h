/* Character classes, for ASCII. */
#ifndef CTYPE_H
#define CTYPE_H

int	isdigit(int);
int	isspace(int);
int	isalpha(int);
int	isalnum(int);
int	isprint(int);
int	isxdigit(int);
int	isupper(int);
int	islower(int);
int	toupper(int);
int	tolower(int);

#endif
