; The kernel's first instructions.  GRUB (or QEMU's -kernel) loads the
; ELF at its physical addresses and jumps to `start` with paging off,
; eax = the multiboot magic and ebx = the physical address of the
; multiboot information.  We map the kernel at KZERO with a page
; directory of 4 MB pages, turn paging on, move to the high addresses
; and call main(magic, mbi).

%define KZERO		0xC0000000
%define NBIGPG		64		; 64 x 4 MB = PHYSMAX, as in kern/mem.h
%define KSTACK		8192		; as kern/mem.h: the first processor's scheduler stack
%define MBMAGIC		0x1BADB002
%define MBFLAGS		0x00000003	; modules page-aligned, memory info

section .text.boot
align 4
multiboot:
	dd	MBMAGIC
	dd	MBFLAGS
	dd	-(MBMAGIC + MBFLAGS)

global start
start:
	mov	ecx, cr4
	or	ecx, 0x10			; PSE: 4 MB pages
	mov	cr4, ecx
	mov	ecx, bootpgdir - KZERO
	mov	cr3, ecx
	mov	ecx, cr0
	or	ecx, 0x80010000			; paging, and write-protect in ring 0
	mov	cr0, ecx
	lea	ecx, [high]
	jmp	ecx
high:
	mov	esp, bootstack + KSTACK
	xor	ebp, ebp
	add	ebx, KZERO
	push	ebx
	push	eax
	extern	main
	call	main
	jmp	$

section .data
align 4096
; Entry 0 maps the first 4 MB where they are, so that the instructions
; after turning on paging still run; main drops it.
global bootpgdir
bootpgdir:
	dd	0x00000083
	times	(KZERO >> 22) - 1 dd 0
%assign i 0
%rep NBIGPG
	dd	(i << 22) | 0x83
%assign i i+1
%endrep
	times	1024 - (KZERO >> 22) - NBIGPG dd 0

section .bss
align 4096
global bootstack
bootstack:
	resb	KSTACK
