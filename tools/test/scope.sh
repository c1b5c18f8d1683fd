#!/usr/bin/env bash
#
# kprof's scope and its ticks by process (kprof(3): kpctl's pid,
# kpproc; profile(1); kprof -P): pid messages that are not a number
# refused; a scoped run of one program while another runs counts none
# of the other's ticks, and every tick it counts is of a process in
# scope; what the command forks is in scope too; profile's exit status
# is the command's; startclr forgets the exited processes; a full table
# of them keeps the busiest and the sum of the rest; a profile
# typed at the prompt counts the command and not the wait for the next
# line.  On 1 and 2 processors, under -d.  Then kprof -P on the host.
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tools/test/lib.bash

# not COMMAND...: COMMAND fails.
not() {
	! "$@"
}

# hasrow PID ROWS: a row of ROWS is process PID's.
hasrow() {
	awk -v p="$1" '$1 == p { f = 1 } END { exit !f }' <<<"$2"
}

# sum ROWS: the ticks of the rows.
sum() {
	awk '{ s += $5 } END { print s + 0 }' <<<"$1"
}

# procrows TEXT: the rows of profile's ticks-by-process table in TEXT.
procrows() {
	awk '/^ticks by process:/ { on = 1; next } /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/' <<<"$1"
}

# At 1000 Hz, spins of a fifth of a second: 200 ticks each, where the
# checks want 20 (the seconds' spins at 100 Hz cost the host 2 s more a
# boot); the background spin outlasts the two profiles, as before.
for p in 1 2; do
	guest -d -p "$p" -a hz=1000 -c 'echo pid > /dev/kpctl; echo pid -3 > /dev/kpctl; echo pid 3x > /dev/kpctl; echo pid 123456789012 > /dev/kpctl; echo "pid " > /dev/kpctl; echo "pid 1 2" > /dev/kpctl
echo pid 99999 > /dev/kpctl; cat /dev/kpctl
spin 1 > /dev/null & echo bg $!; echo pid $! > /dev/kpctl; echo == scoped; cat /dev/kpctl; echo pid all > /dev/kpctl
echo == one; profile spin 0.2; echo status $status; echo == after; cat /dev/kpctl
echo == tree; profile sh -c "spin 0.2; spin 0.2 > /dev/null & wait; exit 3"; echo status $status
echo == none; profile nosuch; echo status $status
echo == clear; echo startclr > /dev/kpctl; echo stop > /dev/kpctl; cat /dev/kpproc; echo == end'
	check "p$p-ran" [ "$st" = 0 ]
	check "p$p-bad-pid" [ "$(grep -c '^echo: write error: bad control message$' <<<"$out")" = 6 ]
	has "p$p-no-such-pid" '^echo: write error: no such process$'
	has "p$p-status-all" '^off hz [0-9]+ .* pid all arcs off drop 0$'
	bg=$(sed -n 's/^bg \([0-9]*\)$/\1/p' <<<"$out")
	check "p$p-status-pid" grep -q " pid ${bg:-none} arcs off drop 0\$" <<<"$(block scoped)"

	# One program while another runs: only its ticks, all of them its
	# (on one processor it has about half of them).
	b=$(block one)
	rows=$(procrows "$b")
	pid=$(sed -n 's/^spin \([0-9]*\): ticks.*/\1/p' <<<"$b")
	total=$(sed -n 's/^total: \([0-9]*\).*/\1/p' <<<"$b")
	check "p$p-one-status" grep -qx 'status 0' <<<"$b"
	check "p$p-one-row" [ "$(wc -l <<<"$rows") $(awk '{ print $1 }' <<<"$rows")" = "1 $pid" ]
	check "p$p-one-not-bg" not hasrow "${bg:-none}" "$rows"
	check "p$p-one-ticks" [ "${total:-0}" -ge 20 ]
	check "p$p-one-sum" [ "$(sum "$rows")" = "$total" ]
	check "p$p-one-no-idle" not grep -q '	idle$' <<<"$b"
	check "p$p-scope-back" grep -q ' pid all arcs off drop 0$' <<<"$(block after)"

	# The command's children and their children are in scope.
	b=$(block tree)
	rows=$(procrows "$b")
	total=$(sed -n 's/^total: \([0-9]*\).*/\1/p' <<<"$b")
	check "p$p-tree-status" grep -qx 'status 3' <<<"$b"
	check "p$p-tree-rows" [ "$(awk '$7 == "spin"' <<<"$rows" | wc -l)" = 2 ]
	# Both spins are the children of sh, profile's child, whatever its ticks.
	check "p$p-tree-parents" [ "$(awk '$7 == "spin" { print $2 }' <<<"$rows" | sort -u | wc -l)" = 1 ]
	check "p$p-tree-not-bg" not hasrow "${bg:-none}" "$rows"
	check "p$p-tree-sum" [ "$(sum "$rows")" = "$total" ]

	check "p$p-none" [ "$(block none | grep -cx -e 'status 1' -e 'profile: nosuch: file does not exist')" = 2 ]
	# startclr forgets the processes of the run before.
	mine=$(out=$(block one; block tree); sed -n 's/^spin \([0-9]*\): ticks.*/\1/p' <<<"$out")
	check "p$p-clear" [ "$(for q in $mine; do hasrow "$q" "$(block clear)" && echo "$q"; done)" = "" ]
done

# A table of exited processes that fills keeps the busiest, and sums
# the rest in its overflow line: every tick counted is in a line.
# runtest's children, a few ticks each at hz=10000, are more than 256:
# in 0.6 s, 388, 132 of them in the overflow line (1 s made 680, for
# 1.5 s more of the host's CPU), and runtest itself is the busiest,
# with 5,783 ticks where over 1,000 are wanted.
guest -d -p 2 -a hz=10000 -t 300 -c 'profile runtest 0.6 > /tmp/o; echo == profile; cat /tmp/o; echo == kpproc; cat /dev/kpproc; echo == kpcpu; cat /dev/kpcpu; echo == end'
check full-ran [ "$st" = 0 ]
b=$(block kpproc)
# kpcpu's totals are the ticks themselves; kprof's total adds its own cost.
total=$(block kpcpu | awk '{ s += $4 } END { print s + 0 }')
check full-lines [ "$(grep -vc '^overflow ' <<<"$b") $(grep -c '^overflow [1-9][0-9]* ' <<<"$b")" = "256 1" ]
check full-sum [ "$(awk '{ s += $(NF-1) + $NF } END { print s + 0 }' <<<"$b")" = "${total:-none}" ]
busiest=$(procrows "$(block profile)" | head -1)
check full-keeps-busiest [ "$(awk '{ print $7, ($5 > 1000) }' <<<"$busiest")" = "runtest 1" ]

# Typed a line at a time, the prompt's wait is not counted: the profile
# is the command's ticks, about spin's 100, not the seconds between lines.
# Under -d the idle guest's clock runs as fast as QEMU can tick it: the
# host's 0.3 s pause is about 15,000 ticks (3 s were 85,000, and as
# many seconds of the host's CPU).
python3 tools/test/typeat.py -d -p 1 >"$T/console" 2>"$T/err" <<'EOF'
wait ^\$ 
type profile spin 1\r
wait busiest stacks:
wait \$ 
pause 0.3
type cat /dev/kpctl\r
wait pid all
type halt\r
EOF
check typed-ran [ $? = 0 ]
out=$(tr -d '\r\0' <"$T/console")
total=$(sed -n 's/^total: \([0-9]*\).*/\1/p' <<<"$out")
check typed-command-only [ "${total:-0}" -ge 90 -a "${total:-0}" -le 130 ]

# kprof -P in the guest, whose unsigned long has 32 bits: a total past
# 2^32-1 used to wrap, and the shares with it.
guest -d -c 'echo "1 2 sh 4294967295 4294967295" > /tmp/p; echo "3 1 ab 1 1" >> /tmp/p; kprof -P /tmp/p'
check P-guest-wide-total grep -qx "$(printf '1\t2\t4294967295\t4294967295\t8589934590\t100.0\tsh')" <<<"$out"

# kprof -P on the host: a copy of kpproc, busiest first, the overflow last.
hostbuild kprof scope
cd "$T" || exit 1
printf '3 1 sh 5 10\n7 3 spin 90 5\n9 3 my prog 1 0\n8 3 spin 95 0\noverflow 2 3 4\n' >kpproc
want 'pid\tppid\tuser\tkernel\ttotal\t%%\tname\n7\t3\t90\t5\t95\t44.6\tspin\n8\t3\t95\t0\t95\t44.6\tspin\n3\t1\t5\t10\t15\t7.0\tsh\n9\t3\t1\t0\t1\t0.5\tmy prog\n-\t-\t3\t4\t7\t3.3\t(2 exited processes the table had no room for)\n'
expect P-sorted 0 -P kpproc
: >empty
want 'pid\tppid\tuser\tkernel\ttotal\t%%\tname\n'
expect P-empty 0 -P empty
# A NUL in a line (it used to crash kprof), an overflow of no
# processes (its ticks were in the shares, on no line) and a pid on
# two lines are refused too.
for bad in '3 1 5 10' '3 1 sh 5 x' 'x 1 sh 5 10' '3 1 sh 5 10 ' '3 1 sh 99999999999 1' '3 1 sh 18446744073709551621 1' '3 1 sh +5 1' 'overflow 1 2' 'overflow 1 2 3\noverflow 1 2 3' \
	'3 1 s\0h 5 10' '3\0 1 sh 5 10' 'overflow 0 3 4' '3 1 sh 5 10\n4 1 a 1 1\n3 1 sh 5 10'; do
	printf "$bad\n" >bad
	timeout 60 "${hostbins[1]}" -P bad >/dev/null 2>got.err
	got=$?
	check "P-refuses-$(tr -c 'a-z0-9\n' _ <<<"$bad" | head -c 20)" [ "$got $(grep -c '^kprof: bad:' got.err) $(grep -c -e Sanitizer -e 'runtime error' got.err)" = "1 1 0" ]
done
printf '3 1 sh 5 10' >bad
want '' 'kprof: bad: truncated at byte 11: the last line has no newline\n'
expect P-truncated 1 -P bad
cd "$top" || exit 1

summary scope
