; mcount: gcc -pg calls it at the start of every function of a
; profiled program, just after "push ebp; mov ebp, esp".  So at entry
; [esp] is the return into the function, an address in the callee
; (selfpc), and [ebp+4] the function's own return address, into its
; caller (frompc).  _mcount (arcs.c) counts the call along that arc.
; eax, ecx and edx are kept as they were: a function whose arguments
; come in registers (regparm) has not yet looked at them.

extern _mcount

section .text
global mcount
mcount:
	push eax
	push ecx
	push edx
	push dword [esp+12]	; selfpc
	push dword [ebp+4]	; frompc
	call _mcount		; _mcount(frompc, selfpc)
	add esp, 8
	pop edx
	pop ecx
	pop eax
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
