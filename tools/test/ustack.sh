#!/usr/bin/env bash
#
# User stacks below the kernel's (kern/kpwalk.c, kprof(3)'s kpstack;
# kprof -s, -g, -i and -t, kprof(1)): profdemo's stacks are main over
# spin3 and spin1, 3:1, in user mode alone; runtest's are its main over
# the kernel's system-call stacks; the user frames are named by the
# program given with -u, addresses without it.  Then the walk attacked
# (atk_ustack): frames into the kernel, to themselves, below
# themselves, past the top, into holes, and into a page another thread
# takes away; each must end the walk having read nothing but the
# process's user memory, and the kernel's text and free pages are as
# they were.  On 1 and 2 processors, under -d.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# ticks REGEX TEXT: the ticks of the folded stacks in TEXT that match REGEX.
ticks() {
	awk -v r="$1" '$0 ~ r { s += $NF } END { print s + 0 }' <<<"$2"
}

# profdemo runs 1 s at 2000 Hz: 2,000 ticks, as 2 s at 1000 Hz gave, in
# two thirds of the instructions.  Their 3:1 share has a sampling error
# of 1.0 point, of the 3 allowed.  runtest's 0.3 s give 600 ticks.
for p in 1 2; do
	guest -d -p $p -a hz=2000 -c 'profile profdemo 1 > /dev/null
echo == folded
kprof -s -u /bin/profdemo kernel /dev/kpstack /dev/kpdata
echo == addresses
kprof -s kernel /dev/kpstack
echo == raw
cat /dev/kpstack
echo == incl
kprof -i -u /bin/profdemo kernel /dev/kpdata /dev/kpstack
echo == peek
kprof -t main -u /bin/profdemo kernel /dev/kpstack
echo == flame
kprof -g -u /bin/profdemo kernel /dev/kpstack /dev/kpdata > /tmp/f.svg
grep -c "<title>main: " /tmp/f.svg
grep -c "<title>spin3: " /tmp/f.svg
profile runtest 0.3 > /dev/null
echo == runtest
kprof -s -u /bin/runtest kernel /dev/kpstack /dev/kpdata
echo == end'
	check "p$p-ran" [ $? = 0 ]
	f=$(block folded)
	s3=$(ticks '^_start;main;spin3 [0-9]+$' "$f") s1=$(ticks '^_start;main;spin1 [0-9]+$' "$f")
	echo "p$p: profdemo: _start;main;spin3 $s3, _start;main;spin1 $s1, of $(ticks . "$f")"
	check "p$p-profdemo-3-to-1" python3 -c "import sys; a, b = $s3, $s1; sys.exit(not (a + b >= 1500 and abs(100.0 * a / (a + b) - 75) <= 3))"
	check "p$p-profdemo-most-ticks" python3 -c "import sys; sys.exit(not ($s3 + $s1) * 10 >= 9 * $(ticks . "$f"))"
	# A user tick's stack is the user's alone: the mark first.
	check "p$p-user-alone" [ "$(block raw | grep -cE '^[0-9]+ ffffffff( [0-9a-f]{8}){3}$')" -ge 10 ]
	check "p$p-addresses" [ "$(block addresses | grep -cE '^0x[0-9a-f]{8};0x[0-9a-f]{8};0x[0-9a-f]{8} [0-9]+$')" -ge 10 ]
	check "p$p-incl" grep -qE '^[0-9]	 *[0-9]\.[0-9]	[0-9]+	( 9[0-9]\.[0-9]|100\.0)	main$' <<<"$(block incl)"
	pk=$(block peek)
	check "p$p-peek" [ "$(sed -n 2p <<<"$pk" | awk '{ print $NF }')" = _start -a \
		"$(grep -cE '^	[0-9]+	 *[0-9.]+%	    spin[31]$' <<<"$pk")" = 2 ]
	check "p$p-flame" [ "$(block flame | awk '$1 >= 1 { n++ } END { print n + 0 }')" = 2 ]
	r=$(block runtest)
	echo "p$p: runtest: $(ticks '^_start;main;.*;alltraps;trap;syscall;' "$r") of $(ticks . "$r") ticks under main's system calls"
	check "p$p-runtest-main-over-syscalls" [ "$(grep -cE '^_start;main;.*;alltraps;trap;syscall;' <<<"$r")" -ge 20 ]
	check "p$p-runtest-syscalls-under-main" python3 -c "import sys; sys.exit(not $(ticks ';alltraps;trap;syscall;' "$r") * 10 <= 11 * $(ticks '^_start;main;.*;alltraps;trap;syscall;' "$r"))"
	hasnt "p$p-no-panic" 'panic|kernel trap'

	cmds='cat /dev/textsum; cat /dev/sysstat'
	for c in kernel kret self down top unmapped freed; do
		cmds+="; atk_ustack $c 20000; cat /dev/textsum; cat /dev/sysstat"
	done
	guest -d -p $p -a hz=10000 -t 200 -c "$cmds"
	for c in kernel kret self down top unmapped freed; do
		has "p$p-attack-$c" "^atk_ustack: $c ok: [0-9]+ user stacks$"
	done
	hasnt "p$p-attack-no-panic" 'panic|kernel trap|FAIL'
	textintact "p$p-attack-text-intact"
	pagesback "p$p-attack-pages-back"
done

summary ustack
