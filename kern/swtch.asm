; void swtch(Context **old, Context *new)
; Save the callee-saved registers on this stack, store the stack pointer
; in *old, and resume new: the other half of some earlier swtch.

section .text
global swtch
swtch:
	mov	eax, [esp+4]
	mov	edx, [esp+8]
	push	ebp
	push	ebx
	push	esi
	push	edi
	mov	[eax], esp
	mov	esp, edx
	pop	edi
	pop	esi
	pop	ebx
	pop	ebp
	ret
