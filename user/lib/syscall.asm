; System-call stubs.  Each one puts its call number in eax and traps;
; the kernel finds the arguments on the user stack, above the return
; address, where the C caller left them.  It returns the result in eax
; and an error number in edx: if that is not 0 the stub stores it in
; errno and returns -1.  The numbers must match SYS_* in sys.h.

extern errno

section .text

; The $ marks a name as a symbol, not an instruction (like wait).
%macro SYSCALL 2
global $%1
$%1:
	mov eax, %2
	int 0x40
	test edx, edx
	jnz failed
	ret
%endmacro

failed:
	mov [errno], edx
	mov eax, -1
	ret

; _exit never returns; should the kernel return anyway, spin.
global _exit
_exit:
	mov eax, 1
	int 0x40
	jmp $

SYSCALL fork, 2
SYSCALL wait, 3
global execv
execv:
SYSCALL exec, 4
SYSCALL getpid, 5
SYSCALL sbrk, 6
SYSCALL sleep, 7
SYSCALL kill, 8
SYSCALL pipe, 9
SYSCALL dup, 10
SYSCALL dup2, 11
SYSCALL open, 12
SYSCALL create, 13
SYSCALL read, 14
SYSCALL write, 15
global lseek
lseek:
SYSCALL seek, 16
SYSCALL close, 17
SYSCALL stat, 18
SYSCALL fstat, 19
SYSCALL remove, 20
SYSCALL chdir, 21
SYSCALL mkdir, 22
SYSCALL bind, 23
SYSCALL errstr, 24
SYSCALL profil, 25
SYSCALL pcsample, 26

; long syscall(int num, a1, a2, a3, a4, a5): any call by number.  It
; copies the five arguments into a new frame below a dummy return
; address, so the kernel finds them where a direct stub would leave them.
global syscall
syscall:
	push ebp
	mov ebp, esp
	push dword [ebp+28]
	push dword [ebp+24]
	push dword [ebp+20]
	push dword [ebp+16]
	push dword [ebp+12]
	push dword [ebp+4]
	mov eax, [ebp+8]
	int 0x40
	leave
	test edx, edx
	jnz failed
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
