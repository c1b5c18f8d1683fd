#!/usr/bin/env bash
# Benchmarks, in guest instructions (QEMU -icount shift=0: the
# time-stamp counter counts instructions, so every number here is the
# same on every run and every machine), plus two wall-clock times.
# Prints a Markdown report; doc/benchmarks.md is its output.
cd "$(dirname "$0")/.." || exit 1
tools/install-deps || exit 1
tools/build >/dev/null || exit 1
rounds=${ROUNDS:-100000}

# run HZ: the fixed workload with no profiling, kprof, profil and pcsample.
run() {
	./run-qemu.sh -k -d -a "hz=$1" -t 600 -c "bench $rounds
echo start > /dev/kpctl; bench $rounds; echo stop > /dev/kpctl
bench -p $rounds
bench -s $rounds" | tr -d '\r' | grep '^bench'
}

field() {
	sed -n "$1p" | sed -E 's/.*: ([0-9]+) instructions, ([0-9]+) ticks.*/\1 \2/'
}

echo "## Profiling overhead"
echo
echo "The workload: \`bench $rounds\`, $rounds rounds of a 1000-iteration loop in user mode,"
echo "run with \`./run-qemu.sh -k -d -a hz=HZ\`. Instructions are all the processor executed"
echo "between the workload's start and end, clock interrupts included."
echo
echo "| HZ | ticks | instructions, no profiling | kprof on: added per tick | profil: added per tick | pcsample: added per tick | kprof overhead | profil overhead | pcsample overhead |"
echo "|---|---|---|---|---|---|---|---|---|"
for hz in 100 1000 10000; do
	r=$(run $hz)
	read -r off ticks <<<"$(field 1 <<<"$r")"
	read -r kp _ <<<"$(field 2 <<<"$r")"
	read -r pr _ <<<"$(field 3 <<<"$r")"
	read -r pc _ <<<"$(field 4 <<<"$r")"
	awk -v hz=$hz -v t=$ticks -v off=$off -v kp=$kp -v pr=$pr -v pc=$pc 'BEGIN {
		printf "| %d | %d | %d | %.1f | %.1f | %.1f | %.4f%% | %.4f%% | %.4f%% |\n", hz, t, off,
			(kp-off)/t, (pr-off)/t, (pc-off)/t,
			100*(kp-off)/off, 100*(pr-off)/off, 100*(pc-off)/off }'
done
echo

echo "## Boot"
echo
n=$(./run-qemu.sh -k -d -c 'bench now' | tr -d '\r' | sed -nE 's/^bench: ([0-9]+) instructions.*/\1/p')
echo "- Guest instructions from power-on to the first shell command (\`./run-qemu.sh -k -d -c 'bench now'\`): $n"
start=$(date +%s.%N)
for i in 1 2 3 4 5; do ./run-qemu.sh -k -c 'halt' >/dev/null; done
end=$(date +%s.%N)
awk -v s=$start -v e=$end 'BEGIN { printf "- Wall time to boot to the prompt and power off with -k, mean of 5 (`./run-qemu.sh -k -c halt`): %.2f s\n", (e-s)/5 }'
