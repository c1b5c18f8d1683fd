/* Memory allocation, exit, number conversion and sorting. */
#ifndef STDLIB_H
#define STDLIB_H
#include <stddef.h>

#define EXIT_SUCCESS	0
#define EXIT_FAILURE	1
#define RAND_MAX	0x7fffffff

void	*malloc(size_t);
void	free(void*);
void	*realloc(void*, size_t);
void	*calloc(size_t, size_t);
void	exit(int) __attribute__((noreturn));
int	atexit(void (*)(void));
int	atoi(const char*);
long	strtol(const char*, char**, int);
unsigned long	strtoul(const char*, char**, int);
long	parsenum(const char*);	/* a decimal number >= 0, or -1 */
long	parsems(const char*);	/* seconds, to a thousandth, as milliseconds, or -1 */
int	rand(void);
void	srand(unsigned int);
void	qsort(void*, size_t, size_t, int (*)(const void*, const void*));

#endif
