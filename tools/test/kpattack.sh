#!/usr/bin/env bash
#
# #T attacked (atk_kprof; kprof(3), kern/parse.c, kern/kpproc.c):
# control messages with NULs, of every length and number of words, from
# bad memory, at offsets and in pieces; kpproc read in pieces while
# its lines move; `pid N' for a child while fork
# makes it; more exited processes than kpproc keeps, with a reader of
# it running; kpproc, kpctl and kpgmon read at every offset in pieces;
# kpgmon held open as often as processes can (fork and exec still
# work); arcs on, arcs off and startclr from three processes at once
# while two others fork and kprof samples at 10000 Hz (the text's hash
# after arcs off is the kernel's); threads that exit with their frame
# pointer in a page whose table the last thread frees as they go, and
# another process refills (atk_kprof leave).  On 2 and 4 processors
# under -d, and on 4 without.  Then the latency of a sleep beside
# readers of a full kpproc, and beside an opener of kpgmon with a bin
# of millions of ticks, under -d.  After each boot the kernel's
# text is unchanged and the free pages and heap are back.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cases='atk_kprof ctl; atk_kprof offsets; atk_kprof torn 40; atk_kprof forkpid 20; atk_kprof exits 300; atk_kprof gmon'
for how in "-d -p 2" "-d -p 4" "-p 4"; do
	n=${how// /}
	# shellcheck disable=SC2086
	guest $how -a hz=1000 -t 300 -c "cat /dev/textsum; cat /dev/sysstat; $cases; cat /dev/sysstat; cat /dev/textsum"
	for c in ctl offsets torn forkpid exits gmon; do
		has "$n-$c" "^atk_kprof: $c: ok$"
	done
	hasnt "$n-no-failure" '^FAIL|panic|kernel trap'
	textintact "$n-text-intact"
	pagesback "$n-pages-back"
	# shellcheck disable=SC2086
	guest $how -a hz=10000 -t 300 -c 'cat /dev/textsum; cat /dev/sysstat; atk_kprof arcs 200; atk_kprof leave 300; cat /dev/sysstat; cat /dev/textsum'
	has "$n-arcs" '^atk_kprof: arcs: ok$'
	has "$n-leave" '^atk_kprof: leave: ok$'
	hasnt "$n-arcs-no-failure" '^FAIL|panic|kernel trap'
	textintact "$n-arcs-text-intact"
	pagesback "$n-arcs-pages-back"
done

# A sleep of 100 ticks beside a reader of a full kpproc on each
# processor ends within 110, deterministic, at 10000 Hz.
for p in 2 4; do
	guest -d -p $p -a hz=10000 -t 300 -c "cat /dev/textsum; cat /dev/sysstat; atk_kprof latency $p; cat /dev/sysstat; cat /dev/textsum"
	n=$(sed -nE 's/^atk_kprof: latency: sleep 100 ticks took at most ([0-9]+) ticks .*/\1/p' <<<"$out")
	echo "p$p: sleep 100 ticks beside $p readers of kpproc: ${n:-?} ticks"
	has "p$p-latency" '^atk_kprof: latency: ok$'
	hasnt "p$p-latency-no-failure" '^FAIL|panic|kernel trap'
	textintact "p$p-latency-text-intact"
	pagesback "p$p-latency-pages-back"
done

# A sleep of 100 ticks beside a process that opens kpgmon again and
# again, and beside one that reads it whole again and again, on one
# processor, where nothing else can take the sleeper, ends within 110:
# with 45 million ticks in a bin (gdb puts them there; an idle
# processor at 10000 Hz takes 75 minutes, eight of them ten) an open
# makes some 690 histogram records, 13 MB.
cat >"$T/bin.py" <<'EOF2'
import gdb
gdb.execute("hbreak sysread", to_string=True)
gdb.execute("continue", to_string=True)
gdb.execute("set var mach[0].kp->cell[100] = 45000000")
gdb.execute("delete")
gdb.execute("continue")
EOF2
gdbguest "$T/bin.py" -p 1 -a hz=10000 -c 'cat /dev/textsum; cat /dev/sysstat; atk_kprof gmonwait 1; cat /dev/sysstat; cat /dev/textsum'
sed -n 's/^atk_kprof: gmonwait: \(sleep .*\)/p1: \1/p' <<<"$out"
has p1-gmonwait '^atk_kprof: gmonwait: ok$'
hasnt p1-gmonwait-no-failure '^FAIL|panic|kernel trap'
textintact p1-gmonwait-text-intact
pagesback p1-gmonwait-pages-back

summary kpattack
