/*
 * String and memory functions (user/lib/string.c) and strerror
 * (user/lib/strerror.c), for the C library and the kernel alike.
 */
#ifndef STRING_H
#define STRING_H
#include <stddef.h>

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
char	*strerror(int);

#endif
