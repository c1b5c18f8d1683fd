#!/usr/bin/env bash
# Guest tests of the promises to a hostile program (doc/security.md;
# user/test/hostile.c plays the attacker): a descriptor to a removed file reaches none of the 40,000
# files made after it; a sleep of 100 ticks ends within 110 while another
# process makes long calls (16 MB writes to /dev/eia1, #S spins, 4 MB
# file copies, 32 MB sbrks and forks); unmount, and binds onto removed
# directories reclaimed, unions of 8 however bound; errstr changed only
# by failures; a sleep of 2^31-1 ms at 10000 Hz; exec's MAXARG; #/; a
# failed sbrk; #S; qsort;
# a file truncated and removed while a long write to it yields.
# After each boot the kernel's text is unchanged and the free pages and
# the heap are back where they started.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# survived NAME: the last guest printed its text hash and sysstat first
# and last, no FAIL and no panic, and the hashes and counts agree.
survived() {
	hasnt "$1-no-failure" '^hostile: FAIL'
	hasnt "$1-no-panic" 'panic'
	check "$1-status" [ "$st" = 0 ]
	textintact "$1-text-intact"
	pagesback "$1-pages-heap-back"
}

# Latency, deterministic, at 10000 Hz: a sleep of 100 ticks (10 ms)
# beside each kind of long call ends within 110 ticks, as it would at
# any rate (the calls give the processor up at the next tick).  The
# host writes each byte to eia1 with a system call of its own: 10 ms
# rather than 100 of writes cost the host a tenth.  On one processor:
# on two, under -d, the sleeper that walks to /dev/time while the file
# hog holds the root file system's lock gets one look at the lock a
# tick (QEMU's turns, kern/clock.c), and it is the holder's again
# between its 64 KB copies: 122 ticks.
guest -T -d -p 1 -a 'hz=10000' -t 600 -o "$T/eia1" -c 'cat /dev/textsum; cat /dev/sysstat
hostile latency eia1; hostile latency spin; hostile latency file; hostile latency mem
cat /dev/sysstat; cat /dev/textsum'
for call in eia1 spin file mem; do
	n=$(sed -nE "s/^hostile: latency: sleep 100 ticks took at most ([0-9]+) ticks beside $call$/\1/p" <<<"$out")
	echo "sleep 100 ticks beside $call: ${n:-?} ticks"
	check "latency-$call" [ -n "$n" -a "${n:-999}" -le 110 ]
done
check latency-all-ok [ "$(grep -c '^hostile: latency: ok$' <<<"$out")" = 4 ]
# The 16 MB writes reached the host, as far as they got before the kill.
check latency-eia1-wrote [ "$(head -c 100000 "$T/eia1" | tr -d x | wc -c)" = 0 -a "$(stat -c %s "$T/eia1")" -ge 100000 ]
survived latency

# The rest deterministic, at 1000 Hz so that a tick is a millisecond.
guest -T -d -a 'hz=1000' -t 600 -c 'cat /dev/textsum; cat /dev/sysstat
hostile churn 40000; hostile mounts; hostile errstr; hostile exec; hostile names
hostile sbrk; hostile spin; hostile qsort; hostile race
cat /dev/sysstat; cat /dev/textsum'
has churn '^hostile: churn: 40000 files made and removed$'
has churn-ok '^hostile: churn: ok$'
for t in mounts errstr exec names sbrk spin qsort race; do
	has "$t" "^hostile: $t: ok$"
done
has exec-maxarg-echoed '^a( a){30}$'
survived hostile

# A sleep of 2^31-1 ms at 10000 Hz is 2^34 ticks: still asleep after 300 ms, and killable.
guest -d -a 'hz=10000' -c 'cat /dev/textsum; cat /dev/sysstat; hostile longsleep; cat /dev/sysstat; cat /dev/textsum'
has longsleep '^hostile: longsleep: ok$'
survived longsleep

# The unmount command, and a name space emptied of /dev: halt still works.
guest -T -c 'bind -a "#S" /dev; ls /dev/spinctl; unmount "#S" /dev; ls /dev/spinctl; echo gone $?
unmount "#S" /dev; echo again $?; unmount /tmp; echo notmounted $?; unmount a b c; echo usage $?
unmount /dev; ls /dev; echo empty $?; halt 9'
has unmount-bound '^/dev/spinctl$'
has unmount-gone '^gone 1$'
has unmount-again '^unmount: .*not in the union'
has unmount-again-status '^again 1$'
has unmount-notmounted '^unmount: .*not mounted'
has unmount-notmounted-status '^notmounted 1$'
has unmount-usage '^usage: unmount \[new\] old$'
has unmount-usage-status '^usage 1$'
has unmount-dev-empty '^empty 0$'
hasnt unmount-dev-empty-list '^cons$'
check unmount-halt-after [ "$st" = 9 ]

# Attacks found by review: exec of a pipe never opened; files that take
# the heap past their reserve; a bind over a device's own name.
guest -c 'cat /dev/textsum; cat /dev/sysstat; atk_pipeexec; atk_heap
echo alive; mkdir /tmp/x; echo made $?; mkdir /tmp/d; bind /tmp/d "#c"; echo bound; ls "#c"
cat /dev/textsum; exit 4'
has pipeexec-refused '^atk_pipeexec: exec #\|/data: '
hasnt review-no-panic 'panic'
has heap-reserve-kept '^made 0$'
has bind-device-name '^power$'
check bind-device-poweroff [ "$st" = 4 ]
textintact review-text-intact

# More of review's attacks, at 1000 Hz so that a tick is a millisecond:
# the direction flag set across a call; a 64 MB kpctl message; sbrk,
# fork and exec of big memory, and exec of 30000 program headers by
# four processes at once, beside a sleeper; eflags bits, icebp and
# bound; malformed ELF files; odd names through every call.  atk_names
# removes the directory /dev (as /dev/cons/.., the union's first) and
# makes it again, and with it goes the boot's bind there: made again
# before the heap is compared.
guest -d -a 'hz=1000' -t 300 -c 'cat /dev/textsum; cat /dev/sysstat
atk_df read; atk_df fork; atk_kpctl; atk_long sbrk; atk_long fork; atk_long exec; atk_long headers
atk_cpu; atk_elf; rm /tmp/bigbss /tmp/bad /tmp/manyph0 /tmp/manyph1 /tmp/manyph2 /tmp/manyph3; atk_names
bind -a "#c" /dev; bind -a "#t" /dev; bind -a "#T" /dev; cat /dev/sysstat; cat "#c/textsum"'
has df-read '^atk_df: read 16 survived$'
has df-fork '^atk_df: fork survived$'
has kpctl-long-refused '^atk_kpctl: /dev/kpctl: write -1, [01] ticks passed$'
for call in sbrk fork exec headers; do
	ms=$(sed -nE "s/^atk_long: $call: sleep\(100\) took ([0-9]+) ms$/\1/p" <<<"$out")
	check "latency-big-$call" [ -n "$ms" -a "${ms:-999}" -le 110 ]
done
has cpu-flags '^atk_cpu: kernel alive$'
has elf-malformed '^atk_elf: after: '
has elf-bss-under-stack '^atk_elf: bss under the stack: status 0$'
has elf-bss-far-up '^atk_elf: bss far up: status 0$'
check elf-pages-back [ "$(sed -nE 's/^atk_elf: (before|after): pages [0-9]+ free ([0-9]+).*/\2/p' <<<"$out" | sort -u | wc -l)" = 1 ]
has names-odd '^atk_names: kernel alive$'
survived review2

# An exec that asks for all of memory fails before it maps any: one
# that zeroed and mapped every free page first made a third of the
# forks beside it fail (on one processor, where they take turns).
guest -d -p 1 -a 'hz=1000' -t 120 -c 'cat /dev/sysstat; atk_elf hog; cat /dev/sysstat'
has elf-all-of-memory-forks '^atk_elf: all of memory, exec.d beside 300 forks: 0 failed$'
pagesback elf-all-of-memory-pages-back

summary hostile
