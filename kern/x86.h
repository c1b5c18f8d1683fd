/* The x86 instructions C cannot say, as inline functions. */
#ifndef X86_H
#define X86_H

static inline uchar
inb(ushort port)
{
	uchar v;

	asm volatile("inb %1, %0" : "=a"(v) : "d"(port));
	return v;
}

static inline void
outb(ushort port, uchar v)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void
outw(ushort port, ushort v)
{
	asm volatile("outw %0, %1" : : "a"(v), "d"(port));
}

static inline void
outl(ushort port, uint v)
{
	asm volatile("outl %0, %1" : : "a"(v), "d"(port));
}

static inline uint
readeflags(void)
{
	uint f;

	asm volatile("pushfl; popl %0" : "=r"(f));
	return f;
}

static inline void
cli(void)
{
	asm volatile("cli" ::: "memory");
}

static inline void
sti(void)
{
	asm volatile("sti" ::: "memory");
}

static inline uint
rcr2(void)
{
	uint v;

	asm volatile("movl %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint
rcr3(void)
{
	uint v;

	asm volatile("movl %%cr3, %0" : "=r"(v));
	return v;
}

static inline void
lcr3(uint pa)
{
	asm volatile("movl %0, %%cr3" : : "r"(pa) : "memory");
}

/*
 * Count one more, sticking at the largest value rather than wrapping:
 * the carry out of the add is subtracted straight back.
 */
static inline void
satinc(uint *c)
{
	asm("addl $1, %0; sbbl $0, %0" : "+m"(*c) : : "cc");
}

/* Add v to *p atomically; the old value. */
static inline uint
xadd(volatile uint *p, uint v)
{
	asm volatile("lock; xaddl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
	return v;
}

/* Swap v into *p atomically (xchg locks the bus); the old value. */
static inline uint
xchg(volatile uint *p, uint v)
{
	asm volatile("xchgl %0, %1" : "+m"(*p), "+r"(v) : : "memory");
	return v;
}

/* In every spin loop: a hint to the processor, and QEMU's cue to run another. */
static inline void
pause(void)
{
	asm volatile("pause" ::: "memory");
}

/* The time-stamp counter. */
static inline uvlong
rdtsc(void)
{
	uvlong t;

	asm volatile("rdtsc" : "=A"(t));
	return t;
}

#define FL_IF	0x200	/* interrupts enabled */

static inline uint
rcr0(void)
{
	uint v;

	asm volatile("movl %%cr0, %0" : "=r"(v));
	return v;
}

static inline void
lcr0(uint v)
{
	asm volatile("movl %0, %%cr0" : : "r"(v));
}

static inline uint
rcr4(void)
{
	uint v;

	asm volatile("movl %%cr4, %0" : "=r"(v));
	return v;
}

static inline void
lcr4(uint v)
{
	asm volatile("movl %0, %%cr4" : : "r"(v));
}

/* CPUID leaf 1's feature flags in edx. */
static inline uint
cpuidfeatures(void)
{
	uint a, b, c, d;

	asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1));
	return d;
}

/*
 * CPUID as a serializing instruction: the processor fetches what
 * follows afresh, after every store before it (code just patched).
 */
static inline void
serialize(void)
{
	uint a = 0;

	asm volatile("cpuid" : "+a"(a) : : "ebx", "ecx", "edx", "memory");
}

static inline void
fxsave(FPsave *s)
{
	asm volatile("fxsave %0" : "=m"(*s));
}

static inline void
fxrstor(FPsave *s)
{
	asm volatile("fxrstor %0" : : "m"(*s));
}

#endif
