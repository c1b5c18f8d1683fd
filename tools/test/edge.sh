#!/usr/bin/env bash
# Guest tests of calls at the edges of what they take
# (user/test/atk_edge.c): offsets at 0x7FFFFFFF, through devices that
# ignore them too; directories as deep as a path reaches; a program
# with a segment in the stack's 4 MB, with threads; writers and readers
# of pipes killed as they wait; kpctl's pid N at children that exit;
# a program whose file's name holds a newline; binds over #c's files;
# every device file opened in every mode, as its permissions allow;
# files bound before or after files, binds onto a device's directory
# and O_TRUNC without writing, refused; binds onto directories removed;
# /dev/ps read in pieces while processes come and go, each list whole;
# and user/test/atk_fs.c: the root file system raced from four
# processes, filled, and truncated under a reader, every call with
# pointers and lengths at their edges, pipes whose ends are killed
# mid-transfer, kills of a process and its parent at once, threads
# waiting each for its own child, and arcs on and off beside forks;
# and user/test/atk_odd.c: directories read at odd offsets and lengths,
# every control file sent what it does not take, channels shared by
# forked processes closed and dup'ed over as they are used, binds that
# make cycles while others walk them, exec of device files, and kills
# of processes whose threads profile and exec at once.
# On 1, 2 and 8 processors under -d and on 4 without; after each boot
# the kernel's text is unchanged and the free pages and heap are back.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cases=(offsets deep seg pipekill pidexit name devbind devmode fileunion rdtrunc devdir rmbind pstorn)
oddcases=(dirs ctl "fds 10" "binds 2000" execdev "storm 100")
for how in "-d -p 1" "-d -p 2" "-d -p 8" "-p 4"; do
	n=${how// /}
	run=
	for c in "${cases[@]}"; do run+="atk_edge $c; "; done
	run+="atk_fs edges; atk_fs race 200; atk_fs trunc 100; atk_fs pipes; atk_fs fill; atk_fs notes 40; "
	for c in "${oddcases[@]}"; do run+="atk_odd $c; "; done
	# shellcheck disable=SC2086
	guest $how -a hz=1000 -t 400 -c "cat /dev/textsum; cat /dev/sysstat; ${run}cat /dev/sysstat; cat /dev/textsum"
	for c in "${cases[@]}"; do
		has "$c$n" "^atk_edge: $c: ok$"
	done
	for c in edges race trunc pipes fill notes; do
		has "fs-$c$n" "^atk_fs: $c: ok$"
	done
	for c in "${oddcases[@]}"; do
		has "odd-${c% *}$n" "^atk_odd: ${c% *}: ok$"
	done
	# name's three runs each die on one line that names the file, newline as '?'
	check "name-fault-lines$n" [ "$(grep -cE '^evil\?name 1 2: pid [0-9]+: trap 14 ' <<<"$out")" = 3 ]
	hasnt "no-failure$n" '^atk_(edge|fs|odd): .*FAIL|panic|kernel trap'
	textintact "text-intact$n"
	pagesback "pages-heap-back$n"
done

summary edge
