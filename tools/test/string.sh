#!/usr/bin/env bash
# Host unit test of memset, memmove and memcpy, the string-instruction
# ones of kern/string.c that the kernel and the C library share: the
# plain and sanitized host builds, and a 32-bit build, as the kernel is.
# The 32-bit build runs under qemu-i386 (user-mode emulation), so that it
# runs on a host whose kernel runs no 32-bit programs, and natively too
# where the host can.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

hostbuild stringtest string
# run NAME COMMAND...: the case passes if COMMAND prints ok and exits 0.
run() {
	local name=$1
	shift
	"$@" >"$T/out" 2>&1
	st=$?
	check "$name" [ "$st" = 0 -a "$(cat "$T/out")" = ok ]
	[ "$st" = 0 ] || head -5 "$T/out"
}

for bin in "${hostbins[@]}"; do
	run "${bin##*/}" "$bin"
done
b32=$PWD/o/host/stringtest32
run stringtest32-qemu-i386 qemu-i386 "$b32"
# Exit status 126 is the shell's "cannot execute": no 32-bit programs.
"$b32" >/dev/null 2>&1
if [ $? = 126 ]; then
	echo "stringtest32: this host runs no 32-bit programs; run under qemu-i386 only"
else
	run stringtest32-native "$b32"
fi

summary string
