#!/usr/bin/env bash
# Host unit test of mcount's table of call-graph arcs (user/lib/arcs.c)
# under threads: four at once calling along the same arcs, within the
# table and past it, counts at their limit, counting off.  The plain,
# the address and undefined-behaviour sanitizers', and the thread
# sanitizer's builds.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

hostbuild mcounttest mcount
if /usr/lib/plan9/bin/mk o/host/mcounttest-tsan >"$T/build.err" 2>&1; then
	ok build-mcounttest-tsan
	hostbins+=("$PWD/o/host/mcounttest-tsan")
	export TSAN_OPTIONS=exitcode=86
else
	bad build-mcounttest-tsan "$(grep -m3 -e error -e 'mk:' "$T/build.err" | head -c 300)"
fi
cd "$T" || exit 1
want 'ok\n'
expect threads 0 threads
want 'ok\n' "mcount: arc table full (2048 arcs): calls on new arcs count as mcountoverflow's\n"
expect full 0 full
want 'ok\n'
expect saturate 0 saturate
expect off 0 off
want '' 'mcounttest: unknown group x\n'
expect bad-group 2 x

summary mcount
