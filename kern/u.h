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

/*
 * A function with no entry nop, which kern/arcs.c's recorder never
 * sees called: the recorder itself, what runs while text is patched,
 * and the NMI's and the clock's paths, which must cost no more for it.
 */
#define NOPROF	__attribute__((no_instrument_function))
/* The NMI's path takes its first three arguments in eax, edx and ecx, not on the stack. */
#define REGPARM	__attribute__((regparm(3)))
