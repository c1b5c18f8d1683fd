#!/usr/bin/env bash
#
# #T attacked (atk_kprof; kprof(3), kern/parse.c, kern/kpproc.c):
# control messages with NULs, of every length and number of words, from
# bad memory, at offsets and in pieces; `pid N' for a child while fork
# makes it; more exited processes than kpproc keeps, with a reader of
# it running; kpproc and kpctl read at every offset in pieces.  On 2 and
# 4 processors under -d, and on 4 without.  After each boot the kernel's
# text is unchanged and the free pages and heap are back.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cases='atk_kprof ctl; atk_kprof offsets; atk_kprof forkpid 20; atk_kprof exits 300'
for how in "-d -p 2" "-d -p 4" "-p 4"; do
	n=${how// /}
	# shellcheck disable=SC2086
	guest $how -a hz=1000 -t 300 -c "cat /dev/textsum; cat /dev/sysstat; $cases; cat /dev/sysstat; cat /dev/textsum"
	for c in ctl offsets forkpid exits; do
		has "$n-$c" "^atk_kprof: $c: ok$"
	done
	hasnt "$n-no-failure" '^FAIL|panic|kernel trap'
	textintact "$n-text-intact"
	pagesback "$n-pages-back"
done

summary kpattack
