#!/usr/bin/env bash
# tools/build runs mk only when a source is newer than its last build,
# looking in the places its watch list names: every file whose name
# says it is a source must lie in one of them, or a change to it leaves
# o/ stale (the host kprof's own C files once did).  Host only.
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

summary build
