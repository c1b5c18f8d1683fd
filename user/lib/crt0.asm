; Program entry.  The kernel starts a program with esp pointing at
; argc, followed by argv (a pointer to a NULL-terminated array of
; strings on the stack): call main(argc, argv), then exit with what
; it returns.  gcrt0.asm includes this file with FIRST defined as what
; a profiled program does before main.

extern main
extern exit
extern argv0

%ifnmacro FIRST
%macro FIRST 0
%endmacro
%endif

section .text
global _start
_start:
	xor ebp, ebp		; the end of the frame-pointer chain
	FIRST
	mov eax, [esp+4]	; argv
	mov eax, [eax]
	mov [argv0], eax	; the program's name, for messages
	push dword [esp+4]	; argv
	push dword [esp+4]	; argc (esp moved by the push)
	call main
	push eax
	call exit

section .note.GNU-stack noalloc noexec nowrite progbits
