#!/usr/bin/env bash
#
# #T attacked (atk_kprof; kprof(3), kern/parse.c, kern/kpproc.c):
# control messages with NULs, of every length and number of words, from
# bad memory, at offsets and in pieces; kpproc read in pieces while
# its lines move; `pid N' for a child while fork
# makes it; more exited processes than kpproc keeps, with a reader of
# it running; kpproc, kpctl and kpgmon read at every offset in pieces;
# kpproc held open, each open with its text, by processes and threads
# until the heap runs out, beside readers of one shared open at odd
# offsets; openers of kpgmon killed mid-open while others toggle arcs,
# startclr, stop and start;
# kpgmon held open as often as processes can (fork and exec still
# work); arcs on, arcs off and startclr from three processes at once
# while two others fork and kprof samples at 10000 Hz (the text's hash
# after arcs off is the kernel's); threads that exit with their frame
# pointer in a page whose table the last thread frees as they go, and
# another process refills (atk_kprof leave).  On 2 and 4 processors
# under -d, and on 4 without.  Then the latency of a sleep beside
# readers of a full kpproc and of kpdata, on 2, 4 and 8, and beside
# an opener of kpgmon with a bin of millions of ticks, under -d; and
# kprof's clock at its rate after kpctl's interval reprograms it while
# the first processor's NMI is halfway through its own reprogramming
# (gdb holds it there).  After each boot the kernel's text is unchanged
# and the free pages and heap are back.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cases='atk_kprof ctl; atk_kprof offsets; atk_kprof torn 40; atk_kprof forkpid 20; atk_kprof exits 300; atk_kprof gmon; atk_kprof kphold 20; atk_kprof gmonkill 20'
for how in "-d -p 2" "-d -p 4" "-p 4"; do
	n=${how// /}
	# shellcheck disable=SC2086
	guest $how -a hz=1000 -t 300 -c "cat /dev/textsum; cat /dev/sysstat; $cases; cat /dev/sysstat; cat /dev/textsum"
	for c in ctl offsets torn forkpid exits gmon kphold gmonkill; do
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
# processor ends within 110, deterministic, at 10000 Hz; and beside
# readers of kpdata, whose read sums every processor's cells (118 on 8
# when it had no scheduling point).
for p in 2 4 8; do
	guest -d -p $p -a hz=10000 -t 300 -c "cat /dev/textsum; cat /dev/sysstat; atk_kprof latency $p; cat /dev/sysstat; cat /dev/textsum"
	sed -nE "s/^atk_kprof: latency: (sleep 100 ticks took .*)/p$p: \1/p" <<<"$out"
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

# kpctl's interval while kprof counts reprograms the 8254 that the
# first processor's NMI also reprograms at each of its ticks (random
# intervals: kern/apic.c, nmiclocknext), a count's two bytes a write
# each after the mode.  gdb stops that NMI between its two bytes and
# runs the other processor alone into its write of interval random:
# it must wait in nmiset for that NMI to end (nmiquiet), not write the
# 8254, 5,000 instructions on.  (It used to write, and the test had
# the writers stop there, so that no write after put the bytes back
# in step.)  Then both run, the writers stop, and kprof's clock must
# still tick at its rate.
dis=$(objdump -d --no-show-raw-insn o/kernel)
mid=$(awk '/<nmiclocknext>:/, /^$/' <<<"$dis" | awk '/out +%al,\$0x40/ { getline; print $1; exit }' | tr -d :)
read -r nslo nslen < <(nm -S o/kernel | awk '$4 == "nmiset" { print $1, $2 }')
read -r ulo ulen < <(nm -S o/kernel | awk '$4 == "usertick" { print $1, $2 }')
stop=$(nm o/test/atk_kprof | awk '$3 == "intervalstop" { print $1 }')
cat >"$T/interval.py" <<EOF2
import gdb
ev = gdb.parse_and_eval
gdb.execute("hbreak *0x$mid", to_string=True)
# The first processor, in a user tick of a writer: it holds no lock.
# The other processor, run alone, reaches the other writer's write
# (its parent, if it runs there yet, soon waits for the two).
while True:
    gdb.execute("continue", to_string=True)
    ret = int(gdb.selected_frame().older().pc())
    p = ev("mach[0].proc")
    if (int(p) != 0 and 0x$ulo <= ret < 0x$ulo + 0x$ulen
        and p["parent"]["name"].string() == "atk_kprof"):
        break
print("interval: cpu 0 stopped between the count's bytes")
gdb.execute("delete")
gdb.execute("thread 2", to_string=True)
gdb.execute("set scheduler-locking on")
# The other processor may be in nmiset already, past its first
# instruction, when the first stops: the QEMU's turns decide.
pc = int(ev("\$pc"))
if not 0x$nslo <= pc < 0x$nslo + 0x$nslen:
    gdb.execute("hbreak *0x$nslo thread 2", to_string=True)
    gdb.execute("continue", to_string=True)
    gdb.execute("delete")
for i in range(50):
    gdb.execute("stepi 100", to_string=True)
pc = int(ev("\$pc"))
if 0x$nslo <= pc < 0x$nslo + 0x$nslen:
    print("interval: cpu 1 waits for cpu 0's NMI")
else:
    print("interval: cpu 1 left nmiset: pc %#x" % pc)
gdb.execute("set var *(int*)0x$stop = 1")
gdb.execute("delete")
gdb.execute("set scheduler-locking off")
gdb.execute("continue")
EOF2
gdbguest "$T/interval.py" -p 2 -a hz=10000 -c 'cat /dev/textsum; cat /dev/sysstat; atk_kprof interval 20000; cat /dev/sysstat; cat /dev/textsum'
check p2-interval-found test -n "$mid" -a -n "$nslo" -a -n "$ulo" -a -n "$stop"
check p2-interval-waits grep -q "cpu 1 waits for cpu 0's NMI" "$T/gdb"
sed -n 's/^atk_kprof: interval: \(.* ticks .*\)/p2: \1/p' <<<"$out"
has p2-interval '^atk_kprof: interval: ok$'
hasnt p2-interval-no-failure '^FAIL|panic|kernel trap'
textintact p2-interval-text-intact
pagesback p2-interval-pages-back
grep -q "cpu 1 waits" "$T/gdb" && grep -q "^ok interval$" <<<"$out" || { sed 's/^/	| /' "$T/gdb" | tail -20; sed 's/^/	| /' <<<"$out" | tail -6; }

summary kpattack
