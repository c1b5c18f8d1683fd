#!/usr/bin/env bash
# Guest tests of the kprof device and formatter: the device's
# own checks (kptest), the seed's example, kpdata carried to the host
# byte for byte, HZ from kpctl, the idle loop, and the accuracy of the
# profile and its stacks against a kernel workload of known proportions,
# part of it with interrupts off.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

guest -c 'kptest'
has kptest '^kptest: ok$'
hasnt kptest-no-fail '^FAIL'

# The seed's example, under -d: the same profile every time.  runtest
# runs 0.5 s rather than its default 3: its 50 ticks give 20-odd rows,
# where the checks want 5 and the path of a system call (which of its
# functions the 50 ticks land in moves as the kernel changes: any that
# only a system call runs will do, the checks of its arguments too).
guest -d -c "bind -a '#T' /dev
echo start > /dev/kpctl
runtest 0.5
echo stop > /dev/kpctl
kprof kernel /dev/kpdata"
has example-total '^total: [0-9]+	in kernel text: [0-9]+	outside kernel text: [0-9]+$'
has example-ktzero '^KTZERO c0100000	HZ 100$'
has example-header '^ms	  %	sym$'
rows=$(grep -cE '^[0-9]+	 *[0-9]+\.[0-9]	[A-Za-z_]' <<<"$out")
check example-many-functions [ "$rows" -ge 5 ]
has example-syscall-path '	(syscall|trap|sysread|syswrite|pfork|kexec|fetchstr|uvalid)$'

# kpdata through /dev/eia1 to the host: the host reads what the guest
# read.  A second run's profile, held against the first's with -c, is
# the same in the guest's kprof and the host's (runs of 0.3 s: what is
# checked is the bytes and the formatting, not the profile).
guest -o "$T/eia1" -c 'echo startclr > /dev/kpctl; runtest 0.3; echo stop > /dev/kpctl
cp /dev/kpdata /tmp/first
echo startclr > /dev/kpctl; runtest 0.3; echo stop > /dev/kpctl
cat /dev/kpdata /tmp/first > /dev/eia1; kprof kernel /dev/kpdata
kprof -c kernel /tmp/first /dev/kpdata'
textsize=$((16#$(readelf -SW o/kernel | sed -nE 's/.* \.text +PROGBITS +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+) .*/\1/p')))
want=$((4 * (3 + (textsize + 7) / 8)))
check eia1-length [ "$(stat -c %s "$T/eia1")" = "$((2 * want))" ]
head -c "$want" "$T/eia1" >"$T/kpdata"
tail -c "$want" "$T/eia1" >"$T/first"
python3 - "$T/kpdata" <<'PY' && ok eia1-big-endian-invariants || bad eia1-big-endian-invariants "cells do not add up as big-endian"
import struct, sys
d = open(sys.argv[1], 'rb').read()
c = struct.unpack('>%dI' % (len(d) // 4), d)
sys.exit(not (c[0] > 0 and sum(c[2:-1]) == c[1] <= c[0]))
PY
o/host/kprof -h 100 o/kernel "$T/kpdata" >"$T/hostkprof"
sed -n '/^total:/,/^exact:/p' <<<"$out" | sed '$d' | grep -v '^clock ' >"$T/guestkprof"
check eia1-same-profile diff -q "$T/hostkprof" "$T/guestkprof"
o/host/kprof -c o/kernel "$T/first" "$T/kpdata" | sed -n '/^sampled\t/,$p' >"$T/hostcmp"
sed -n '/^sampled\t/,$p' <<<"$out" >"$T/guestcmp"
check compare-guest-as-host diff -q "$T/hostcmp" "$T/guestcmp"
has compare-distance '^total variation: [0-9]+\.[0-9][0-9] points$'
has compare-sampling '^sampling alone: median [0-9]+\.[0-9][0-9], 95th percentile [0-9]+\.[0-9][0-9] points \(1000 simulated profiles of [0-9]+ ticks drawn from the exact shares\)$'

guest -a 'hz=1000' -c 'echo startclr > /dev/kpctl; sleep 1; echo stop > /dev/kpctl; cat /dev/kpctl; kprof kernel /dev/kpdata'
has hz-from-kpctl '^KTZERO c0100000	HZ 1000$'
has kpctl-status '^off hz 1000 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus [0-9]+ cut 0 stacks on clock host interval fixed pid all arcs off drop 0$'
first=$(grep -A1 '^ms' <<<"$out" | tail -1)
check idle-on-top grep -qE '	idle$' <<<"$first"

# Accuracy where interrupts are off, and the stacks: 3 parts in spina to
# 1 in chainc (#S's "c", through chaina and chainb), which spins with
# interrupts off, deterministic, at hz=10000, on 1 processor.  The two
# loops are the same 9 instructions an iteration (see spina and chainc
# in o/kernel), so the shares of the ticks are those of the iterations,
# 75 and 25 percent.  The ticks held off by cli land in chainc, not in
# splx, which turns interrupts back on once every 65536 iterations, nor
# in unlock or popcli: those three get under 0.2 percent (a tick
# credited where interrupts came back on would give splx 25).  Each
# kernel tick has a stack, and those of chainc are all chainc <- chainb
# <- chaina <- spinwrite, as many as its bins hold.
guest -T -d -p 1 -a 'hz=10000' -t 300 -o "$T/spin" -c "bind -a '#S' /dev
echo startclr > /dev/kpctl
echo a 93000000 > /dev/spinctl
echo c 31000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1"
python3 tools/test/kpcheck.py "$kernel" "$T/spin" spina:spinwrite chainc:chainb,chaina,spinwrite splx unlock popcli >"$T/facts"
a=$(fact bins spina) c=$(fact bins chainc)
echo "spina $a ticks, chainc $c ticks, of $(fact kernel) kernel ticks"
check accuracy-enough-ticks [ $((${a:-0} + ${c:-0})) -ge 10000 ]
check accuracy-within-1-point python3 -c "import sys; a, c = $a, $c; sys.exit(abs(100.0 * c / (a + c) - 25) > 1)"
check accuracy-not-at-splx python3 -c "import sys; sys.exit(not 1000 * ($(fact bins splx) + $(fact bins unlock) + $(fact bins popcli)) < 2 * $(fact kernel))"
check kpstack-form [ "$(fact badlines)" = 0 -a "$(fact repeats)" = 0 ]
check kpstack-sums-to-cells [ "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact binsum)" = "$(fact kernel)" ]
check kpstack-chain-is-bins [ "$(fact chain chainc)" = "$c" -a "$(fact leaf chainc)" = "$c" -a "$c" -gt 0 ]
check kpstack-spina-is-bins [ "$(fact chain spina)" = "$a" -a "$(fact leaf spina)" = "$a" ]

# A clock that cannot alias: alias sleeps to each of the scheduler's
# ticks, then spins half a tick in spina (55547 of its 9-instruction
# iterations: 500,000 instructions, half of a tick at hz=1000 under -d
# on 1 processor), and idles the other half.  kprof's random intervals
# find spina half the time, within 2 points; with intervals fixed
# (kpctl's interval fixed) the clock ticks at the same phase of every
# one of alias's rounds, and finds it at every sample or at none (alias
# starts kprof a quarter of a tick into a round: at every sample).
# The random run has 5,000 rounds, whose share has a sampling error of
# 0.7 points against the 2 allowed; the fixed run 1,000: were its
# samples random, their share would be 50 with an error of 1.6 points,
# where it must be within 5 of 0 or of 100.
guest -T -d -p 1 -a 'hz=1000' -t 300 -c "bind -a '#S' /dev
alias 5000 55547
echo stop > /dev/kpctl
kprof kernel /dev/kpdata
echo interval fixed > /dev/kpctl
cat /dev/kpctl
alias 1000 55547
echo stop > /dev/kpctl
kprof kernel /dev/kpdata"
read -r rnd fix <<<"$(awk -F'\t' '/^total:/ { n++; s[n] = 0 } $3 == "spina" { s[n] = $2 + 0 } END { print s[1] + 0, s[2] + 0 }' <<<"$out")"
echo "alias's half tick in spina: random intervals $rnd%, fixed intervals $fix%"
has alias-rounds '^alias: 5000 rounds of 55547$'
has interval-fixed-status '^off hz 1000 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus 1 cut 0 stacks on clock virtual interval fixed pid all arcs off drop 0$'
check alias-random-half python3 -c "import sys; sys.exit(not abs($rnd - 50) <= 2)"
check alias-fixed-all-or-none python3 -c "import sys; sys.exit(not ($fix <= 5 or $fix >= 95))"
has clock-virtual-header '^clock virtual \(one instruction a nanosecond, -d\)$'

# kprof's rate beside a process that profiles itself, whose samples
# come from the same NMI clock (kern/prof.c, profnmi), which profil
# keeps on, and must not start twice: kprof's samples are drawn from
# the first processor's grid and keep HZ.  When the ticks of a process
# that profiled came at random phases and the samples were drawn from
# the ticks, 2 s of profdemo -p at 1000 Hz had 1690 samples.
guest -d -p 1 -a hz=1000 -t 300 -c 'cat /dev/time; echo startclr > /dev/kpctl; profdemo -p 2 > /dev/null; echo stop > /dev/kpctl; cat /dev/time; cat /dev/kpcpu'
read -r t0 t1 n < <(awk '/^[0-9]+ 1000$/ { t[++k] = $1 } /^cpu 0 total / { n = $4 } END { print t[1], t[2], n }' <<<"$out")
echo "kprof beside profil: $n samples in $((t1 - t0)) ticks"
check rate-beside-profil python3 -c "import sys; sys.exit(not abs($n - ($t1 - $t0)) <= 0.01 * ($t1 - $t0))"

summary kprof
