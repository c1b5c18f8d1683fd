#!/usr/bin/env bash
# The clock's rate (kern/apic.c, calibrate).  Without -d the local APIC
# timer is measured against the 8254 in the host's time, and a stop of
# the processor inside the measure (the host, loaded, running something
# else) made the measure long: a clock up to 160 times too slow, under
# which `usertests; runtest 1` outran the tests' time limit as a hung
# guest would.  The kernel measures again until two agree and keeps the
# least.  Here gdb makes the first measure ten times too long, as such
# a stop would, deterministically under -d, and the clock must come out
# as the other measures say, to 1/1000: not ten times too slow.
# Then its phases after 2^31 ticks (below).
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cat >"$T/stall.py" <<'EOF2'
import gdb
gdb.execute("hbreak calibrate1", to_string=True)
gdb.execute("continue", to_string=True)
gdb.execute("finish", to_string=True)
first = int(gdb.parse_and_eval("$eax")) & 0xffffffff
gdb.execute("set $eax = %d" % (first * 10))
gdb.execute("delete")
gdb.execute("hbreak tscinstr", to_string=True)
gdb.execute("continue", to_string=True)
ticks = int(gdb.parse_and_eval("lapicticks"))
hz = int(gdb.parse_and_eval("hz"))
print("clock: first measure %d counts, made %d; a tick is %d counts at %d hz, %d a millisecond" % (first, first * 10, ticks, hz, ticks * hz // 1000))
gdb.execute("delete")
gdb.execute("continue")
EOF2

gdbguest "$T/stall.py" -p 2 -c 'sleep 100; echo slept'
check guest-status [ "$st" = 0 ]
has guest-slept '^slept$'
out=$(cat "$T/gdb")
read -r first rate <<<"$(sed -nE 's/^clock: first measure ([0-9]+) counts, made [0-9]+; a tick is [0-9]+ counts at [0-9]+ hz, ([0-9]+) a millisecond$/\1 \2/p' <<<"$out")"
echo "clock: a millisecond measured ${first:-?} counts, made ten times that; the clock's ${rate:-?}"
check stall-measured [ "${first:-0}" -gt 0 ]
# Within 1/1000 of the first measure as it was, less the ticks' rounding.
off=$(( ${rate:-0} > ${first:-0} ? ${rate:-0} - ${first:-0} : ${first:-0} - ${rate:-0} ))
check stall-outvoted [ -n "$rate" -a $((off * 1000)) -le $((${first:-0} + 1000)) ]
[ "$fail" = 0 ] || sed 's/^/	| /' "$T/gdb" | tail -20

summary clock
