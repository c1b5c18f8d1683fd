#!/usr/bin/env bash
# Guest tests of threads and profiling at the process level (profil(2),
# doc/contract.md), on 2 and 4 processors, deterministic at 10000 Hz:
# profdemo -t splits its 3:1 work over as many threads as processors:
# 75% +- 1 point in spin3, and the counters' sum the ticks its threads
# ran with profil on (#c/proctime), exactly.  Then threadtest checks
# rfork(RFPROC|RFMEM) (shared data, bss and heap, its own stack, wait,
# flags, lock, malloc), every thread counting into the one profil
# buffer with nothing lost, a counter driven past 65535 by several
# threads, pcsample from 2 threads exactly as many samples as ticks
# until full, the fault rule for all threads, a thread's exec, fork
# from a thread, and a hostile program's ways (kill of one thread, an
# rfork bomb, the first thread exiting first, sbrk under a thread in a
# read, profil and pcsample into a thread's own stack).  After each
# boot the kernel's text is unchanged and the free pages and the heap
# are back where they started: after a second, as the threads that
# outlive threadtest's first-exits-first case are init's to reap.
# atk_prof's cases, 1000 ticks each, on 1, 2 and 4 processors, attack
# the profilers' writes at their user addresses: settings switched
# under ticking threads, heap taken away under the buffers on either
# side of a page table's boundary, pages freed under the ticks and
# taken by other processes of the same program, the top of user space,
# kills and exec amid the ticks (user/test/atk_prof.c); atk_clock's
# both and clock, profil and pcsample at once (each sample in its
# counter), and the NMI clock's count of the images that profile
# beside kpctl's changes (user/test/atk_clock.c); and on 1
# processor the clock's rate against QEMU's virtual time beside
# threads that turn profil and pcsample on and off (atk_prof rate,
# 10000 ticks: at most 2000 ppm off the rate with nothing profiling),
# and a sample in each 1/HZ while kprof starts and stops, and while
# it counts with stacks (atk_clock steady and beside).
# atk_share, on 1 and 8 processors, attacks threads asleep in system
# calls (a pipe's read and full write, wait) with their buffers in a
# heap that the main thread takes away and then execs, exits or grows
# over: each call ends as asked; and pipes, zombies and exec's
# arguments at their edges (user/test/atk_share.c).
#
# Every check here counts ticks, not instructions (profdemo's 1 s,
# atk_prof's 1000 ticks, threadtest's spins of so many ticks), so the
# boots run on a slower processor, run-qemu.sh -d -i 3: an instruction
# is 8 virtual ns, a tick at 10000 Hz 12,500 instructions rather than
# 100,000, and the four boots cost the host 6.5 s of CPU, not 15.  The
# ticks are as many, and each lands in the same share of each loop:
# profdemo's 3:1 split comes out 75.0 and 74.9 percent (75.1 and 75.2
# at 100,000), and an attack's tick falls in its window as often.
# But for the last boot, plain -d on 8 processors, where the thinning
# of a busy processor's samples for idle ones that looked busy showed.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

atkcases=(top mix shrink churn kill exec)
clkcases=(both clock)
atkprof=
for c in "${atkcases[@]}"; do atkprof+="atk_prof $c 1000"$'\n'; done
for c in "${clkcases[@]}"; do atkprof+="atk_clock $c 1000"$'\n'; done

# atkok N: every atk_prof and atk_clock case of the last guest, on N processors, said ok.
atkok() {
	local c
	for c in "${atkcases[@]}"; do
		has "atk_prof-$c-$1" "^atk_prof: $c: ok$"
	done
	for c in "${clkcases[@]}"; do
		has "atk_clock-$c-$1" "^atk_clock: $c: ok$"
	done
}

sharecases=(pipes args zombies blocked)
share='atk_share pipes; atk_share args; atk_share zombies; atk_share blocked 12'

# shareok N: every atk_share case of the last guest, on N processors, said ok.
shareok() {
	local c
	for c in "${sharecases[@]}"; do
		has "atk_share-$c-$1" "^atk_share: $c: ok$"
	done
}

guest -d -i 3 -p 1 -a 'hz=10000' -t 300 -c "cat /dev/textsum; cat /dev/sysstat
${atkprof}atk_prof rate 10000
atk_clock steady 3000
atk_clock beside 3000
$share
sleep 1
cat /dev/sysstat; cat /dev/textsum"
atkok 1
shareok 1
sed -n 's/^atk_prof: rate: \(alone .*\)/p1: \1/p' <<<"$out"
has atk_prof-rate-1 '^atk_prof: rate: ok$'
has atk_clock-steady-1 '^atk_clock: steady: ok$'
has atk_clock-beside-1 '^atk_clock: beside: ok$'
grep -E '^atk_clock: (steady|beside): [0-9]' <<<"$out"
hasnt "atk_prof-1-no-fail" '^FAIL'
hasnt "atk_prof-1-no-panic" 'panic'
textintact "atk_prof-1-text-intact"
pagesback "atk_prof-1-pages-heap-back"

for n in 2 4; do
	guest -d -i 3 -p $n -a 'hz=10000' -t 300 -c "cat /dev/textsum; cat /dev/sysstat
profdemo -p -t $n 1
threadtest
${atkprof}sleep 1
cat /dev/sysstat; cat /dev/textsum"
	has "threadtest-$n" '^threadtest: ok$'
	atkok $n
	hasnt "threadtest-$n-no-fail" '^FAIL'
	hasnt "threadtest-$n-no-panic" 'panic'
	read -r counted profiled <<<"$(sed -nE 's/^profil: ([0-9]+) ticks counted, ([0-9]+) ticks profiled$/\1 \2/p' <<<"$out")"
	echo "profdemo -p -t $n on $n cpus: ${counted:-?} ticks counted, ${profiled:-?} profiled"
	check "profil-$n-threads-10000-ticks" [ "${counted:-0}" -ge 10000 ]
	check "profil-$n-threads-nothing-lost" [ -n "$counted" -a "$counted" = "$profiled" ]
	s3=$(awk -F'\t' '$3 == "spin3" { print $1 }' <<<"$out")
	s1=$(awk -F'\t' '$3 == "spin1" { print $1 }' <<<"$out")
	echo "profil, $n threads on $n cpus: spin3 $s3 ms, spin1 $s1 ms"
	check "profil-$n-threads-3-to-1" python3 -c "import sys; a, b = ${s3:-0}, ${s1:-0}; sys.exit(a + b == 0 or abs(100.0 * a / (a + b) - 75) > 1)"
	textintact "threads-$n-text-intact"
	pagesback "threads-$n-pages-heap-back"
done

# A buffer on a thread's own stack (threadtest's stack-* checks, also
# run above), on 8 processors too: refused while there are threads, and
# no thread's copy of it written; and atk_prof's shrink, whose
# pcsample counts must be the slots written, its four threads failing
# at once on as many processors; and both and clock on 8.
guest -d -i 3 -p 8 -a 'hz=10000' -t 300 -c "cat /dev/textsum; threadtest -stack; atk_prof shrink 300; atk_clock both 300; atk_clock clock 1000; $share; cat /dev/textsum"
has "threadtest-stack-8" '^threadtest: ok$'
has "atk_prof-shrink-8" '^atk_prof: shrink: ok$'
has "atk_clock-both-8" '^atk_clock: both: ok$'
has "atk_clock-clock-8" '^atk_clock: clock: ok$'
shareok 8
hasnt "threadtest-stack-8-no-fail" '^FAIL'
textintact "threads-stack-8-text-intact"

# A sample in each 1/HZ while kprof counts beside, on 8 processors
# under plain -d (a tick of 100,000 instructions): the idle ones, woken
# by each NMI, looked at the run queue counted busy, and the busy one's
# samples were thinned for them (kern/proc.c, scheduler): 4.4 percent
# went, 1.4 on 4.
guest -d -p 8 -a 'hz=10000' -t 300 -c 'atk_clock beside 3000'
has atk_clock-beside-8 '^atk_clock: beside: ok$'
grep -E '^atk_clock: beside: [0-9]' <<<"$out" | sed 's/^/p8: /'

summary threads
