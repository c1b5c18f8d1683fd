#!/usr/bin/env bash
# Guest tests that play the attacker against the processor's own
# protection (doc/security.md): descriptor tables and gates, I/O and privileged
# instructions, segment registers, FPU state.  Every attack must end
# with the kernel's one-line fault message; after each boot the kernel
# text hash is unchanged and the free pages and heap are back.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# splitcases: split the last guest's console into section, the lines after
# each "case CASE" up to the next case, by CASE; in bash, as a few
# processes a case (awk, grep) were hundreds.
declare -A section
splitcases() {
	local line c=
	section=()
	while IFS= read -r line; do
		if [[ $line == "case "* ]]; then
			c=${line#case }
			section[$c]=
		elif [ -n "$c" ]; then
			section[$c]+=$line$'\n'
		fi
	done <<<"$out"
}

# trapped CASE TRAP: the attack in CASE was killed by trap TRAP (a
# regular expression), with the one-line message, and status 255, and
# printed nothing else.
trapped() {
	local line msg=0 st=0 other=0
	local re="^[a-z]+: pid [0-9]+: trap $2 \([a-z ]+\) addr 0x?[0-9a-f]* pc 0x[0-9a-f]+$"
	local says='^(attack|fpu): ' trap=': pid [0-9]+: trap '
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			msg=1
		elif [ "$line" = 'status 255' ]; then
			st=1
		elif [[ $line =~ $says && ! $line =~ $trap ]]; then
			other=1
		fi
	done <<<"${section[$1]}"
	[ $msg = 1 -a $st = 1 -a $other = 0 ]
}

# killed CASE TRAP: trapped, as a case.
killed() {
	if trapped "$1" "$2"; then
		ok "$1"
	else
		bad "$1" "want trap $2 and status 255, got: $(tr '\n' '|' <<<"${section[$1]}")"
	fi
}

# Descriptor tables, gates, I/O and privileged instructions.
cases=(ldtgate ldtdata)
gdt=(0x0 0x4 0x7 0x8 0xb 0x10 0x13 0x28 0x2b 0x30 0xfff8 0xffff)
# wbinvd is not here: QEMU 10's TCG runs it at any privilege, as a no-op
# (hardware faults it); the others show that user code is not at ring 0.
insns=(in out ins outs cli sti hlt lgdt lidt lldt ltr cr0 cr3 clts rdmsr dr7 sysenter into iret iopl)
cmds='cat /dev/textsum; cat /dev/sysstat'
for c in "${cases[@]}"; do cmds+=$'\n'"echo case $c; attack $c; echo status \$?"; done
for s in "${gdt[@]}"; do cmds+=$'\n'"echo case gdt-$s; attack gdt $s; echo status \$?"; done
for i in "${insns[@]}"; do cmds+=$'\n'"echo case insn-$i; attack insn $i; echo status \$?"; done
for n in $(seq 0 255); do
	[ "$n" = 64 ] && continue	# the system call
	cmds+=$'\n'"echo case int-$n; attack int $n; echo status \$?"
done
cmds+=$'\n''echo case int1; attack insn int1; echo status $?'
cmds+=$'\n''echo case movss; attack insn movss; echo status $?'
cmds+=$'\n''echo case end; cat /dev/sysstat; cat /dev/textsum'
guest -d -t 300 -c "$cmds"
splitcases
for c in "${cases[@]}"; do killed "$c" 13; done
for s in "${gdt[@]}"; do killed "gdt-$s" 13; done
for i in "${insns[@]}"; do killed "insn-$i" 13; done
n=0
for v in $(seq 0 255); do
	[ "$v" = 64 ] && continue
	[[ ${section[int-$v]} =~ (^|$'\n')'attack: pid '[0-9]+': trap 13 (general protection)' ]] &&
		[[ ${section[int-$v]} =~ (^|$'\n')'status 255'$'\n' ]] && n=$((n + 1))
done
check int-every-vector-but-syscall [ "$n" = 255 ]
# icebp is a debug trap on hardware, an invalid opcode to QEMU 7.
killed int1 '(1|6)'
# Single-stepping over mov ss into int: the trap it held back is the user's.
killed movss 1
hasnt desc-no-panic 'panic|kernel trap'
hasnt desc-no-ring0 'call gate reached|IOPL is now'
textintact desc-text-intact
pagesback desc-pages-back

# Segment registers: every kind of selector over a system call and a tick.
guest -d -c 'cat /dev/textsum; cat /dev/sysstat; segs; cat /dev/sysstat; cat /dev/textsum'
has segs '^segs: 592 cases ok$'
# 62 of the 74 selectors fault where they are loaded, for 4 registers, twice.
check segs-killed [ "$(grep -cE '^segs: pid [0-9]+: trap 13 \(general protection\) addr 0 pc 0x[0-9a-f]+$' <<<"$out")" = 496 ]
hasnt segs-no-panic 'panic|kernel trap'
textintact segs-text-intact
pagesback segs-pages-back

# A fault on the way back to user mode (trapret's pops, iretd) is the
# user's.  No program can leave a selector that fails there any more
# (segs shows it), so gdb makes the faults: during the getpid of each of
# segs's children it changes one saved register.  The last but one is
# a kernel selector, which loads, and which the processor itself takes
# from ds on the way to ring 3; the last child is left alone.
cat >"$T/inject.gdb" <<'EOF'
set pagination off
set confirm off
set $k = 0
hbreak sysgetpid if mach[$_thread - 1].proc->name[0] == 's' && mach[$_thread - 1].proc->name[1] == 'e' && mach[$_thread - 1].proc->name[2] == 'g'
commands
silent
set $k = $k + 1
if $k == 1
set var mach[$_thread - 1].proc->ureg->gs = 0x28
end
if $k == 2
set var mach[$_thread - 1].proc->ureg->fs = 0x38
end
if $k == 3
set var mach[$_thread - 1].proc->ureg->es = 0x0c
end
if $k == 4
set var mach[$_thread - 1].proc->ureg->ds = 0x2b
end
if $k == 5
set var mach[$_thread - 1].proc->ureg->ss = 0x10
end
if $k == 6
set var mach[$_thread - 1].proc->ureg->cs = 0x30
end
if $k == 7
set var mach[$_thread - 1].proc->ureg->ds = 0x10
end
continue
end
continue
EOF
port=$(freeport)
GDBPORT=$port guest -d -g -t 200 -c 'cat /dev/textsum; cat /dev/sysstat; segs ret 8
cat /dev/sysstat; cat /dev/textsum' &
qemu=$!
listening "$port"
gdb -batch -nx -ex "target remote localhost:$port" -x "$T/inject.gdb" o/kernel >"$T/gdb" 2>&1
wait $qemu
out=$(tr -d '\r\0' <"$T/console")
check ret-faults-killed [ "$(grep -cE '^segs: pid [0-9]+: trap 13 \(general protection\) addr 0 pc 0x[0-9a-f]+$' <<<"$out")" = 6 ]
check ret-faults-status [ "$(grep -cx 'segs: status 255' <<<"$out")" = 6 ]
has ret-kernel-ds-nulled '^segs: returned with ds 0 es 0x23 fs 0x23 gs 0x23$'
has ret-untouched '^segs: returned with ds 0x23 es 0x23 fs 0x23 gs 0x23$'
hasnt ret-no-panic 'panic|kernel trap'
textintact ret-text-intact
pagesback ret-pages-back

# FPU: each process's own registers; a pending error is the user's.  On
# one processor, which the clobbering process must share, at 1000 Hz
# (keep's rounds wait for ticks: at 100 Hz they cost ten times more),
# on a slower processor (run-qemu.sh -i 2: a tick is 250,000
# instructions, not a million), as the rounds count ticks, and the
# clobberer runs between every two of them at any length: 2.3 s of the
# host's CPU to 0.7.
guest -d -i 2 -p 1 -a 'hz=1000' -c 'cat /dev/textsum; cat /dev/sysstat
fpu keep 50; fpu fork; fpu clean; fpu dirty
echo case pending; fpu pending; echo status $?
echo case end; cat /dev/sysstat; cat /dev/textsum'
splitcases
has fpu-keep '^fpu: keep ok$'
has fpu-fork '^fpu: fork ok$'
check fpu-clean [ "$(grep -cx 'fpu: clean ok' <<<"$out")" = 2 ]
killed pending 16
hasnt fpu-no-panic 'panic|kernel trap'
textintact fpu-text-intact
pagesback fpu-pages-back

summary attack
