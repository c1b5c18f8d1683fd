; Entry of a profiled program (/bin/NAME.prof), in place of crt0.asm:
; as crt0, but first start profiling the text, from 0x1000 where
; user/user.ld puts it up to etext, and have exit write gmon.out
; (user/lib/gmon.c).

extern atexit
extern monstartup
extern _mcleanup
extern etext

%macro FIRST 0
	push etext
	push 0x1000
	call monstartup		; monstartup(0x1000, etext)
	add esp, 8
	push _mcleanup
	call atexit		; atexit(_mcleanup)
	add esp, 4
%endmacro

%include "user/lib/crt0.asm"
