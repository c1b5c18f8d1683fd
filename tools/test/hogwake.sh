#!/usr/bin/env bash
# Guest tests of the scheduler's fairness to a sleeper: with a process
# on every processor reading /dev/ps over and over, which does its work
# in the kernel and so takes nearly every tick there, a sleep of 100
# ticks still ends within 3 (hogwake gives the reason for the bound),
# on 1, 2 and 4 processors, deterministic at 10000 Hz.  The hogs used
# to keep the processors until a tick happened to land in user mode:
# the sleeps took up to 593, 442 and 698 ticks.  On 1, beside 8 hogs
# too: a woken sleeper waited behind each hog's turn (107 ticks) when
# the run queue was one.  And on 1, a sleep of
# 1000 ticks beside four processes that read a directory of 900 files
# whole (atk_long dirs), a point at each entry, ends within 5 ticks of
# its end (without the points, 17 late: a read is 38 ticks); and a
# process that reads the clock again and again beside sbrk giving back
# 96 MB, and exits of 96 MB, goes at most 3 ticks without a turn
# (without the points in freeing, 23; and 22 beside one killed as it
# spins, which died in the clock's trap with interrupts off: the
# prober times its turns by the time-stamp counter, as a processor
# with interrupts off loses ticks), and so does one beside sbrk
# showing again 40 MB that a thread's image had hidden (without a
# point at each hidden page zeroed, 48) and hiding 96 MB (without a
# point at each table, 5), and one beside reads of nothing into a
# buffer of 96 MB, which each call checks page by page (without a
# point at each table, 7), and one beside walks of
# a path of 125 elements through a directory of 850 files (without a
# point at each element, 31).  And on 1, a spinner beside 60 sleepers
# due at different times keeps 95% of what it spins alone (98%; when
# the clock readied every sleeper at each one's time, 88%), and a
# quarter beside two that sleep just before each tick.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# turns CASE WHAT: atk_long CASE's longest time without a turn for the
# process beside it, on $p processors, is at most 3 ticks.
turns() {
	local g
	g=$(sed -nE "s/^atk_long: $1: longest gap ([0-9]+) ticks at 10000 Hz\$/\1/p" <<<"$out")
	echo "p$p: the longest without a turn beside $2: ${g:-?} ticks"
	check "p$p-$1-turns" [ "${g:-9999}" -le 3 ]
}

for p in 1 2 4; do
	dirs=
	[ $p = 1 ] && dirs='; hogwake -n 8; atk_long dirs; atk_long free; atk_long hide; atk_long check; atk_long walk; sleepers'
	guest -d -p $p -a hz=10000 -t 120 -c "hogwake -n $p$dirs"
	sed -n 's/^hogwake: \(.* took .*\)/'"p$p"': \1/p' <<<"$out"
	has "p$p-sleeper-on-time" '^hogwake: ok$'
	if [ -n "$dirs" ]; then
		check "p$p-beside-8-hogs-on-time" [ "$(grep -c '^hogwake: ok$' <<<"$out")" = 2 ]
		t=$(sed -nE 's/^atk_long: dirs: ([0-9]+) ticks at 10000 Hz$/\1/p' <<<"$out")
		echo "p$p: a sleep of 1000 ticks beside readers of a directory took ${t:-?}"
		check "p$p-dirs-on-time" [ "${t:-9999}" -le 1005 ]
		turns free 'frees of 96 MB'
		turns hide 'hidden pages shown again'
		turns check 'reads into 96 MB'
		turns walk 'long walks'
		hasnt "p$p-sbrk-hidden" '^atk_long: sbrk failed$'
		sed -n 's/^sleepers: \(in .*\)/p1: \1/p' <<<"$out"
		has "p$p-sleepers-stay-asleep" '^sleepers: ok$'
	fi
	hasnt "p$p-no-failure" '^FAIL|panic|kernel trap'
done

# Two processes that sleep a tick and spin nine tenths of the next,
# asleep at every tick, beside a spinner on one processor, which keeps
# at least a quarter (a third is its part).  When a wakeup put them
# first at every tick, it kept 6%.
guest -d -p 1 -a hz=1000 -t 120 -c 'sleepers -g 2 -m 25 -t 1000'
sed -n 's/^sleepers: \(in .*\)/p1: \1/p' <<<"$out"
has p1-greedy-share '^sleepers: ok$'

summary hogwake
