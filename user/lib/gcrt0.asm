; Entry of a profiled program (/bin/NAME.prof), in place of crt0.asm:
; as crt0, but first start profiling the text, from 0x1000 where
; user/user.ld puts it up to etext, and have exit write gmon.out
; (user/lib/gmon.c).

extern main
extern exit
extern argv0
extern atexit
extern monstartup
extern _mcleanup
extern etext

section .text
global _start
_start:
	xor ebp, ebp		; the end of the frame-pointer chain
	push etext
	push 0x1000
	call monstartup		; monstartup(0x1000, etext)
	add esp, 8
	push _mcleanup
	call atexit		; atexit(_mcleanup)
	add esp, 4
	mov eax, [esp+4]	; argv
	mov eax, [eax]
	mov [argv0], eax	; the program's name, for messages
	push dword [esp+4]	; argv
	push dword [esp+4]	; argc (esp moved by the push)
	call main
	push eax
	call exit

section .note.GNU-stack noalloc noexec nowrite progbits
