#!/usr/bin/env bash
# Guest tests of the multiprocessor kernel: run-qemu.sh's -p;
# with 1, 2 and 4 processors every one runs user processes; usertests
# and fuzz on 4; kpdata's invariants, and cell 0 the sum of the
# per-processor counts, after heavy concurrent work on 4; a kernel
# workload of known proportions spread over 2, part of it with
# interrupts off, attributed within a percentage point, and its stacks; a descriptor shared by two
# processes on two; the lock panics.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# Bad -p: refused before anything boots, with a clear message.
for p in 0 9 x 12 ''; do
	./run-qemu.sh -k -p "$p" -c 'echo booted' >"$T/p" 2>&1
	s=$?
	check "p-'$p'-refused" [ "$s" = 2 ]
	check "p-'$p'-message" grep -qx "run-qemu.sh: -p wants a number of processors from 1 to 8, not '$p'" "$T/p"
	check "p-'$p'-not-booted" [ "$(grep -c booting "$T/p")" = 0 ]
done
check p-in-usage grep -q -- '-p CPUS .*1 to 8 (default 2)' <(./run-qemu.sh -h)
check p-in-readme grep -q -- '-p N' README.md

# Every processor runs user processes: four spinners at once, and each
# processor's user ticks (total less kernel) in kpcpu, at least 5 of
# its 100 or so.  Under -d, where QEMU takes the processors in turns
# (with 3 or more, of uneven lengths: kern/clock.c), each processor's
# clock still ticks 100 times in the second, and finds it in its
# spinner, whatever its share of the turns; outside -d a busy host
# might run a processor's thread little of the second.  On a slower
# processor (-i 3: 125 M instructions a second, not 10^9): the kernel
# then takes the time-stamp counter for the host's clock, as outside
# -d, and kpctl says so; the three boots cost the host 3 s of CPU
# outside -d.
for n in 1 2 4; do
	guest -d -i 3 -p $n -t 300 -c "bind -a '#T' /dev
echo startclr > /dev/kpctl
spin 1 | spin 1 | spin 1 | spin 1
echo stop > /dev/kpctl
cat /dev/kpctl /dev/kpcpu"
	has "cpus-$n-booted" "^[0-9]+ MB, [0-9]+ free pages, hz 100, $n cpu$([ $n = 1 ] || echo s)\$"
	has "cpus-$n-kpctl" "^off hz 100 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus $n cut 0 stacks on clock host interval fixed pid all arcs off drop 0$"
	check "cpus-$n-kpcpu-lines" [ "$(grep -cE '^cpu [0-9]+ total [0-9]+ kernel [0-9]+$' <<<"$out")" = $n ]
	busy=$(awk '$1 == "cpu" && $4 - $6 >= 5 { n++ } END { print n + 0 }' <<<"$out")
	check "cpus-$n-all-run-user" [ "$busy" = $n ]
done

# Both boot paths find every processor.
guest -iso -p 4 -c "bind -a '#T' /dev; cat /dev/kpctl"
has iso-4-cpus "^off hz 100 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus 4 cut 0 stacks on clock host interval fixed pid all arcs off drop 0$"
guest -p 8 -c "bind -a '#T' /dev; cat /dev/kpctl"
has kernel-8-cpus "^off hz 100 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus 8 cut 0 stacks on clock host interval fixed pid all arcs off drop 0$"

# usertests and fuzz on 4 processors, and nothing lost or written over.
# fuzz's seed is not fuzz.sh's, whose first calls these would be.
guest -p 4 -t 900 -c 'cat /dev/textsum; cat /dev/sysstat; usertests; fuzz 100000 2; cat /dev/sysstat; cat /dev/textsum'
has usertests-4 '^usertests: ok$'
has fuzz-4 'fuzz: 100000 calls, ok$'
hasnt no-panic-4 'panic'
before=$(grep -E '^pages' <<<"$out" | head -1 | awk '{print $4}')
after=$(grep -E '^pages' <<<"$out" | tail -1 | awk '{print $4}')
check no-page-leak-4 [ -n "$before" -a "$before" = "$after" ]
textintact text-intact-4

# kpdata after heavy concurrent work on 4: the invariants hold exactly,
# and cells 0 and 1 are the sums of kpcpu's totals and kernel ticks.
guest -T -p 4 -t 900 -o "$T/kp4" -c "bind -a '#T' /dev; bind -a '#S' /dev
echo startclr > /dev/kpctl
usertests > /dev/null | echo a 30000000 > /dev/spinctl | spin 1 | runtest 1 > /dev/null | echo b 30000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpdata > /dev/eia1
cat /dev/kpcpu"
grep -E '^cpu ' <<<"$out" >"$T/kpcpu"
python3 - "$T/kp4" "$T/kpcpu" <<'PY' && ok kpdata-4-invariants || bad kpdata-4-invariants "kpdata and kpcpu do not agree"
import struct, sys
d = open(sys.argv[1], 'rb').read()
c = struct.unpack('>%dI' % (len(d) // 4), d)
cpus = [l.split() for l in open(sys.argv[2])]
tot = sum(int(l[3]) for l in cpus)
ker = sum(int(l[5]) for l in cpus)
print("kpdata: %d ticks, %d kernel; kpcpu: %d cpus, %d ticks, %d kernel" % (c[0], c[1], len(cpus), tot, ker))
sys.exit(not (len(cpus) == 4 and c[0] >= 200 and sum(c[2:-1]) == c[1] <= c[0] and c[0] == tot and c[1] == ker
	and all(int(l[3]) > 0 for l in cpus)))
PY

# Accuracy over 2 processors where interrupts are off: 3 parts in
# spina to 1 in chainc, which spins with them off, in two processes at
# once, one on each, deterministic, at hz=10000.  Under -d QEMU runs
# the processors in turn, and a processor's ticks count the time of
# both: a tick samples the workload fairly only while both make
# progress, and a processor waiting for its turn is sampled where its
# last one ended; and as both run, each counts half its ticks
# (dev/kpnmi.c, thinned).  Both loops pause every 256 iterations (dev/devspin.c),
# which ends a turn at a pc of the loop itself, so that the turns are
# even with kprof's NMI clock on.  Each process takes turns of 3 parts
# in spina and 1 in chainc, 25 of them: 18,000 ticks, whose share has a
# sampling error of 0.3 points (the run gives chainc 24.9 percent; twice
# the work gave 24.8).  The ticks held off by cli land in chainc, not in
# splx, unlock or popcli, whose sti turns them back on (under 0.2
# percent together); neither processor idles (under 2 percent: with
# the turns uneven one process ended a third of the run before the
# other, 16 percent idle).  The
# stacks, merged over the processors, sum to cell 1, and chainc's are
# all chainc <- chainb <- chaina <- spinwrite, as many as its bins hold.
guest -T -d -p 2 -a 'hz=10000' -t 600 -o "$T/spin" -c "bind -a '#S' /dev; bind -a '#T' /dev
echo 'echo a 3000000 > /dev/spinctl' > /tmp/t
echo 'echo c 1000000 > /dev/spinctl' >> /tmp/t
cat /tmp/t /tmp/t /tmp/t /tmp/t /tmp/t > /tmp/t5
cat /tmp/t5 /tmp/t5 /tmp/t5 /tmp/t5 /tmp/t5 > /tmp/t25
echo startclr > /dev/kpctl
sh /tmp/t25 | sh /tmp/t25
echo stop > /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1
cat /dev/kpcpu"
python3 tools/test/kpcheck.py "$kernel" "$T/spin" spina chainc:chainb,chaina,spinwrite splx unlock popcli idle >"$T/facts"
a=$(fact bins spina) c=$(fact bins chainc)
echo "spina $a ticks, chainc $c ticks, idle $(fact bins idle), of $(fact kernel) kernel ticks"
check accuracy-2-enough-ticks [ $((${a:-0} + ${c:-0})) -ge 10000 ]
check accuracy-2-within-1-point python3 -c "import sys; a, c = $a, $c; sys.exit(abs(100.0 * c / (a + c) - 25) > 1)"
check accuracy-2-not-at-splx python3 -c "import sys; sys.exit(not 1000 * ($(fact bins splx) + $(fact bins unlock) + $(fact bins popcli)) < 2 * $(fact kernel))"
check accuracy-2-not-idle python3 -c "import sys; sys.exit(not 100 * $(fact bins idle) < 2 * $(fact kernel))"
kernel=$(awk '$1 == "cpu" && $6 >= 2000 { n++ } END { print n + 0 }' <<<"$out")
check accuracy-2-both-cpus [ "$kernel" = 2 ]
check kpstack-2-sums-to-cells [ "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact badlines)" = 0 -a "$(fact repeats)" = 0 ]
check kpstack-2-chain-is-bins [ "$(fact chain chainc)" = "$c" -a "$c" -gt 0 ]

# Two processes share a descriptor (by fork and dup) on two processors:
# writes and reads through it take turns at its offset.
guest -p 2 -c 'shareoff; shareoff 5000'
check shareoff-2-cpus [ "$(grep -c '^shareoff: ok$' <<<"$out")" = 2 ]
hasnt shareoff-no-fail '^shareoff: FAIL'

# A lock taken twice by one processor, or let go of by one that does
# not hold it: a panic that names it, and QEMU off with status 1.  Only
# the kernel command line (who boots) asks for these.
guest -T -a 'locktest=twice' -c 'echo reached'
has locktest-twice-panic '^panic: lock locktest: already held \(at pc 0xc01[0-9a-f]+\)'
check locktest-twice-status [ "$st" = 1 ]
hasnt locktest-twice-stopped '^reached$'
guest -T -a 'locktest=unheld' -c 'echo reached'
has locktest-unheld-panic '^panic: unlock locktest: not held'
check locktest-unheld-status [ "$st" = 1 ]
hasnt locktest-unheld-stopped '^reached$'
# Any other value is refused with a warning, as arcprobes= and kpring=
# refuse theirs, and the boot goes on.
guest -T -a 'locktest=thrice' -c 'echo reached'
has locktest-bad-warns '^warning: locktest=thrice: not twice or unheld$'
hasnt locktest-bad-no-panic '^panic'
has locktest-bad-reached '^reached$'
check locktest-bad-status [ "$st" = 0 ]
# The kernel users boot has neither: locktest= is an unknown word, #S
# an unknown device.
guest -a 'locktest=twice' -c 'echo reached; ls "#S"; echo s $status'
has user-kernel-no-locktest '^warning: unknown kernel command-line word locktest=twice$'
has user-kernel-reached '^reached$'
has user-kernel-no-spin '^s 1$'

# Equal turns on 2 processors under -d: #S's spina, the same count in
# two processes at once, one on each processor; each says the tick it
# ended at, and equal turns end them together (within 2 percent).
guest -T -d -p 2 -a 'hz=10000' -t 300 -c "bind -a '#S' /dev
echo 'echo a 20000000 > /dev/spinctl; cat /dev/time > /dev/cons' > /tmp/s
cat /dev/time
sh /tmp/s | sh /tmp/s"
read -r t0 t1 t2 <<<"$(grep -E '^[0-9]+ 10000$' <<<"$out" | awk '{ print $1 }' | tr '\n' ' ')"
echo "equal turns: from tick $t0, the spins end at ticks $t1 and $t2"
check turns-2-equal python3 -c "import sys; a, b = $t1 - $t0, $t2 - $t0; sys.exit(not (a > 1000 and abs(a - b) * 100 <= 2 * min(a, b)))"

# -d is deterministic on 2 processors: the same run, the same counts.
# At 1000 Hz, runtest for 0.3 s: 600 ticks of the two processors to
# compare, where 1 s at 100 Hz gave 200, for a third of the work.
guest -T -d -p 2 -a hz=1000 -o "$T/det2" -c "bind -a '#S' /dev; bind -a '#T' /dev
echo startclr > /dev/kpctl
echo a 3000000 > /dev/spinctl | echo b 1000000 > /dev/spinctl | runtest 0.3 > /dev/null
echo stop > /dev/kpctl
cat /dev/kpdata > /dev/eia1"
cp "$T/det2" "$T/det1"
guest -T -d -p 2 -a hz=1000 -o "$T/det2" -c "bind -a '#S' /dev; bind -a '#T' /dev
echo startclr > /dev/kpctl
echo a 3000000 > /dev/spinctl | echo b 1000000 > /dev/spinctl | runtest 0.3 > /dev/null
echo stop > /dev/kpctl
cat /dev/kpdata > /dev/eia1"
check deterministic-2 cmp -s "$T/det1" "$T/det2"
summary mp
