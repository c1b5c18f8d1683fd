#!/usr/bin/env bash
# Guest tests of races that hostile programs found on several
# processors (user/test/faults.c), on 2, 4 and 8, deterministic at
# 10000 Hz (the clock's scheduling points then fall often, inside the
# calls that race), and once more on 4 without -d, where the
# processors truly run at once.  Each test asserts an invariant over
# many rounds, never a time:
#   append: writers on channels of their own, each with O_APPEND, lose
#   and double nothing, records or 96 KB blocks;
#   mounts: threads that bind onto one new directory at once each find
#   their bind there until their unmount, and gone after;
#   kpread (under -d only, where ticks are the guest's instructions):
#   with kprof's stack tables full, one reader of #T/kpstack a
#   processor, and another process's sleep(100) takes at most 110 ms;
#   kill: a kill lands in every state a process can be in (forked but
#   not yet run, running, asleep in sleep, a pipe, wait or a channel's
#   lock, exiting): it dies, or the kill fails;
#   atk_race (user/test/atk_race.c): calls with their buffers, paths
#   and argument vectors in a heap page that a thread takes away and
#   gives back without pause; exec of a program another process
#   rewrites and cuts short, and two threads of one image exec'ing at
#   once; the process table full of children with their descriptors
#   full of full pipes, blocked, all killed; calls with the stack
#   pointer at the top of user memory, their arguments in the kernel's;
#   atk_heap root: the heap taken by files, pipes and channels to the
#   last channel, and "/", bound after with a directory, opened with
#   room for one channel: the union or ENOMEM, never the root alone
#   (and fork, with no room for a kernel stack, ENOMEM, not EAGAIN);
#   atk_create: threads open one file with O_CREAT while another
#   removes it without pause: every open succeeds; and through a bind
#   of a file since removed, it fails at once;
#   atk_heap pages (without -d): every free page taken with sbrk until
#   ENOMEM, given back, and taken again, zeroed, from those freed.
# After each boot no test failed, nothing panicked, the kernel's text
# is unchanged and the free pages and the heap are back where they were.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# kill leaves orphans (a killed child's child) for init to reap before
# the last sysstat: kpread's sleeps give it the time under -d, where
# the run is the same every time; without -d, a second's sleep does.
run='cat /dev/textsum; cat /dev/sysstat
faults append
faults mounts 200
faults kill 30
atk_race stacktop
atk_race calls 300
atk_race exec 40
atk_race exhaust 2
atk_heap root
atk_create 300
LAST
cat /dev/sysstat; cat /dev/textsum'

for how in "-d -p 2" "-d -p 4" "-d -p 8" "-p 4"; do
	name=$(tr -d ' ' <<<"$how")
	case $how in
	-d*) last='faults kpread' test=-T ;;	# kpread fills the tables with #S's tree
	*) last='atk_heap pages; sleep 1' test= ;;
	esac
	guest $test $how -a 'hz=10000' -t 300 -c "${run/LAST/$last}"
	has "append$name" '^faults: append: ok$'
	has "mounts$name" '^faults: mounts: ok$'
	has "kill$name" '^faults: kill: ok$'
	for c in stacktop calls exec exhaust; do
		has "race-$c$name" "^atk_race: $c: ok$"
	done
	has "heap-root$name" '^atk_heap: root: ok$'
	has "create$name" '^atk_create: ok$'
	case $last in
	atk_heap*) has "heap-pages$name" '^atk_heap: pages: ok$' ;;
	*)	has "kpread$name" '^faults: kpread: ok$'
		sed -nE 's/^faults: kpread: (.*)/kpread '"$how"': \1/p' <<<"$out" ;;
	esac
	hasnt "no-failure$name" 'FAIL|panic'
	textintact "text-intact$name"
	pagesback "pages-back$name"
done

summary faults
