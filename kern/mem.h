/*
 * The memory layout, shared by C and (through %define copies in
 * boot/entry.asm) by the boot code.
 *
 *	0x00000000 - 0x00000fff	never mapped: catches nil
 *	UTZERO - ...		user text, data, bss, then the heap (sbrk)
 *	USTACK - USTACKTOP	user stack
 *	KZERO -			all physical memory, up to PHYSMAX
 */
#define BY2PG		4096
#define PGSHIFT		12
#define BY2BIGPG	(4*1024*1024)	/* a PSE page: one PDE maps it */
#define KZERO		0xC0000000	/* kernel virtual = physical + KZERO */
#define PHYSMAX		(256*1024*1024)	/* physical memory the kernel maps */
#define USTACKTOP	USEREND		/* top of user space (kern/sys.h), KZERO */
#define USTACKSIZE	(64*1024)
#define USTACK		(USTACKTOP - USTACKSIZE)
#define KSTACK		8192		/* per-process kernel stack, from the heap */

#define PADDR(va)	((uintptr)(va) - KZERO)
#define KADDR(pa)	((void*)((uintptr)(pa) + KZERO))

/* page table entry bits */
#define PTEP		0x001	/* present */
#define PTEW		0x002	/* writable */
#define PTEU		0x004	/* user */
#define PTEADDR(e)	((e) & ~0xFFF)
#define PDX(va)		(((uintptr)(va) >> 22) & 0x3FF)
#define PTX(va)		(((uintptr)(va) >> 12) & 0x3FF)

/* segment selectors */
#define KCSEG		(1<<3)
#define KDSEG		(2<<3)
#define UCSEG		((3<<3)|3)
#define UDSEG		((4<<3)|3)
#define TSSSEG		(5<<3)
