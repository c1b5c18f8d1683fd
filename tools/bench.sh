#!/usr/bin/env bash
# Benchmarks, in guest instructions (QEMU -icount shift=0: the
# time-stamp counter counts instructions, so every number here is the
# same on every run and every machine), plus one wall-clock time.
# Prints Markdown; doc/benchmarks.md quotes its output.
cd "$(dirname "$0")/.." || exit 1
tools/install-deps || exit 1
tools/build >/dev/null || exit 1
rounds=${ROUNDS:-100000}
spins=$((rounds * 1000))

# run HZ: the fixed workloads, user and kernel, with no profiling and
# with kprof, then the user one with profil and with pcsample.
run() {
	./run-qemu.sh -k -d -a "hz=$1" -t 900 -c "bind -a '#S' /dev
bench $rounds
echo start > /dev/kpctl; bench $rounds; echo stop > /dev/kpctl
bench -p $rounds
bench -s $rounds
bench -k $spins
echo start > /dev/kpctl; bench -k $spins; echo stop > /dev/kpctl" | tr -d '\r' | grep '^bench'
}

field() {
	sed -n "$1p" | sed -E 's/.*: ([0-9]+) instructions, ([0-9]+) ticks.*/\1 \2/'
}

echo "## Profiling overhead"
echo
echo "The workloads: \`bench $rounds\`, $rounds rounds of a 1000-iteration loop in user mode, and"
echo "\`bench -k $spins\`, a loop of as many iterations in the kernel (#S's spina), run with"
echo "\`./run-qemu.sh -k -d -a hz=HZ\` (the command list is in tools/bench.sh). Instructions are all"
echo "the processor executed between the workload's start and end, clock interrupts included."
echo "\"Added per tick\" is the difference from the same workload without the profiler, over its ticks."
echo
echo "| HZ | ticks | instructions, no profiling | kprof: added per user-pc tick | kprof: added per kernel-pc tick | profil: added per tick | pcsample: added per tick | kprof overhead | profil overhead | pcsample overhead |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for hz in 100 1000 10000; do
	r=$(run $hz)
	read -r off ticks <<<"$(field 1 <<<"$r")"
	read -r kp _ <<<"$(field 2 <<<"$r")"
	read -r pr _ <<<"$(field 3 <<<"$r")"
	read -r pc _ <<<"$(field 4 <<<"$r")"
	read -r koff kticks <<<"$(field 5 <<<"$r")"
	read -r kkp _ <<<"$(field 6 <<<"$r")"
	eval "off$hz=$off ticks$hz=$ticks"
	awk -v hz=$hz -v t=$ticks -v off=$off -v kp=$kp -v pr=$pr -v pc=$pc -v koff=$koff -v kt=$kticks -v kkp=$kkp 'BEGIN {
		printf "| %d | %d | %d | %.1f | %.1f | %.1f | %.1f | %.4f%% | %.4f%% | %.4f%% |\n", hz, t, off,
			(kp-off)/t, (kkp-koff)/kt, (pr-off)/t, (pc-off)/t,
			100*(kp-off)/off, 100*(pr-off)/off, 100*(pc-off)/off }'
done
echo
awk -v a=$off100 -v b=$off10000 -v ta=$ticks100 -v tb=$ticks10000 'BEGIN {
	printf "A clock tick, one runnable process, no profiler: %.1f instructions (the hz=10000 and hz=100 runs of `bench %d`: the difference in instructions over the difference in ticks).\n", (b-a)/(tb-ta), '"$rounds"' }'
echo

echo "## A tick, instruction by instruction"
echo
echo "\`gdb\` steps through 20 ticks that interrupt \`bench\`'s loop (\`./run-qemu.sh -k -d -g -c 'bench 1000000'\`"
echo "and tools/tickstep.py), from the clock's vector to the iret, and counts each instruction by the"
echo "function it is in; the first such tick, which also wakes the sleepers, is not counted."
echo
echo "| function | instructions per tick |"
echo "|---|---|"
read -r lo size <<<"$(nm -S o/test/bench | awk '$4 ~ /^work(\.|$)/ { print $1, $2 }')"
port=$((20000 + $$ % 20000))	# not 1234, which another QEMU may have
GDBPORT=$port ./run-qemu.sh -k -d -g -t 300 -c 'bench 1000000' >/dev/null 2>&1 &
qemu=$!
sleep 1
timeout 300 gdb -q -batch -ex "set \$port = $port" -ex "set \$ticks = 20" -ex "set \$lo = 0x$lo" -ex "set \$hi = 0x$lo + 0x$size" \
	-x tools/tickstep.py o/kernel 2>/dev/null | awk '$1 == "tick" { printf "| %s | %s |\n", $2, $3; t += $3 } END { printf "| total | %.1f |\n", t }'
wait $qemu
echo

echo "## Memory, kpdata, boot, fuzz"
echo
r=$(./run-qemu.sh -k -d -c 'bench mem; bench kpdata; bench now' | tr -d '\r' | grep '^bench')
echo "\`./run-qemu.sh -k -d -c 'bench mem; bench kpdata; bench now'\`:"
echo
echo '```'
echo "$r"
echo '```'
echo
echo "- \`bench mem\`: one call on a 4096-byte page, in user mode (the kernel's is the same source)."
echo "- \`bench kpdata\`: reading all of /dev/kpdata less reading 4 bytes of it."
echo "- \`bench now\`: the instructions from power-on (firmware included) to the first shell command."
n=$(./run-qemu.sh -k -d -t 900 -c 'bench now; fuzz 100000; bench now' | tr -d '\r' | sed -nE 's/^bench: ([0-9]+) instructions.*/\1/p' | tr '\n' ' ')
read -r a b <<<"$n"
echo "- \`fuzz 100000\`, as the instructions between the two \`bench now\` of \`./run-qemu.sh -k -d -c 'bench now; fuzz 100000; bench now'\`: $((b - a))"
echo

start=$(date +%s.%N)
for i in 1 2 3 4 5; do ./run-qemu.sh -k -c 'halt' >/dev/null; done
end=$(date +%s.%N)
awk -v s=$start -v e=$end 'BEGIN { printf "Wall time to boot to the prompt and power off with -k, mean of 5 (`./run-qemu.sh -k -c halt`): %.2f s\n", (e-s)/5 }'
