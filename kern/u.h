/* Basic types for the kernel. */
typedef unsigned char		uchar;
typedef unsigned short		ushort;
typedef unsigned int		uint;
typedef unsigned long		ulong;
typedef unsigned long long	uvlong;
typedef long long		vlong;
typedef unsigned int		uintptr;
typedef uint			pte_t;

#define nil	((void*)0)
#define nelem(a)	(sizeof(a)/sizeof((a)[0]))
#define ROUNDUP(x, n)	(((x) + (n) - 1) & ~((n) - 1))
#define ROUNDDOWN(x, n)	((x) & ~((n) - 1))
#define USED(x)	((void)(x))
