#!/usr/bin/env bash
# Benchmarks, in guest instructions (QEMU -icount shift=0: the
# time-stamp counter counts instructions, so every number here is the
# same on every run and every machine), on one processor (-p 1: under
# -d the counter counts every processor's instructions), plus wall-clock
# times: the boot, and a parallel workload on 2 processors against 1.
# Prints Markdown; doc/benchmarks.md quotes its output.  What runs #S
# boots the test kernel (-T), whose symbols are o/kerneltest's.
cd "$(dirname "$0")/.." || exit 1
# It takes no argument: one (-h, say) is refused, not ignored for a run
# of every benchmark, many minutes of both processors.
if [ $# != 0 ]; then
	echo "usage: tools/bench.sh (no arguments; ROUNDS=N in the environment, default 100000)" >&2
	exit 2
fi
tools/install-deps || exit 1
tools/build >/dev/null || exit 1
rounds=${ROUNDS:-100000}
spins=$((rounds * 1000))

# run HZ: the fixed workloads, user and kernel, with no profiling and
# with kprof, then the user one with profil and with pcsample.
run() {
	./run-qemu.sh -k -T -d -p 1 -a "hz=$1" -t 900 -c "bind -a '#S' /dev
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
echo "\`./run-qemu.sh -k -T -d -a hz=HZ\` (the command list is in tools/bench.sh). Instructions are all"
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
echo "\`gdb\` steps through 20 ticks that interrupt \`bench\`'s loop (\`./run-qemu.sh -k -d -p 1 -g -c 'bench 1000000'\`"
echo "and tools/intstep.py), from the clock's vector to the iret, and counts each instruction by the"
echo "function it is in; the first such tick, which also wakes the sleepers, is not counted."
echo
echo "| function | instructions per tick |"
echo "|---|---|"
read -r lo size <<<"$(nm -S o/test/bench | awk '$4 ~ /^work(\.|$)/ { print $1, $2 }')"
port=$((20000 + $$ % 20000))	# not 1234, which another QEMU may have
GDBPORT=$port ./run-qemu.sh -k -d -p 1 -g -t 300 -c 'bench 1000000' >/dev/null 2>&1 &
qemu=$!
sleep 1
timeout 300 gdb -q -batch -ex "set \$port = $port" -ex 'set $entry = "vec32"' -ex "set \$ticks = 20" -ex "set \$skip = 1" \
	-ex "set \$lo = 0x$lo" -ex "set \$hi = 0x$lo + 0x$size" -x tools/intstep.py o/kernel 2>/dev/null | awk '$1 == "step" { printf "| %s | %s |\n", $2, $3; t += $3 } END { printf "| total | %.1f |\n", t }'
wait $qemu
echo

echo "## kprof's NMI, instruction by instruction"
echo
echo "\`gdb\` steps through 20 of kprof's NMIs (tools/intstep.py, after 5 not counted, while the"
echo "self-count's running mean settles), from \`nmientry\` (which gdb names by the label before it,"
echo "\`trapretend\`) to the iret, with kprof on, that interrupt: \`bench\`'s loop in user mode (a"
echo "user stack of 3 pcs, and of 8 with -u; and with kpctl's stacks off); #S's \`spina\` (a stack of 6 frames: spina, spinwrite, syswrite, syscall, trap,"
echo "alltraps); and #S's \`chainc\`, interrupts off (8 frames: chaina and chainb more)."
echo "\`./run-qemu.sh -k -T -d -p 1 -g -c \"bind -a '#S' /dev; echo start > /dev/kpctl; WORKLOAD\"\`."
echo
echo "| interrupted | function | instructions per NMI |"
echo "|---|---|---|"
# nmistep NAME WORKLOAD LO SIZE: the table's rows for one workload.
nmistep() {
	GDBPORT=$port ./run-qemu.sh -k -T -d -p 1 -g -t 300 -c "bind -a '#S' /dev; echo start > /dev/kpctl; $2" >/dev/null 2>&1 &
	qemu=$!
	sleep 1
	timeout 300 gdb -q -batch -ex "set \$port = $port" -ex 'set $entry = "nmientry"' -ex "set \$ticks = 20" -ex "set \$skip = 5" \
		-ex "set \$lo = 0x$3" -ex "set \$hi = 0x$3 + 0x$4" -x tools/intstep.py o/kerneltest 2>/dev/null |
		awk -v w="$1" '$1 == "step" { printf "| %s | %s |\n", w, ($2 == "trapretend" ? "nmientry" : $2) " | " $3; t += $3 } END { printf "| %s | total | %.1f |\n", w, t }'
	wait $qemu
}
read -r lo size <<<"$(nm -S o/test/bench | awk '$4 ~ /^work(\.|$)/ { print $1, $2 }')"
nmistep "user (bench)" "bench 1000000" "$lo" "$size"
nmistep "user (bench -u), 8 user pcs" "bench -u 1000000" "$lo" "$size"
nmistep "user (bench), stacks off" "echo stacks off > /dev/kpctl; bench 1000000" "$lo" "$size"
read -r lo size <<<"$(nm -S o/kerneltest | awk '$4 == "spina" { print $1, $2 }')"
nmistep "spina, 6 frames" "echo a 100000000 > /dev/spinctl" "$lo" "$size"
read -r lo size <<<"$(nm -S o/kerneltest | awk '$4 == "chainc" { print $1, $2 }')"
nmistep "chainc, 8 frames" "echo c 100000000 > /dev/spinctl" "$lo" "$size"
echo

echo "## A lock"
echo
echo "\`gdb\` steps through 20 calls each of \`lock\` and \`unlock\` (kern/lock.c, with \`pushcli\` and"
echo "\`popcli\`) on one processor, so none waits (\`./run-qemu.sh -k -d -p 1 -g -c 'bench 1000000'\` and"
echo "tools/lockstep.py): the instructions from the call to the return, uncontended."
echo
echo "| function | instructions per call |"
echo "|---|---|"
GDBPORT=$port ./run-qemu.sh -k -d -p 1 -g -t 300 -c 'bench 1000000' >/dev/null 2>&1 &
qemu=$!
sleep 1
timeout 300 gdb -q -batch -ex "set \$port = $port" -ex "set \$n = 20" -x tools/lockstep.py o/kernel 2>/dev/null |
	awk '($1 == "lock" || $1 == "unlock") && NF == 2 && $2 ~ /^[0-9.]+$/ { printf "| %s | %s |\n", $1, $2; t += $2 } END { printf "| both | %.1f |\n", t }'
wait $qemu
echo

echo "## Two processors against one"
echo
echo "Wall time, outside \`-d\` (QEMU runs each processor in a host thread of its own): two \`bench 200000\`"
echo "at once (\`bench 200000 > /dev/cons | bench 200000\`), from the first start to the last end in the"
echo "guest's clock ticks (HZ 100), with \`-p 1\` and with \`-p 2\`, best of 3; the host's load average then."
best() {
	for i in 1 2 3; do
		./run-qemu.sh -k -p "$1" -t 300 -c 'cat /dev/time; bench 200000 > /dev/cons | bench 200000; cat /dev/time' |
			tr -d '\r' | awk '/^[0-9]+ 100$/ { t[n++] = $1 } END { print t[1] - t[0] }'
	done | sort -n | head -1
}
t1=$(best 1)
t2=$(best 2)
echo
awk -v a=$t1 -v b=$t2 -v l="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
	printf "| processors | ticks |\n|---|---|\n| 1 | %d |\n| 2 | %d |\n\nSpeedup: %.2f (load average %s).\n", a, b, a/b, l }'
echo

echo "## The call graph's cost"
echo
echo "\`calls 100000\` (100,000 seeks, and its fork and exec) with kprof's arcs off and on, between two"
echo "\`bench now\`, on one processor; the calls recorded are kpgmon's, summed by \`kprof -q\`. Then"
echo "\`runtest\` on 2 processors, arcs off and on: its rounds in its 3 seconds."
echo "\`./run-qemu.sh -k -d -p 1 -o gmon -c 'bench now; calls 100000; bench now; echo startclr > /dev/kpctl;"
echo "echo arcs on > /dev/kpctl; bench now; calls 100000; bench now; echo arcs off > /dev/kpctl; ...'\`"
echo "and \`./run-qemu.sh -k -d -p 2 -c 'runtest; echo arcs on > /dev/kpctl; runtest'\`."
echo
gmon=$(mktemp /tmp/bench.XXXXXX)
n=$(./run-qemu.sh -k -d -p 1 -t 600 -o "$gmon" -c 'bench now; calls 100000; bench now; echo startclr > /dev/kpctl; echo arcs on > /dev/kpctl
bench now; calls 100000; bench now; echo arcs off > /dev/kpctl; echo stop > /dev/kpctl; cat /dev/kpgmon > /dev/eia1' |
	tr -d '\r' | sed -nE 's/^bench: ([0-9]+) instructions.*/\1/p' | tr '\n' ' ')
calls=$(o/host/kprof -q o/kernel "$gmon" | awk -F'\t' '$2 ~ / calls$/ { s += $2 } END { print s }')
rm -f "$gmon"
read -r a b c d <<<"$n"
rounds=$(./run-qemu.sh -k -d -p 2 -t 600 -c 'runtest; echo arcs on > /dev/kpctl; runtest' | tr -d '\r' | sed -nE 's/^runtest: .* ([0-9]+) rounds:.*/\1/p' | tr '\n' ' ')
read -r r0 r1 <<<"$rounds"
awk -v off=$((b - a)) -v on=$((d - c)) -v calls="$calls" -v r0="$r0" -v r1="$r1" 'BEGIN {
	printf "| measure | value |\n|---|---|\n"
	printf "| calls 100000, arcs off | %d instructions |\n| calls 100000, arcs on | %d instructions |\n", off, on
	printf "| calls recorded | %d |\n| added per recorded call | %.1f instructions |\n", calls, (on - off) / calls
	printf "| runtest rounds, arcs off / on | %d / %d (%.1f%% fewer) |\n", r0, r1, 100 * (r0 - r1) / r0 }'
echo

echo "## Memory, kpdata, boot, fuzz"
echo
r=$(./run-qemu.sh -k -d -p 1 -c 'bench mem; bench kpdata; bench now' | tr -d '\r' | grep '^bench')
echo "\`./run-qemu.sh -k -d -p 1 -c 'bench mem; bench kpdata; bench now'\`:"
echo
echo '```'
echo "$r"
echo '```'
echo
echo "- \`bench mem\`: one call on a 4096-byte page, in user mode (the kernel's is the same source)."
echo "- \`bench kpdata\`: reading all of /dev/kpdata less reading 4 bytes of it."
echo "- \`bench now\`: the instructions from power-on (firmware included) to the first shell command."
n=$(./run-qemu.sh -k -d -p 1 -t 900 -c 'bench now; fuzz 100000; bench now' | tr -d '\r' | sed -nE 's/^bench: ([0-9]+) instructions.*/\1/p' | tr '\n' ' ')
read -r a b <<<"$n"
echo "- \`fuzz 100000\`, as the instructions between the two \`bench now\` of \`./run-qemu.sh -k -d -p 1 -c 'bench now; fuzz 100000; bench now'\`: $((b - a))"
echo

start=$(date +%s.%N)
for i in 1 2 3 4 5; do ./run-qemu.sh -k -c 'halt' >/dev/null; done
end=$(date +%s.%N)
awk -v s=$start -v e=$end 'BEGIN { printf "Wall time to boot to the prompt and power off with -k (2 processors), mean of 5 (`./run-qemu.sh -k -c halt`): %.2f s\n", (e-s)/5 }'
