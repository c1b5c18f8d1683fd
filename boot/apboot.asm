; The other processors' first instructions.  mpstart (kern/mp.c) copies
; this code to APBOOT, below 1 MB, and puts three words just below it:
; the page directory (physical), the stack top and the C function to
; call.  A start-up message makes a processor begin here in real mode,
; at APBOOT's page; we go to protected mode with flat segments, turn
; paging on as boot/entry.asm does, and call the function (mpenter),
; which loads the processor's own segments.

%define APBOOT		0x7000		; as kern/mem.h
%define KCSEG		(1<<3)
%define KDSEG		(2<<3)
%define AT(x)		(APBOOT + (x) - apboot)

section .rodata
global apboot, apbootend
bits 16
apboot:
	cli
	cld
	xor	ax, ax
	mov	ds, ax
	lgdt	[AT(apgdtr)]
	mov	eax, cr0
	or	eax, 1				; protected mode
	mov	cr0, eax
	jmp	dword KCSEG:AT(ap32)
bits 32
ap32:
	mov	ax, KDSEG
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	mov	eax, cr4
	or	eax, 0x10			; PSE: 4 MB pages
	mov	cr4, eax
	mov	eax, [APBOOT - 4]
	mov	cr3, eax
	mov	eax, cr0
	or	eax, 0x80010000			; paging, and write-protect in ring 0
	mov	cr0, eax
	mov	esp, [APBOOT - 8]
	xor	ebp, ebp
	call	[APBOOT - 12]
	jmp	$

align 8
apgdt:
	dq	0
	dq	0x00CF9A000000FFFF		; KCSEG: flat code
	dq	0x00CF92000000FFFF		; KDSEG: flat data
apgdtr:
	dw	3*8 - 1
	dd	AT(apgdt)
apbootend:
