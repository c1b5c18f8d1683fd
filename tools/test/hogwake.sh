#!/usr/bin/env bash
# Guest tests of the scheduler's fairness to a sleeper: with a process
# on every processor reading /dev/ps over and over, which does its work
# in the kernel and so takes nearly every tick there, a sleep of 100
# ticks still ends within 3 (hogwake gives the reason for the bound),
# on 1, 2 and 4 processors, deterministic at 10000 Hz.  The hogs used
# to keep the processors until a tick happened to land in user mode:
# the sleeps took up to 593, 442 and 698 ticks.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

for p in 1 2 4; do
	guest -d -p $p -a hz=10000 -t 120 -c "hogwake -n $p"
	sed -n 's/^hogwake: \(.* took .*\)/'"p$p"': \1/p' <<<"$out"
	has "p$p-sleeper-on-time" '^hogwake: ok$'
	hasnt "p$p-no-failure" '^FAIL|panic|kernel trap'
done

summary hogwake
