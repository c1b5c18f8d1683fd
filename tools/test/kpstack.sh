#!/usr/bin/env bash
# Guest tests of kprof's NMI and #T/kpstack: the NMI gives
# user mode back its segment registers and direction flag; a table
# that fills up cuts stacks and says so, the counts still summing to
# cell 1; stacks are cut at 32 frames; startclr clears them; kpctl's
# stacks off keeps kpstack empty while kpdata counts; a buffer of
# samples that fills cuts them and says so; and reads
# of kpstack in storms of kpctl commands, from several processes on
# several processors, panic nothing and leave the kernel text as it was.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# First, with kprof's NMI at 10000 Hz: segs leaves every selector it
# can in the segment registers, and atk_df the direction flag set, in
# user mode, where the NMI finds them and must give them back.  Then
# #S's tree: 1024 paths, each a distinct stack 34 frames deep, more
# than one processor's table keeps whole; then runtest, whose kernel
# stacks, cut, leave their pcs in their bins, and bench's loop in user
# mode, whose stacks find the table full and are cut to their leaves,
# the mark and the pc, in room kept for them, which still say where
# the user ticks were.  Then
# startclr and stop at once: the stacks are gone, and nothing is cut.
guest -T -d -p 1 -a 'hz=10000' -t 300 -o "$T/full" -c "bind -a '#S' /dev
echo start > /dev/kpctl
segs; atk_df; atk_df fork
echo stop > /dev/kpctl
echo startclr > /dev/kpctl
echo t 22000 > /dev/spinctl
runtest 1 > /dev/null
bench 30000 > /dev/null
echo stop > /dev/kpctl
cat /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1
echo END > /dev/eia1
echo startclr > /dev/kpctl
echo stop > /dev/kpctl
cat /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1"
# The two dumps: kpdata, of known length, kpstack, END, and again.
size=$((4 * (3 + ($((16#$(readelf -SW "$kernel" | sed -nE 's/.* \.text +PROGBITS +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+) .*/\1/p'))) + 7) / 8)))
python3 - "$T/full" "$size" "$T/full1" "$T/full2" <<'PY'
import sys
d, n = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
i = d.find(b'END\n', n)
open(sys.argv[3], 'wb').write(d[:i])
open(sys.argv[4], 'wb').write(d[i + 4:])
PY
has nmi-segs '^segs: 592 cases ok$'
has nmi-df-read '^atk_df: read [0-9]+ survived$'
has nmi-df-fork '^atk_df: fork survived$'
hasnt nmi-no-panic 'panic|kernel trap'
cut1=$(grep -E '^off hz' <<<"$out" | head -1 | awk '{ for(i = 1; i < NF; i++) if($i == "cut") print $(i+1) }')
cut2=$(grep -E '^off hz' <<<"$out" | tail -1 | awk '{ for(i = 1; i < NF; i++) if($i == "cut") print $(i+1) }')
python3 tools/test/kpcheck.py "$kernel" "$T/full1" spinnode >"$T/facts"
echo "full table: $(fact kernel) kernel ticks, $(fact lines) lines, $cut1 cut, $(fact leafonly) of one pc, deepest $(fact depth)"
check full-says-cut [ "${cut1:-0}" -gt 0 ]
check full-sums-to-cells [ "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact badlines)" = 0 -a "$(fact kernel)" -ge 1000 ]
check full-cut-to-leaf [ "$(fact leafonly)" -gt 0 ]
check full-one-line-a-stack [ "$(fact repeats)" = 0 ]
check full-32-frames [ "$(fact depth)" = 32 ]
check full-tree-counted [ "$(fact leaf spinnode)" = "$(fact bins spinnode)" ]
echo "full table: $(fact uleaf) of $(($(fact ticks) - $(fact kernel))) user ticks with their pc"
check full-user-leaves [ "$(($(fact ticks) - $(fact kernel)))" -ge 1000 -a "$((100 * $(fact uleaf)))" -ge "$((99 * ($(fact ticks) - $(fact kernel))))" ]
python3 tools/test/kpcheck.py "$kernel" "$T/full2" spinnode >"$T/facts"
check startclr-clears-cut [ "$cut2" = 0 ]
check startclr-clears-stacks [ "$(fact leaf spinnode)" = 0 -a "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact badlines)" = 0 ]

# kpctl's stacks: bad arguments refused; off, kpdata counts and kpstack
# stays empty; on again, the stacks add up to the cells.  A run that
# turns them off between a stop and a start keeps the stacks of the
# ticks before, which add up to the cells as they were then, and
# none after.  On 2 processors, whose drains and reads meet.
guest -T -d -p 2 -a 'hz=10000' -t 300 -o "$T/onoff" -c "bind -a '#S' /dev
echo stacks > /dev/kpctl
echo stacks maybe > /dev/kpctl
echo stacks on off > /dev/kpctl
echo stacks ON > /dev/kpctl
echo stacks off > /dev/kpctl
cat /dev/kpctl
echo startclr > /dev/kpctl
echo a 30000000 > /dev/spinctl & echo c 10000000 > /dev/spinctl
echo stop > /dev/kpctl
echo == off
cat /dev/kpstack
echo == end
cat /dev/kpdata > /dev/eia1
echo stacks on > /dev/kpctl
cat /dev/kpctl
echo startclr > /dev/kpctl
echo a 30000000 > /dev/spinctl & echo c 10000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1
echo END > /dev/eia1
echo startclr > /dev/kpctl
echo a 15000000 > /dev/spinctl
echo stop > /dev/kpctl
echo stacks off > /dev/kpctl
cat /dev/kpdata > /dev/eia1
echo start > /dev/kpctl
echo a 15000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1"
python3 - "$T/onoff" "$size" "$T/off" "$T/on" "$T/half" "$T/after" <<'PY'
import sys
d, n = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
open(sys.argv[3], 'wb').write(d[:n])
i = d.find(b'END\n', 2 * n)
open(sys.argv[4], 'wb').write(d[n:i])
open(sys.argv[5], 'wb').write(d[i + 4:i + 4 + n])
open(sys.argv[6], 'wb').write(d[i + 4 + n:])
PY
check stacks-bad-args [ "$(grep -c '^echo: write error: bad control message$' <<<"$out")" = 4 ]
has stacks-off-status ' cut 0 stacks off clock '
has stacks-on-status ' cut 0 stacks on clock '
check stacks-off-empty [ -z "$(block off)" ]
python3 tools/test/kpcheck.py "$kernel" "$T/off" >"$T/facts"
off=$(fact ticks) offk=$(fact kernel)
python3 tools/test/kpcheck.py "$kernel" "$T/on" >"$T/facts"
echo "stacks off: $off ticks, $offk in the kernel; on: $(fact ticks) ticks, $(fact stacksum) in kpstack"
check stacks-off-counts [ "${off:-0}" -ge 1000 -a "${offk:-0}" -ge 1000 ]
check stacks-on-sums [ "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact badlines)" = 0 -a "$(fact ticks)" -ge 1000 ]
python3 tools/test/kpcheck.py "$kernel" "$T/half" >"$T/facts"
half=$(fact ticks) halfk=$(fact kernel)
python3 tools/test/kpcheck.py "$kernel" "$T/after" spina >"$T/facts"
echo "stacks on, then off: $half ticks, then $(fact ticks); $(fact stacksum) in kpstack"
check stacks-half-sums [ "$(fact stacksum)" = "$half" -a "$(fact kstacksum)" = "$halfk" -a "$(fact ticks)" -ge $((half + 1000)) ]
hasnt stacks-no-panic 'panic|kernel trap'

# A buffer of samples that fills: with 64 words a processor (the test
# kernel's kpring=), #S's chainc, which holds interrupts off for 65536
# iterations at a time, takes ticks faster than its clock drains them.
# The stacks with no room are cut, counted in kpctl's cut, and their
# ticks are in their bins, so that the lines still add up to the cells.
guest -T -d -p 1 -a 'hz=10000 kpring=64' -t 300 -o "$T/ring" -c "bind -a '#S' /dev
echo startclr > /dev/kpctl
echo c 3000000 > /dev/spinctl
echo stop > /dev/kpctl
cat /dev/kpctl
cat /dev/kpdata /dev/kpstack > /dev/eia1"
cut=$(grep -E '^off hz' <<<"$out" | awk '{ for(i = 1; i < NF; i++) if($i == "cut") print $(i+1) }')
python3 tools/test/kpcheck.py "$kernel" "$T/ring" chainc:chainb,chaina,spinwrite >"$T/facts"
echo "a ring of 64 words: $(fact bins chainc) ticks in chainc, $cut cut, $(fact chain chainc) with its whole stack"
hasnt ring-no-warning 'warning'
check ring-says-cut [ "${cut:-0}" -gt 0 ]
check ring-sums-to-cells [ "$(fact stacksum)" = "$(fact ticks)" -a "$(fact kstacksum)" = "$(fact kernel)" -a "$(fact badlines)" = 0 ]
check ring-cut-in-bins [ "$(fact leaf chainc)" = "$(fact bins chainc)" -a "$(fact chain chainc)" -lt "$(fact bins chainc)" -a "$(fact chain chainc)" -gt 0 ]

# Storms, on 4 processors: kpctl's commands, kpstack's reads at odd
# offsets and lengths and into bad buffers, and NMIs in code with
# interrupts off and in deep stacks, all at once.
guest -T -d -p 4 -t 300 -c "bind -a '#S' /dev
cat /dev/textsum; cat /dev/sysstat
atk_kpstack 400
atk_kpstack 400 > /tmp/o1 | atk_kpstack 400
cat /tmp/o1; rm /tmp/o1
cat /dev/sysstat; cat /dev/textsum"
check storm-ok [ "$(grep -c '^atk_kpstack: ok$' <<<"$out")" = 3 ]
hasnt storm-no-fail 'FAIL|panic|kernel trap'
textintact storm-text-intact
pagesback storm-pages-back

summary kpstack
