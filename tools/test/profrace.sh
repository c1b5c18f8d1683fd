#!/usr/bin/env bash
# The profilers' look at a counter's page table entry and their write
# at its user address (uaddsat16, uput32: kern/fns.h) run with
# interrupts off, also on the way back from a system call, which turned
# them on: else sbrk's shootdown could fall between the two, and the
# write land, after sbrk returned, in the zeroes of a page given back
# (kern/trap.c).  gdb stops at each of those looks (the testb that
# the section ufixups lists for each) while atk_prof mix's threads tick
# in loops of system calls, 300 times (tens of them on a system call's
# way back), and counts those with interrupts on: none.  Before the
# fix, a third of them had.  Then gdb changes the counter before each
# of uaddsat16's swaps, 20 adds, as a thread writing it without pause
# may: each add gives up after 64 swaps (Maxswaps, kern/fns.h), where
# it spun on, interrupts off, for as long as the writes went on.
# Last, as atk_prof churn starts threads in images that profile, gdb
# owes 10 of them a tick as they first run (forkret), and their looks
# too find interrupts off; before the fix, about half had them on.
# Then atk_clock steady turns kprof on and off beside profil, and each
# 1/HZ keeps its sample (before the fix, a kprof start wrote the NMI
# clock's count again, and 15 percent were lost); and atk_clock clock
# turns the profilers on and off from threads that fork, exec, fault
# and are killed, while kpctl starts, stops and changes the clock:
# once all are gone and kprof is stopped, gdb finds no image counted
# as profiling (kern/apic.c, nmiprof) and the clock off.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cat >"$T/race.py" <<'EOF'
import gdb, re
N = 300
gdb.execute("set trust-readonly-sections on")
lo = int(gdb.parse_and_eval("(unsigned)&ufixups"))
hi = int(gdb.parse_and_eval("(unsigned)&eufixups"))
pcs = [int(gdb.parse_and_eval("*(unsigned*)%d" % a)) for a in range(lo, hi, 8)]
# A look at the entry is the first listed of its write's instructions: a testb.
looks = set()
for pc in pcs:
    if gdb.execute("x/i %d" % pc, to_string=True).find("testb") >= 0:
        looks.add(pc)
for pc in sorted(looks):
    gdb.execute("hbreak *%d" % pc, to_string=True)
hits = sys = on = 0
while hits < N:
    gdb.execute("continue", to_string=True)
    hits += 1
    if int(gdb.parse_and_eval("$eflags")) & 0x200:
        on += 1
    if int(gdb.parse_and_eval("$up()->ureg->trap")) == 64:
        sys += 1
print("profrace: %d looks (%d instructions): %d on a system call's way back, %d with interrupts on" % (hits, len(looks), sys, on))
gdb.execute("delete")
# Then gdb changes the counter before each swap of uaddsat16's, as a
# thread writing it without pause may: each add gives up, after a
# bounded number of swaps, by the next look on its processor.
cas = [pc for pc in pcs if gdb.execute("x/i %d" % pc, to_string=True).find("cmpxchg") >= 0][0]
reg = re.search(r"cmpxchg %\w+,\(%(\w+)\)", gdb.execute("x/i %d" % cas, to_string=True)).group(1)
look = max(pc for pc in looks if pc < cas)
gdb.execute("hbreak *%d" % look, to_string=True)
gdb.execute("hbreak *%d" % cas, to_string=True)
runs = {}
adds = longest = 0
while adds < 20 and longest <= 1000:
    gdb.execute("continue", to_string=True)
    cpu = gdb.selected_thread().num
    if int(gdb.parse_and_eval("$pc")) == look:
        if runs.get(cpu, 0) > 0:
            adds += 1
        runs[cpu] = 0
    else:
        runs[cpu] = runs.get(cpu, 0) + 1
        longest = max(longest, runs[cpu])
        gdb.execute("set var *(unsigned short*)$%s += 1" % reg)
print("profrace: %d adds under writes, the longest %d swaps" % (adds, longest))
gdb.execute("delete")
# A new thread's first way back (forkret), in an image that profiles:
# a tick may fall after the scheduler's lock goes, which turned
# interrupts on.  gdb owes it one there, and its look must find them
# off as well.
firsts = on = 0
while firsts < 10:
    gdb.execute("hbreak forkret", to_string=True)
    gdb.execute("continue", to_string=True)
    gdb.execute("delete")
    if int(gdb.parse_and_eval("$up()->img->prof.span")) == 0:
        continue
    cpu = gdb.selected_thread().num
    gdb.execute("set var $up()->profowed = 1")
    for pc in sorted(looks):
        gdb.execute("hbreak *%d" % pc, to_string=True)
    while True:
        gdb.execute("continue", to_string=True)
        if gdb.selected_thread().num == cpu:
            break
    gdb.execute("delete")
    firsts += 1
    if int(gdb.parse_and_eval("$eflags")) & 0x200:
        on += 1
print("profrace: %d first looks of new threads, %d with interrupts on" % (firsts, on))
# The clock once atk_clock clock is done: at the cat of kpctl after it.
gdb.execute("hbreak kprofread", to_string=True)
while True:
    gdb.execute("continue", to_string=True)
    if gdb.parse_and_eval("$up()->name").string().endswith("cat"):
        break
gdb.execute("delete")
print("profrace: clock: %d images profile, on %d" % (int(gdb.parse_and_eval("nmiprof")), int(gdb.parse_and_eval("nmion"))))
gdb.execute("continue")
EOF

gdbguest "$T/race.py" -p 2 -a 'hz=10000' -c 'atk_prof mix 300; atk_prof churn 300; atk_clock steady 3000; atk_clock clock 1000; cat /dev/kpctl'
check guest-status [ "$st" = 0 ]
has atk_prof-mix '^atk_prof: mix: ok$'
has atk_prof-churn '^atk_prof: churn: ok$'
has atk_clock-steady '^atk_clock: steady: ok$'
has atk_clock-clock '^atk_clock: clock: ok$'
grep -E '^atk_clock: (steady|clock): [0-9]' <<<"$out"
out=$(cat "$T/gdb")
read -r looks sys on <<<"$(sed -nE 's/^profrace: ([0-9]+) looks \([0-9]+ instructions\): ([0-9]+) on a system call.s way back, ([0-9]+) with interrupts on$/\1 \2 \3/p' <<<"$out")"
echo "profrace: ${looks:-?} looks, ${sys:-?} after a system call, ${on:-?} with interrupts on"
check looks-300 [ "${looks:-0}" = 300 ]
check looks-after-syscalls [ "${sys:-0}" -gt 0 ]
check looks-interrupts-off [ "${on:-1}" = 0 ]
read -r adds swaps <<<"$(sed -nE 's/^profrace: ([0-9]+) adds under writes, the longest ([0-9]+) swaps$/\1 \2/p' <<<"$out")"
echo "profrace: ${adds:-?} adds under writes, the longest ${swaps:-?} swaps"
check adds-under-writes [ "${adds:-0}" = 20 ]
check adds-bounded [ "${swaps:-1001}" -le 64 ]
read -r firsts on <<<"$(sed -nE 's/^profrace: ([0-9]+) first looks of new threads, ([0-9]+) with interrupts on$/\1 \2/p' <<<"$out")"
echo "profrace: ${firsts:-?} first looks of new threads, ${on:-?} with interrupts on"
check first-looks-10 [ "${firsts:-0}" = 10 ]
check first-looks-interrupts-off [ "${on:-1}" = 0 ]
read -r nprof on <<<"$(sed -nE 's/^profrace: clock: ([0-9-]+) images profile, on ([0-9]+)$/\1 \2/p' <<<"$out")"
echo "profrace: after atk_clock clock, ${nprof:-?} images profile, clock on ${on:-?}"
check clock-no-image-profiles [ "${nprof:-1}" = 0 ]
check clock-off [ "${on:-1}" = 0 ]
[ "$fail" = 0 ] || sed 's/^/	| /' "$T/gdb" | tail -20

summary profrace
