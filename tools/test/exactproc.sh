#!/usr/bin/env bash
#
# kpproc against exact counts: two programs side by side, bench 30000
# and bench 10000 (the same known loop, 3:1), each given its ticks by
# process within sampling noise of its exact instruction count, which
# the plugin (run-qemu.sh -x, tools/kpexact.c) counts in a run of each
# alone, between startclr and stop: cell 0 of its kpdata, every
# instruction the processor ran, the program's and the kernel's for
# it; and its upcdata has the user ones by pc, nearly all in its loop.
# A third bench keeps the processors busy meanwhile.  Within 3
# standard errors of sampling, sqrt(p(1-p)/n), of the exact share p
# for n ticks; under -d the figures are the same every run.  Then a
# scoped run of one while the other runs counts none of the other's
# ticks.  On 1 and 2 processors.  On 1 the plugin counts the scoped
# run too, which it counts as kprof's scope does, the one bench alone
# (kern/kprof.h, KPSCOPE); and kprof's own row, which has a third of
# the processor's ticks, then half, is within a tenth of the share of
# the NMI's path in that count (dev/devkprof.c, kpself); as it is
# where the NMIs cost two ways, user ticks and kernel ones, and in a
# short run.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# exact ROUNDS: the instructions of bench ROUNDS alone, in thousands (kpexact's unit).
exact() {
	mkdir -p "$T/x$1"
	guest -d -p 1 -a hz=10000 -t 300 -x "$T/x$1" -c "echo startclr > /dev/kpctl; bench $1 > /dev/null; echo stop > /dev/kpctl"
	python3 -c "import struct, sys; print(struct.unpack('>I', open(sys.argv[1], 'rb').read(4))[0])" "$T/x$1/kpdata"
}
ea=$(exact 30000) eb=$(exact 10000)
echo "exact: bench 30000 ${ea}k instructions, bench 10000 ${eb}k"
check exact-counted [ "${ea:-0}" -gt 0 -a "${eb:-0}" -gt 0 ]
# The user instructions by pc too (upcdata): all of them in user text,
# nearly all in bench's loop, work (the shell that starts it shares
# its addresses, for a few thousand).
read -r uall utext uwork < <(python3 -c "import struct, subprocess, sys
sys.path.insert(0, 'tools/test')
from kprofh import K, UTZERO
b = open(sys.argv[1], 'rb').read()
c = struct.unpack('>%dI' % (len(b) // 4), b)
a = [int(l.split()[0], 16) for l in subprocess.run(['nm', '-n', sys.argv[2]], capture_output=True, text=True).stdout.splitlines() if l.split()[2:] == ['work']][0]
e = min(int(l.split()[0], 16) for l in subprocess.run(['nm', '-n', sys.argv[2]], capture_output=True, text=True).stdout.splitlines() if int(l.split()[0], 16) > a)
z = K['KPBINSIZE']
print(c[0], c[1], sum(c[K['KPBIN'] + (x - UTZERO) // z] for x in range(a & -z, e, z)))" "$T/x30000/upcdata" o/test/bench)
echo "exact: bench 30000's user instructions ${uall}k, ${utext}k in user text, ${uwork}k in work"
check exact-user-text [ "${uall:-0}" -gt 0 -a "${uall:-0}" = "${utext:-1}" ]
check exact-user-work [ "$((100 * ${uwork:-0}))" -ge "$((99 * ${uall:-1}))" ]

# nmi: the share of all instructions that the NMI's path took (lib.bash's
# list of its functions), in exact count DIR, against kprof's own row in
# the sampled kpdata SAMPLED: as kprof -c's exact column gives it of
# kernel text, times kernel text's share of all; idle left out of both,
# as a halted processor takes ticks but runs no instructions.
nmi() {
	local share
	share=$(o/host/kprof -c -x idle "$kernel" "$1/kpdata" "$2" | awk -v p="$nmifns" '$5 ~ "^(" p ")$" { s += $2 } END { print s + 0 }')
	python3 -c "import struct, subprocess, sys
sys.path.insert(0, 'tools/test')
from kprofh import K
e = struct.unpack('>2I', open(sys.argv[1], 'rb').read(8))
b = open(sys.argv[2], 'rb').read()
s = struct.unpack('>%dI' % (len(b) // 4), b)
# nm once: run in the condition below, it ran once a symbol, 50 s of the host's CPU a script
t = subprocess.run(['nm', '-n', sys.argv[4]], capture_output=True, text=True).stdout.splitlines()
a = [int(l.split()[0], 16) for l in t if len(l.split()) == 3]
f = [int(l.split()[0], 16) for l in t if l.split()[2:] == ['idle']][0]
i = [x for x in a if x >= f][:2]
text = [int(l.split()[0], 16) for l in t if l.split()[2:] == ['text']][0]
z = K['KPBINSIZE']
idle = sum(s[K['KPBIN'] + (x - text) // z] for x in range(i[0] & -z, i[1], z))
print('%.4f %.4f' % (100 * s[-1] / (s[0] - idle + s[-1]), float(sys.argv[3]) * e[1] / e[0]))" "$1/kpdata" "$2" "$share" "$kernel"
}

for p in 1 2; do
	# A third bench keeps every processor busy throughout: a processor's
	# ticks are of its time, which under -d is of its instructions only
	# while every processor runs (kern/clock.c).  On 1 the scoped run is
	# counted exactly too (the last window the plugin sees), for kprof's
	# own row in a scope that has a third of the processor, then half.
	x=() send=
	if [ $p = 1 ]; then
		mkdir -p "$T/xs"
		x=(-x "$T/xs" -o "$T/ss")
		send='; cat /dev/kpdata > /dev/eia1'
	fi
	guest -d -p $p -a hz=10000 -t 300 "${x[@]}" -c 'bench 100000 > /dev/null &
echo startclr > /dev/kpctl; bench 30000 > /dev/null & bench 10000 > /dev/null; wait $!; echo stop > /dev/kpctl
echo == kpproc; cat /dev/kpproc
echo == scoped; bench 10000 > /dev/null & profile -q bench 30000 > /dev/null; wait; cat /dev/kpproc; echo == end'"$send"
	check "p$p-ran" [ $? = 0 ]
	if [ $p = 1 ]; then
		# The exact count of the scoped run is of bench 30000 alone.
		es=$(python3 -c "import struct, sys; print(struct.unpack('>I', open(sys.argv[1], 'rb').read(4))[0])" "$T/xs/kpdata")
		echo "p1 scoped: the exact count ${es}k instructions, bench 30000 alone ${ea}k"
		check p1-scoped-exact awk -v a="$es" -v b="$ea" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= 0.01 * b) }'
		read -r row share < <(nmi "$T/xs" "$T/ss")
		echo "p1 scoped: kprof's own row $row%, the NMI path in the exact count $share%"
		check p1-scoped-self awk -v a="$row" -v b="$share" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= 0.1 * b) }'
	fi
	# kpproc's lines of bench, by pid: the filler, bench 30000, bench 10000.
	rows=$(awk '/^== kpproc/ { on = 1; next } /^== / { on = 0 } on && $3 == "bench"' <<<"$out" | sort -n | sed 1d)
	ta=$(awk 'NR == 1 { print $4 + $5 }' <<<"$rows") tb=$(awk 'NR == 2 { print $4 + $5 }' <<<"$rows")
	echo "p$p: bench 30000 $ta ticks, bench 10000 $tb ticks"
	check "p$p-two-benches" [ "$(wc -l <<<"$rows")" = 2 ]
	check "p$p-within-noise" python3 -c "
import math, sys
ta, tb, ea, eb = $ta, $tb, $ea, $eb
n, p = ta + tb, ea / (ea + eb)
se = math.sqrt(p * (1 - p) / n)
print('p$p: sampled %.4f, exact %.4f, %.1f standard errors of %d ticks' % (ta / n, p, (ta / n - p) / se, n))
sys.exit(not (n >= 2000 and abs(ta / n - p) <= 3 * se))"
	s=$(awk '/^== scoped/ { on = 1; next } /^== / { on = 0 } on' <<<"$out")
	check "p$p-scoped-one" [ "$(awk '$3 == "bench"' <<<"$s" | wc -l)" = 1 -a "$(awk '$3 != "bench"' <<<"$s" | wc -l)" = 0 ]
	check "p$p-scoped-its-ticks" [ "$(awk '$3 == "bench" { print ($4 + $5 >= 1500) }' <<<"$s")" = 1 ]
done

# kprof's own row where NMIs cost in different ways (dev/kpnmi.c,
# nmicost, a mean for each kind of tick): on 1 processor, profdemo's
# user ticks, which walk one stack, beside runtest's kernel ones, which
# walk two, some 3 times the cost; on 2, runtest alone, which leaves a
# processor idle half the time, where a tick walks a short stack; and
# in a run of some 1,100 ticks, where the row is a few ticks, to the
# nearest (dev/devkprof.c, kpself).  Each within 3% of the NMI's path
# in the exact count of the same run, and half a tick.
for w in mix idle calls; do
	c='profdemo 1 > /dev/null & runtest 1 > /dev/null; wait' p=1
	[ $w = idle ] && c='runtest 1 > /dev/null' p=2
	[ $w = calls ] && c='calls -c 2 100000 > /dev/null' p=1
	mkdir -p "$T/x$w"
	guest -d -p $p -a hz=10000 -t 300 -x "$T/x$w" -o "$T/s$w" -c "echo startclr > /dev/kpctl; $c; echo stop > /dev/kpctl; cat /dev/kpdata > /dev/eia1"
	read -r row share < <(nmi "$T/x$w" "$T/s$w")
	n=$(python3 -c "import struct, sys; b = open(sys.argv[1], 'rb').read(); s = struct.unpack('>%dI' % (len(b) // 4), b); print(s[0] + s[-1])" "$T/s$w")
	echo "$w: kprof's own row $row% of $n ticks, the NMI path in the exact count $share%"
	check "self-$w" awk -v a="$row" -v b="$share" -v n="$n" 'BEGIN { d = (a - b) * n / 100; if(d < 0) d = -d; exit !(b > 0 && n >= 1000 && d <= 0.5 + 0.03 * b * n / 100) }'
	[ $w = idle ] || continue
	# runtest on 2 processors, now one busy, now both: the profile over
	# kernel functions, the NMI's path left out, is near the exact
	# count, as a busy tick counts 1 in m of the processors that run
	# (kern/fns.h, thintick).  Counting every tick put runs of 9,400
	# ticks 3.93 and 4.00 points off, where sampling's median is 2.8
	# and its 95th percentile 3.35; thinned, five runs were 2.65 to
	# 3.51, a little over sampling alone, since a processor whose turn
	# QEMU ended (at a pause, an IPI) takes the ticks that came due
	# meanwhile where it resumes.  So two runs, whose phases differ by
	# what runs before, and their mean distance within sampling's 95th
	# percentile and half the way from the median to it again: by the
	# spread of the runs above, a kernel that counts every tick is over
	# it about nine times in ten, one that thins about once in a hundred.
	# shellcheck disable=SC2086
	o/host/kprof -c -x idle $nmix "$kernel" "$T/x$w/kpdata" "$T/s$w" >"$T/c$w"
	mkdir -p "$T/x$w-2"
	guest -d -p $p -a hz=10000 -t 300 -x "$T/x$w-2" -o "$T/s$w-2" -c "ls > /dev/null; echo startclr > /dev/kpctl; $c; echo stop > /dev/kpctl; cat /dev/kpdata > /dev/eia1"
	# shellcheck disable=SC2086
	o/host/kprof -c -x idle $nmix "$kernel" "$T/x$w-2/kpdata" "$T/s$w-2" >"$T/c$w-2"
	tail -q -n 2 "$T/c$w" "$T/c$w-2"
	check p2-runtest-within-noise awk '/^total variation:/ { d += $3; nd++ } /^sampling alone:/ { m += $4; p += $7; np++ } END { exit !(nd == 2 && np == 2 && d / 2 <= (p + (p - m) / 2) / 2) }' "$T/c$w" "$T/c$w-2"
done

summary exactproc
