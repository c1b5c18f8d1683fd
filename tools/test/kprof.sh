#!/usr/bin/env bash
# Guest tests of the kprof device and formatter (issue 3): the device's
# own checks (kptest), the seed's example, kpdata carried to the host
# byte for byte, HZ from kpctl, the idle loop, and the accuracy of the
# profile against a kernel workload of known proportions.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

guest -c 'kptest'
has kptest '^kptest: ok$'
hasnt kptest-no-fail '^FAIL'

# The seed's example, as typed.
guest -c "bind -a '#T' /dev
echo start > /dev/kpctl
runtest
echo stop > /dev/kpctl
kprof kernel /dev/kpdata"
has example-total '^total: [0-9]+	in kernel text: [0-9]+	outside kernel text: [0-9]+$'
has example-ktzero '^KTZERO c0100000	HZ 100$'
has example-header '^ms	  %	sym$'
rows=$(grep -cE '^[0-9]+	 *[0-9]+\.[0-9]	[A-Za-z_]' <<<"$out")
check example-many-functions [ "$rows" -ge 5 ]
has example-syscall-path '	(syscall|trap|sysread|syswrite|pfork|kexec)$'

# kpdata through /dev/eia1 to the host: the host reads what the guest read.
guest -o "$T/kpdata" -c 'echo startclr > /dev/kpctl; runtest 1; echo stop > /dev/kpctl
cat /dev/kpdata > /dev/eia1; kprof kernel /dev/kpdata'
textsize=$((16#$(readelf -SW o/kernel | sed -nE 's/.* \.text +PROGBITS +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+) .*/\1/p')))
want=$((4 * (2 + (textsize + 7) / 8)))
check eia1-length [ "$(stat -c %s "$T/kpdata")" = "$want" ]
python3 - "$T/kpdata" <<'PY' && ok eia1-big-endian-invariants || bad eia1-big-endian-invariants "cells do not add up as big-endian"
import struct, sys
d = open(sys.argv[1], 'rb').read()
c = struct.unpack('>%dI' % (len(d) // 4), d)
sys.exit(not (c[0] > 0 and sum(c[2:]) == c[1] <= c[0]))
PY
o/host/kprof -h 100 o/kernel "$T/kpdata" >"$T/hostkprof"
sed -n '/^total:/,$p' <<<"$out" >"$T/guestkprof"
check eia1-same-profile diff -q "$T/hostkprof" "$T/guestkprof"

guest -a 'hz=1000' -c 'echo startclr > /dev/kpctl; sleep 1; echo stop > /dev/kpctl; cat /dev/kpctl; kprof kernel /dev/kpdata'
has hz-from-kpctl '^KTZERO c0100000	HZ 1000$'
has kpctl-status '^off hz 1000 bin 8 text 0xc0100000 etext 0xc01[0-9a-f]+ cpus [0-9]+$'
first=$(grep -A1 '^ms' <<<"$out" | tail -1)
check idle-on-top grep -qE '	idle$' <<<"$first"

# Accuracy: 3 parts in spina to 1 in spinb, deterministic, at hz=10000:
# about 11,500 ticks of the two.
guest -d -a 'hz=10000' -t 300 -o "$T/spin" -c "bind -a '#S' /dev
echo startclr > /dev/kpctl
echo a 96000000 > /dev/spinctl
echo b 32000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpdata > /dev/eia1"
o/host/kprof -h 1000 o/kernel "$T/spin" >"$T/spinprof"
a=$(awk -F'\t' '$3 == "spina" { print $1 }' "$T/spinprof")
b=$(awk -F'\t' '$3 == "spinb" { print $1 }' "$T/spinprof")
echo "spina $a ticks, spinb $b ticks"
check accuracy-enough-ticks [ $((${a:-0} + ${b:-0})) -ge 10000 ]
check accuracy-within-1-point python3 -c "import sys; a, b = $a, $b; sys.exit(abs(100.0 * a / (a + b) - 75) > 1)"

summary kprof
