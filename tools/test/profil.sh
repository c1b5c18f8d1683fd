#!/usr/bin/env bash
# Guest tests of profil(2) and pcsample(2): profiltest checks
# the index formula at each scale, the on/off rules, the errors, fork,
# exec, the fault rule, saturation and pcsample's counts, at three clock
# rates; and pcsample's samples of a 3:1 workload give its split.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# Each check spins 20 ticks, and 10 at hz=100 (-t 10).  The checks are
# as sharp at 10 as at 20: spinloop takes every tick but the few of the
# clock reads around it, where a check wants half, and one tick counted
# where none may be fails.  They count ticks, not instructions, so the
# slower rates run on a slower processor (run-qemu.sh -i: 2^i virtual
# ns an instruction): under plain -d a tick at hz=100 is 10 M
# instructions, and 387 of them took 8.8 s of the host's CPU; with -i 4
# a tick is 625,000, with -i 2 at hz=1000 250,000 (1.8 s of CPU to 0.7),
# still more than the 100,000 of hz=10000, which keeps a shift of 0.
# The phase checks (hz=1000 or less) want a look at /dev/time, about
# 20,000 instructions, to be small against a tick: 3 and 8 percent.
# At hz=10000 a shift would not pay: spin looks at the clock every
# million instructions or so, and overshoots its ticks by as many more.
for hz in 100 1000 10000; do
	t= i=
	[ $hz = 100 ] && t='-t 10' i='-i 4'
	[ $hz = 1000 ] && i='-i 2'
	guest -d $i -a "hz=$hz" -t 300 -c "profiltest $t; bind -a '#T' /dev; cat /dev/kpctl"
	has "profiltest-hz$hz" '^profiltest: ok$'
	hasnt "profiltest-hz$hz-no-fail" '^FAIL'
	# Under -i the time-stamp counter is no count of instructions, and
	# the kernel says so (kern/clock.c, tscinstr).
	has "profiltest-hz$hz-clock" "^off hz $hz .* clock $([ -n "$i" ] && echo host || echo virtual) "
done
# -i is a shift of -d's clock, and wants a whole one that QEMU takes.
for a in "-i 3" "-d -i 0" "-d -i 11" "-d -i x"; do
	./run-qemu.sh -k $a -c true >"$T/err" 2>&1
	s=$?
	n=${a// /}
	check "shift$n-refused" [ "$s" = 2 ]
	check "shift$n-says" grep -q 'want -d and a shift from 1 to 10' "$T/err"
done

# pcsample's samples of profdemo, deterministic at hz=10000: 3 to 1.
# On one processor: a second, idle, costs the host 0.5 s in 20,000 ticks.
# profdemo runs for 2 s of the clock, which -i 3 makes 250 M
# instructions rather than 2 G (1.9 s of the host's CPU to 0.5): the
# same 20,000 samples, whose 3:1 share has a sampling error of 0.3
# points of the 1 allowed, at a phase drawn at random in each tick
# (kprof's NMI clock, kern/apic.c, nmiclocknext), so that a tick of 12,500 instructions, half
# of a call of spin3 and spin1, aliases with neither: 74.5 percent
# (75.3 at 100,000).
guest -d -i 3 -p 1 -a 'hz=10000' -t 300 -c 'profdemo -s 2'
n=$(sed -nE 's/^pcsample: ([0-9]+) samples$/\1/p' <<<"$out")
s3=$(awk -F'\t' '$3 == "spin3" { print $1 }' <<<"$out")
s1=$(awk -F'\t' '$3 == "spin1" { print $1 }' <<<"$out")
echo "pcsample: $n samples, spin3 $s3 ms, spin1 $s1 ms"
check pcsample-enough-samples [ "${n:-0}" -ge 10000 ]
check pcsample-3-to-1 python3 -c "import sys; a, b = ${s3:-0}, ${s1:-0}; sys.exit(a + b == 0 or abs(100.0 * a / (a + b) - 75) > 1)"

# The same with kprof counting at fixed intervals (kpctl's interval
# fixed): the clock is profil's too, and stays at random phases while
# a process profiles (kern/apic.c, nmiset), or the tick of 12,500
# instructions would alias with profdemo's calls.
guest -d -i 3 -p 1 -a 'hz=10000' -t 300 -c "bind -a '#T' /dev; echo interval fixed > /dev/kpctl; echo startclr > /dev/kpctl; profdemo -s 2; echo stop > /dev/kpctl; cat /dev/kpctl"
n=$(sed -nE 's/^pcsample: ([0-9]+) samples$/\1/p' <<<"$out")
s3=$(awk -F'\t' '$3 == "spin3" { print $1 }' <<<"$out")
s1=$(awk -F'\t' '$3 == "spin1" { print $1 }' <<<"$out")
echo "pcsample beside kprof at fixed intervals: $n samples, spin3 $s3 ms, spin1 $s1 ms"
has pcsample-fixed-kprof-status ' interval fixed '
check pcsample-fixed-enough-samples [ "${n:-0}" -ge 10000 ]
check pcsample-fixed-3-to-1 python3 -c "import sys; a, b = ${s3:-0}, ${s1:-0}; sys.exit(a + b == 0 or abs(100.0 * a / (a + b) - 75) > 1)"

# The same kernel text after profil and pcsample were aimed at it,
# outside -d, at the highest clock rate (the most ticks a second).  The
# boot must also end: in the host's time, a profiled tick that rearmed
# its clock a few counts ahead left the periodic timer firing faster
# than QEMU could take it, and 5 of 8 such boots hung until the count
# had a floor (the ticks are now on the grid; the samples are the NMI
# clock's, which the first processor rearms in the same way).  (profiltest's own
# verdict wants -d, above: its ticks are counted against the clock's.)
guest -a 'hz=10000' -c 'cat /dev/textsum; profiltest > /dev/null; cat /dev/textsum'
check profil-nondet-ended [ "$st" = 0 ]
check profil-kernel-untouched [ "$(grep -cE '^0x' <<<"$out")" = 2 -a "$(grep -E '^0x' <<<"$out" | sort -u | wc -l)" = 1 ]

summary profil
