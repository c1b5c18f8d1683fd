; Trap entry and exit.  Every vector pushes an error code (a zero where
; the processor pushes none) and its number, then alltraps saves the
; rest of a Ureg (kern/dat.h) and calls trap(Ureg*).  trapret undoes
; it all; a new process starts there too (see newproc in kern/proc.c).
;
; The segment registers a user program leaves are its own business: the
; kernel saves them, runs on its own (gs: its processor's Mach), and
; loads the user's again only in trapret.  A selector that no longer
; loads faults there, and trap() knows those instructions (trapretload
; to trapretend) and kills the process rather than panic.

%define KDSEG	(2<<3)
%define MACHSEG	(6<<3)	; this processor's Mach, as kern/mem.h

section .text

%macro vector 1
vec%1:
%if %1 != 8 && (%1 < 10 || %1 > 14) && %1 != 17
	push	0
%endif
	push	%1
	jmp	alltraps
%endmacro

global vec0, alltraps		; the entries' bounds, for kprof (dev/devkprof.c)
%assign i 0
%rep 256
	vector	i
%assign i i+1
%endrep

extern trap
alltraps:
	cld			; the ABI's direction, whatever the trapped code had
	push	ds
	push	es
	push	fs
	push	gs
	pushad
	mov	ax, KDSEG
	mov	ds, ax
	mov	es, ax
	mov	fs, ax
	mov	ax, MACHSEG
	mov	gs, ax
	push	esp
	call	trap
	add	esp, 4

global trapret, trapretload, trapretend
trapret:
	popad
trapretload:
	pop	gs
	pop	fs
	pop	es
	pop	ds
	add	esp, 8		; trap number and error code
	iretd
trapretend:

; The NMI, kprof's sample (kern/apic.c, nmiclock), has an entry of its
; own: it can land anywhere, cli or not, also between the instructions
; above that load the segment registers, so it saves and loads them
; itself rather than trust any (gs for its Mach, ds for C), and saves
; only the registers C may clobber.  es and the direction flag it
; leaves as they are: its C uses no string instruction, nor anything
; else that uses them (tools/test/callgraph.sh checks its path).  It
; passes kprofnmi, in eax (REGPARM), an Nmiframe (kern/dat.h): the
; time-stamp counter's low half at its fourth instruction, for kprof's
; count of its own cost (an NMI is far shorter than 2^32 counts), and
; the interrupted frame pointer, for the stack, below the frame the
; processor pushed (pc, cs, flags).  The processor takes no other NMI
; until the iretd.  profnmi is called from here, not from kprofnmi, so
; that kprofnmi keeps its registers and its instructions outside the
; time-stamp reads (dev/devkprof.c, Kpoutside) as they were.
extern kprofnmi
extern profnmi
extern nmiprofon
global nmientry
	align	16		; as gcc aligns C functions, so that no kpdata bin holds the end of trapret and the start of this
nmientry:
	push	eax
	push	ecx
	push	edx
	rdtsc			; the NMI's start, for kprofnmi's count of its own cost
	push	eax
	push	ebp
	push	ds
	push	gs
	mov	eax, KDSEG
	mov	ds, eax
	mov	eax, MACHSEG
	mov	gs, eax
	mov	eax, esp
	cmp	dword [nmiprofon], 0	; an image profiles: profil's sample first (kern/prof.c)
	je	.kprof
	call	profnmi
	mov	eax, esp
.kprof:
	call	kprofnmi
	pop	gs
	pop	ds
	add	esp, 8		; bp and t0
	pop	edx
	pop	ecx
	pop	eax
	iretd

section .rodata
global vectors
vectors:
%assign i 0
%rep 256
	dd	vec%+i
%assign i i+1
%endrep
