#!/usr/bin/env bash
# Guest tests of profil(2) and pcsample(2): profiltest checks
# the index formula at each scale, the on/off rules, the errors, fork,
# exec, the fault rule, saturation and pcsample's counts, at three clock
# rates; and pcsample's samples of a 3:1 workload give its split.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# Each check spins 20 ticks, and 10 at hz=100 (-t 10), where a tick is
# 10 M instructions under -d: 712 ticks in all took 13.4 s of the host's
# CPU, 387 take 7.7.  The checks are as sharp at 10 as at 20: spinloop
# takes every tick but the few of the clock reads around it, where a
# check wants half, and one tick counted where none may be fails.
for hz in 100 1000 10000; do
	t=
	[ $hz = 100 ] && t='-t 10'
	guest -d -a "hz=$hz" -t 300 -c "profiltest $t"
	has "profiltest-hz$hz" '^profiltest: ok$'
	hasnt "profiltest-hz$hz-no-fail" '^FAIL'
done

# pcsample's samples of profdemo, deterministic at hz=10000: 3 to 1.
# On one processor: a second, idle, costs the host 0.5 s in 20,000 ticks.
guest -d -p 1 -a 'hz=10000' -t 300 -c 'profdemo -s 2'
n=$(sed -nE 's/^pcsample: ([0-9]+) samples$/\1/p' <<<"$out")
s3=$(awk -F'\t' '$3 == "spin3" { print $1 }' <<<"$out")
s1=$(awk -F'\t' '$3 == "spin1" { print $1 }' <<<"$out")
echo "pcsample: $n samples, spin3 $s3 ms, spin1 $s1 ms"
check pcsample-enough-samples [ "${n:-0}" -ge 10000 ]
check pcsample-3-to-1 python3 -c "import sys; a, b = ${s3:-0}, ${s1:-0}; sys.exit(a + b == 0 or abs(100.0 * a / (a + b) - 75) > 1)"

# The same kernel text after profil and pcsample were aimed at it,
# outside -d, at the highest clock rate (the most ticks a second).  The
# boot must also end: in the host's time, a profiled tick that rearmed
# its clock a few counts ahead (kern/apic.c, lapicnext) left the
# periodic timer firing faster than QEMU could take it, and 5 of 8
# such boots hung until the count had a floor.  (profiltest's own
# verdict wants -d, above: its ticks are counted against the clock's.)
guest -a 'hz=10000' -c 'cat /dev/textsum; profiltest > /dev/null; cat /dev/textsum'
check profil-nondet-ended [ "$st" = 0 ]
check profil-kernel-untouched [ "$(grep -cE '^0x' <<<"$out")" = 2 -a "$(grep -E '^0x' <<<"$out" | sort -u | wc -l)" = 1 ]

summary profil
