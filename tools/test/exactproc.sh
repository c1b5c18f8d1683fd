#!/usr/bin/env bash
#
# kpproc against exact counts: two programs side by side, bench 30000
# and bench 10000 (the same known loop, 3:1), each given its ticks by
# process within sampling noise of its exact instruction count, which
# the plugin (run-qemu.sh -x, tools/kpexact.c) counts in a run of each
# alone, between startclr and stop: cell 0 of its kpdata, every
# instruction the processor ran, the program's and the kernel's for
# it.  A third bench keeps the processors busy meanwhile.  Within 3 standard errors of sampling, sqrt(p(1-p)/n), of the
# exact share p for n ticks; under -d the figures are the same every
# run.  Then a scoped run of one while the other runs counts none of
# the other's ticks.  On 1 and 2 processors.
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

for p in 1 2; do
	# A third bench keeps every processor busy throughout: a processor's
	# ticks are of its time, which under -d is of its instructions only
	# while every processor runs (kern/clock.c).
	guest -d -p $p -a hz=10000 -t 300 -c 'bench 100000 > /dev/null &
echo startclr > /dev/kpctl; bench 30000 > /dev/null & bench 10000 > /dev/null; wait $!; echo stop > /dev/kpctl
echo == kpproc; cat /dev/kpproc
echo == scoped; bench 10000 > /dev/null & profile -q bench 30000 > /dev/null; wait; cat /dev/kpproc; echo == end'
	check "p$p-ran" [ $? = 0 ]
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

summary exactproc
