/*
 * The string, memory and formatting functions the kernel shares with
 * the C library: one source each (kern/string.c, kern/fmt.c,
 * kern/strerror.c), one object each, linked into the kernel and into
 * libc.a.  The C library's string.h and stdio.h include this file.
 */
#ifndef LIB_H
#define LIB_H
#include <stdarg.h>
#include <stddef.h>

/* string.c */
void	*memset(void*, int, size_t);
void	*memmove(void*, const void*, size_t);
void	*memcpy(void*, const void*, size_t);
int	memcmp(const void*, const void*, size_t);
void	*memchr(const void*, int, size_t);
size_t	strlen(const char*);
int	strcmp(const char*, const char*);
int	strncmp(const char*, const char*, size_t);
char	*strcpy(char*, const char*);
size_t	strlcpy(char*, const char*, size_t);
char	*strchr(const char*, int);
char	*strrchr(const char*, int);
char	*strstr(const char*, const char*);

/* strerror.c */
char	*strerror(int);

/* fmt.c */
int	vsnprintf(char*, size_t, const char*, va_list);
int	snprintf(char*, size_t, const char*, ...);

#endif
