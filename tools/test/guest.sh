#!/usr/bin/env bash
# Guest tests of the kernel itself: both boot paths, files,
# the union /dev, pipes and redirection, exit statuses, preemption,
# faults, the second serial port and usertests.  The system-call fuzzer
# is fuzz.sh.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# Boot through GRUB from the ISO.
guest -iso -c 'echo booted through grub'
has boot-iso '^booted through grub$'
check boot-iso-status [ "$st" = 0 ]
hasnt boot-iso-no-screen-codes $'\e'
check boot-iso-kernel-first [ "$(grep -v '^$' <<<"$out" | head -1)" = 'kprof kernel: booting' ]
hasnt boot-iso-no-grub-menu 'Booting'


# waitfor REGEX: until a console line matches (60 s at most).
waitfor() {
	for i in $(seq 600); do
		tr -d '\r' <"$T/console" 2>/dev/null | grep -qE "$1" && return
		sleep 0.1
	done
}
# Boot with -kernel, to an interactive shell prompt; type at it once it is there.
mkfifo "$T/keys"
guest -t 60 <"$T/keys" &
qemu=$!
exec 3>"$T/keys"
waitfor '^\$ '
# Each line is typed once the one before has printed, so that the
# console's echo of the next never lands inside the last one's output.
printf 'echo typed at the prompt\n' >&3
waitfor '^typed at the prompt$'
printf 'halt 5\n' >&3
exec 3>&-
wait $qemu
st=$?
out=$(tr -d '\r\0' <"$T/console")
has prompt '^\$ '
has prompt-typed '^typed at the prompt$'
check prompt-halt-status [ "$st" = 5 ]

# Files, unions and pipes, in one boot (a boot costs the host more than
# these commands): each case's files are its own, and the pipe device's
# come last, as they bind over /tmp.
guest -c "echo hello > /tmp/f; echo world >> /tmp/f; cat /tmp/f; ls -l /tmp/f
mkdir /tmp/d; echo in d > /tmp/d/g; cd /tmp/d; cat g; cd ..; ls /tmp/d
rm /tmp/d/g; rm /tmp/d; rm /tmp/f; ls /tmp; cat /tmp/f; echo status \$?
cp /bin/echo /tmp/e; /tmp/e copied binary runs
ls /dev; bind -a '#T' /dev; bind -a '#T' /dev; ls /dev | cat > /tmp/l; cat /tmp/l
mkdir /tmp/u /tmp/d1 /tmp/d2 /tmp/d3 /tmp/d4 /tmp/d5 /tmp/d6 /tmp/d7 /tmp/d8
echo 1 > /tmp/d1/f1; echo 7 > /tmp/d7/f7
bind -a /tmp/d1 /tmp/u; bind -a /tmp/d2 /tmp/u; bind -a /tmp/d3 /tmp/u; bind -a /tmp/d4 /tmp/u
bind -a /tmp/d5 /tmp/u; bind -a /tmp/d6 /tmp/u; bind -a /tmp/d7 /tmp/u; echo seven \$?
bind -a /tmp/d8 /tmp/u; echo eight \$?; cat /tmp/u/f1 /tmp/u/f7; bind -b /tmp/d8 /tmp/d1; echo before \$?
echo one two three | cat | cat > /tmp/p; cat < /tmp/p; echo x; echo y >> /tmp/p; cat /tmp/p | cat
cat /dev/sysstat; ls '#|'; cat '#|/data'; echo read \$?; echo y > '#|/data'; echo wrongway \$?
cat /dev/sysstat; bind '#|' /tmp; ls /tmp; cat /tmp/data1; echo readend \$?"
has files-read-back '^hello$'
has files-append '^world$'
has files-ls-size '^-.* 12 .*f$|^- +12 +/tmp/f$'
has files-subdir '^in d$'
has files-removed-status '^status [1-9]'
has files-cp-exec '^copied binary runs$'

has union-dev-cons '^cons$'
has union-dev-eia1 '^eia1$'
has union-dev-kpctl '^kpctl$'
check union-dev-rebind-harmless [ "$(grep -c '^kpdata$' <<<"$out")" = 2 ]

has union-seven-binds '^seven 0$'
has union-full '^bind: .*union full'
has union-full-status '^eight 1$'
has union-full-keeps '^7$'
has union-before '^before 0$'

has pipe-chain '^one two three$'
check pipe-append [ "$(grep -c '^one two three$' <<<"$out")" = 2 ]
has redirect-append '^y$'

# Pipes are a device like the others: #| is a new pipe, data its end to
# read and data1 its end to write, each only that way; opened by name
# alone, data reads end of file, and nothing leaks; #| can be bound.
has pipedev-files '^data1$'
has pipedev-eof '^read 0$'
has pipedev-wrong-way 'data: permission denied'
has pipedev-wrong-way-status '^wrongway 1$'
has pipedev-bound-read-end 'data1: permission denied'
stats=$(grep '^pages' <<<"$out")
check pipedev-no-leak [ "$(wc -l <<<"$stats")" = 2 -a "$(sort -u <<<"$stats" | wc -l)" = 1 ]

# Statuses, faults, and a bind over /dev, in one boot; the bind last.
# init powers off through #c, which no bind can hide, and never exits.
guest -c "sh -c 'exit 7'; echo status \$?; echo 'exit 3' > /tmp/s; sh /tmp/s; echo script \$?
fault; echo killed \$?; nosuch; echo missing \$?
fault; echo after nil; fault kernel; fault text; fault insn; echo still here
mkdir /tmp/d; bind /tmp/d /dev; echo bound; exit 3"
has exit-status '^status 7$'
has script-status '^script 3$'
has killed-status '^killed 255$'
has missing-command '^sh: nosuch: '
has missing-status '^missing 1$'

has fault-nil-message '^fault: pid [0-9]+: trap 14 \(page fault\) addr 0 pc 0x[0-9a-f]+$'
has fault-kernel-message '^fault: pid [0-9]+: trap 14 \(page fault\) addr 0xc0100000 pc 0x[0-9a-f]+$'
has fault-text-message '^fault: pid [0-9]+: trap 14 \(page fault\) addr 0x[0-9a-f]+ pc 0x[0-9a-f]+$'
has fault-insn-message '^fault: pid [0-9]+: trap 6 \(invalid opcode\) addr 0 pc 0x[0-9a-f]+$'
has fault-shell-goes-on '^still here$'
hasnt fault-no-survivor 'still alive'

has bind-over-dev '^bound$'
hasnt bind-over-dev-no-panic 'panic'
check bind-over-dev-status [ "$st" = 3 ]

# Two spins of 0.3 s, one in the background, which wait waits for.
guest -c 'spin 0.3 & spin 0.3; wait'
n=$(grep -cE '^spin [0-9]+: ticks' <<<"$out")
check preempt-both-finish [ "$n" = 2 ]
# Each ran for 0.3 s of its own; if they overlapped, both started before either ended.
read -r s1 e1 s2 e2 <<<"$(grep -E '^spin' <<<"$out" | sed -E 's/.*ticks ([0-9]+) to ([0-9]+).*/\1 \2/' | tr '\n' ' ')"
check preempt-overlap [ "${s2:-999999}" -lt "${e1:-0}" -a "${s1:-999999}" -lt "${e2:-0}" ]

guest -o "$T/eia1" -c 'cat /kernel > /dev/eia1; xd /bin/echo > /dev/eia1'
head -c "$(stat -c %s o/kernel)" "$T/eia1" >"$T/kernel"
check eia1-byte-exact cmp -s "$T/kernel" o/kernel

# The boot archive's files are read where the archive lies: writing one
# copies it first, and removing one frees nothing of the archive's.
size=$(stat -c %s o/bin/cat)
guest -o "$T/eia1" -c 'echo extra >> /bin/cat; ls -l /bin/cat; /bin/cat /tmp/none; echo ran $?
cat /kernel > /dev/eia1; rm /bin/cat; ls /bin/cat; echo removed $?'
has boot-file-append "^-[-rwx]{9} +$((size + 6)) /bin/cat\$"
has boot-file-runs '^ran 1$'
has boot-file-remove '^removed 1$'
hasnt boot-file-no-panic 'panic'
head -c "$(stat -c %s o/kernel)" "$T/eia1" >"$T/kernel"
check boot-file-others-intact cmp -s "$T/kernel" o/kernel

guest -c 'cat /dev/sysstat; usertests; cat /dev/sysstat; runtest 0.3 > /dev/null; cat /dev/sysstat'
has usertests '^usertests: ok$'
check usertests-status [ "$st" = 0 ]
# The kernel heap is back where it was once the processes are gone.
check no-heap-leak [ "$(grep -E '^pages' <<<"$out" | awk '{print $6}' | sort -u | wc -l)" = 1 ]

guest -a 'hz=1000' -c 'cat /dev/time'
has hz-option '^[0-9]+ 1000$'
# run-qemu.sh refuses a bad rate before booting; the kernel, booted
# by hand with one, and with a word it does not know, says so.
for a in hz=5 hz=20000 hz=abc hz= hz=100x; do
	./run-qemu.sh -k -a "$a" -c 'echo booted' >"$T/a" 2>&1
	st=$?
	out=$(cat "$T/a")
	check "hz-refused-$a" [ "$st" = 2 ]
	has "hz-refused-says-$a" "^run-qemu.sh: -a $a: hz must be a number from 50 to 10000$"
	hasnt "hz-refused-no-boot-$a" '^booted$'
done
# A word after the options is refused too, not ignored for a boot
# that would wait at the prompt for a person.
./run-qemu.sh -k 'echo booted' >"$T/a" 2>&1 </dev/null
st=$?
out=$(cat "$T/a")
check extra-arg-refused [ "$st" = 2 ]
has extra-arg-says "^run-qemu.sh: unexpected argument 'echo booted' \\(commands go in -c 'COMMANDS'\\)$"
hasnt extra-arg-no-boot 'booting'
printf 'cat /dev/time\n' >"$T/rc"
timeout 60 qemu-system-i386 -bios qboot.rom -m 128 -display none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel o/kernel -initrd "o/root.tar,$T/rc" -append 'hz=5 bogus' -serial stdio </dev/null >"$T/k" 2>&1
out=$(tr -d '\r' <"$T/k")
has hz-bad '^hz must be 50 to 10000: using 100$'
has hz-bad-default '^[0-9]+ 100$'
has cmdline-unknown-word '^warning: unknown kernel command-line word bogus$'
guest -a 'hz=200' -c 'cat /dev/time'
hasnt cmdline-known-quiet 'warning'

summary guest
