#!/usr/bin/env bash
# Host unit test of memset, memmove and memcpy, the string-instruction
# ones of kern/string.c that the kernel and the C library share: the
# plain and sanitized host builds, and a 32-bit build, as the kernel is.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

hostbuild stringtest string
for bin in "${hostbins[@]}" "$PWD/o/host/stringtest32"; do
	name=${bin##*/}
	"$bin" >"$T/out" 2>&1
	st=$?
	check "$name" [ "$st" = 0 -a "$(cat "$T/out")" = ok ]
	[ "$st" = 0 ] || head -5 "$T/out"
done

summary string
