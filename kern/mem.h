/*
 * The memory layout, shared by C and (through %define copies in
 * boot/entry.asm) by the boot code.
 *
 *	0x00000000 - 0x00000fff	never mapped: catches nil
 *	UTZERO - ...		user text, data, bss, then the heap (sbrk), below USHARED
 *	USTACK - USTACKTOP	user stack
 *	KZERO -			all physical memory, up to PHYSMAX
 *	APICBASE -		the APICs' registers
 *	VPT -			the page tables in use (kern/mmu.c)
 */
#define BY2PG		4096
#define PGSHIFT		12
#define BY2BIGPG	(4*1024*1024)	/* a PSE page: one PDE maps it */
#define KZERO		0xC0000000	/* kernel virtual = physical + KZERO */
#define PHYSMAX		(256*1024*1024)	/* physical memory the kernel maps */
#define USTACKTOP	USEREND		/* top of user space (kern/sys.h), KZERO */
#define USTACKSIZE	(64*1024)
#define USTACK		(USTACKTOP - USTACKSIZE)
#define USHARED		(USTACKTOP - BY2BIGPG)	/* threads share the page tables below; the top 4 MB, the stack's, are each one's own */
#define APICBASE	0xFEC00000	/* the I/O APIC, and 2 MB on the local APIC: kept mapped */
#define VPT		0xFFC00000	/* the last 4 MB: each page directory's last slot maps it as a page table */
#define APBOOT		0x7000		/* where the other processors start (boot/apboot.asm) */
#define KSTACK		8192		/* per-process kernel stack, from the heap */

#define PADDR(va)	((uintptr)(va) - KZERO)
#define KADDR(pa)	((void*)((uintptr)(pa) + KZERO))

/* page table entry bits */
#define PTEP		0x001	/* present */
#define PTEW		0x002	/* writable */
#define PTEU		0x004	/* user */
#define PTEPWT		0x008	/* write-through */
#define PTEPCD		0x010	/* not cached */
#define PTEBIG		0x080	/* a 4 MB page */
#define PTEADDR(e)	((e) & ~0xFFF)
#define PDX(va)		(((uintptr)(va) >> 22) & 0x3FF)
#define PTX(va)		(((uintptr)(va) >> 12) & 0x3FF)

/* segment selectors */
#define KCSEG		(1<<3)
#define KDSEG		(2<<3)
#define UCSEG		((3<<3)|3)
#define UDSEG		((4<<3)|3)
#define TSSSEG		(5<<3)
#define MACHSEG		(6<<3)	/* gs in the kernel: this processor's Mach */
