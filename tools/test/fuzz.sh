#!/usr/bin/env bash
# The system-call fuzzer (user/test/fuzz.c): 250,000 random calls from four
# processes, after which the kernel has not panicked, has every page it
# had before, and its text is still what /kernel holds.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# (profil.sh checks the same of profiltest.)  At 1000 Hz: a worker's
# sleep of a millisecond, which the test only waits for, then lasts a
# millisecond, not the 10 of a tick at 100 Hz (the CPUs were idle for a
# quarter of the run).  On one processor: the four workers share it,
# which costs the suite less host time than two (QEMU's second thread
# mostly waits); mp.sh runs fuzz on four processors, with another seed.
# 250,000 calls reach all but 0.7 percent of the kernel instructions
# that a million reach (11,176 and 11,250, under -d, counted by a QEMU
# plugin), and threads.sh's threadtest reaches those few (a thread's
# rfork and profiler checks: pfork, imleave, profonstack); a million
# cost the suite 30 s of the host's time.
guest -p 1 -a 'hz=1000' -t 900 -c 'cat /dev/textsum; cat /dev/sysstat; fuzz 250000; cat /dev/sysstat; cat /dev/textsum'
has fuzz-ok 'fuzz: 250000 calls, ok$'
hasnt fuzz-no-panic 'panic'
before=$(grep -E '^pages' <<<"$out" | head -1 | awk '{print $4}')
after=$(grep -E '^pages' <<<"$out" | tail -1 | awk '{print $4}')
check fuzz-no-page-leak [ -n "$before" -a "$before" = "$after" ]
# Kernel text, hashed in the guest after all that, is still what /kernel holds.
textintact kernel-text-intact

summary fuzz
