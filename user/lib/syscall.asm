; System-call stubs.  Each one puts its call number in eax and traps;
; the kernel finds the arguments on the user stack, above the return
; address, where the C caller left them.  It returns the result in eax
; and an error number in edx: if that is not 0 the stub stores it in
; errno and in _errnosys and returns -1.  The library sets errno too
; (malloc, strtol), so perror trusts the kernel's error string only
; while errno still equals _errnosys.  The numbers come from kern/sys.h,
; through the o/sys.inc that mk makes from it.

%include "sys.inc"

section .text

; The $ marks a name as a symbol, not an instruction (like wait).
%macro SYSCALL 2
global $%1
$%1:
	mov eax, %2
	int T_SYSCALL
	test edx, edx
	jnz failed
	ret
%endmacro

failed:
	mov [errno], edx
	mov [_errnosys], edx
	mov eax, -1
	ret

; _exit never returns; should the kernel return anyway, spin.
global _exit
_exit:
	mov eax, SYS_exit
	int T_SYSCALL
	jmp $

SYSCALL fork, SYS_fork
SYSCALL wait, SYS_wait
SYSCALL exec, SYS_exec
SYSCALL getpid, SYS_getpid
SYSCALL sbrk, SYS_sbrk
SYSCALL sleep, SYS_sleep
SYSCALL kill, SYS_kill
SYSCALL pipe, SYS_pipe
SYSCALL dup, SYS_dup
SYSCALL dup2, SYS_dup2
SYSCALL open, SYS_open
SYSCALL create, SYS_create
SYSCALL read, SYS_read
SYSCALL write, SYS_write
SYSCALL seek, SYS_seek
SYSCALL close, SYS_close
SYSCALL stat, SYS_stat
SYSCALL fstat, SYS_fstat
SYSCALL remove, SYS_remove
SYSCALL chdir, SYS_chdir
SYSCALL mkdir, SYS_mkdir
SYSCALL bind, SYS_bind
SYSCALL unmount, SYS_unmount
SYSCALL errstr, SYS_errstr
SYSCALL profil, SYS_profil
SYSCALL pcsample, SYS_pcsample
SYSCALL setnoteid, SYS_setnoteid
SYSCALL getwd, SYS_getwd
SYSCALL rfork, SYS_rfork

; long syscall(int num, a1, a2, a3, a4): any call by number.  It
; copies the four arguments, the most any call takes, into a new frame
; below a dummy return address, so the kernel finds them where a
; direct stub would leave them.
global syscall
syscall:
	push ebp
	mov ebp, esp
	push dword [ebp+24]
	push dword [ebp+20]
	push dword [ebp+16]
	push dword [ebp+12]
	push dword [ebp+4]
	mov eax, [ebp+8]
	int T_SYSCALL
	leave
	test edx, edx
	jnz failed
	ret

section .note.GNU-stack noalloc noexec nowrite progbits

section .bss
global errno
errno:
	resd	1
global _errnosys
_errnosys:
	resd	1
