#!/usr/bin/env bash
# tools/build runs mk only when a source is newer than its last build,
# looking in the places its watch list names: every file whose name
# says it is a source must lie in one of them, or a change to it leaves
# o/ stale (the host kprof's own C files once did); and tools/runtests
# and tools/bench.sh refuse an argument they do not take.  Host only.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

watch=$(sed -n 's/^watch="\(.*\)"$/\1/p' tools/build)
check watch-list [ -n "$watch" ]
outside=
while read -r f; do
	in=
	for w in $watch; do
		case $f in "$w" | "$w"/*) in=y ;; esac
	done
	[ -n "$in" ] || outside="$outside $f"
done < <(find . \( -path ./o -o -path ./.git \) -prune -o -type f \( -name '*.[ch]' -o -name '*.asm' \
	-o -name '*.ld' -o -name '*.cfg' -o -name mkfile -o -name '*.[1-9]' -o -name mkconf \) -print | sed 's|^\./||')
check sources-watched [ -z "$outside" ] || echo "# not watched:$outside"

# tools/runtests takes -j N alone: a word after it (a test's name, say)
# is refused at once, not ignored for a run of the whole suite.  The
# timeout ends such a run, should the refusal ever go.
timeout 10 tools/runtests -j 1 guest >"$T/rt" 2>&1 </dev/null
check runtests-extra-arg-refused [ $? = 2 ]
check runtests-extra-arg-says grep -qx "tools/runtests: unexpected argument 'guest' (it runs every test; one alone: bash tools/test/NAME.sh)" "$T/rt"
check runtests-extra-arg-runs-nothing [ "$(grep -c '^== ' "$T/rt")" = 0 ]
# So does tools/bench.sh, which takes none.
timeout 10 tools/bench.sh -h >"$T/bench" 2>&1 </dev/null
check bench-arg-refused [ $? = 2 ]
check bench-arg-usage grep -qx 'usage: tools/bench.sh (no arguments; ROUNDS=N in the environment, default 100000)' "$T/bench"

summary build
