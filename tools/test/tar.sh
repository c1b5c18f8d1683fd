#!/usr/bin/env bash
# Host unit tests of the boot archive reader, kern/tar.c: archives made
# by GNU tar, long names in the ustar prefix, links skipped, and
# truncated or corrupt archives rejected without reading past the end.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# The sanitizer build only: its reports are checked below.
/usr/lib/plan9/bin/mk o/host/tartest-san >"$T/build.err" 2>&1 ||
	{ bad build "tartest does not build: $(grep -m1 error "$T/build.err")"; summary tar; exit 1; }
tartest=$PWD/o/host/tartest-san

mkdir -p "$T/r/bin" "$T/r/tmp"
printf 'hello\n' >"$T/r/bin/a"
head -c 5000 /dev/urandom >"$T/r/bin/b"
: >"$T/r/empty"
long=$(printf 'x%.0s' $(seq 1 60))/$(printf 'y%.0s' $(seq 1 70))
mkdir -p "$T/r/$(dirname "$long")"
printf 'deep\n' >"$T/r/$long"
ln -s bin/a "$T/r/link"
tar --format=ustar -cf "$T/good.tar" -C "$T/r" .

"$tartest" "$T/good.tar" >"$T/list"
check lists-files grep -q '^f bin/a 6 ' "$T/list"
check lists-dirs grep -q '^d bin$' "$T/list"
check no-dot-prefix bash -c "! grep -q '\./' '$T/list'"
check long-name-prefix grep -q "^f $long 5 " "$T/list"
check empty-file grep -q '^f empty 0 0$' "$T/list"
check symlink-skipped bash -c "! grep -q 'link' '$T/list'"
check ends-cleanly grep -q '^end$' "$T/list"
sum=$(python3 -c "
d = open('$T/r/bin/b', 'rb').read()
s = 0
for c in d: s = (s * 31 + c) & 0xffffffff
print(s)")
check data-exact grep -q "^f bin/b 5000 $sum\$" "$T/list"

for cut in 100 512 600 1024 2000 3584 7000; do
	head -c $cut "$T/good.tar" >"$T/cut.tar"
	"$tartest" "$T/cut.tar" >"$T/list" 2>>"$T/err"
	check "truncated-$cut" grep -q '^malformed$' "$T/list"
done
check sanitizer-clean bash -c "! grep -q 'runtime error\|AddressSanitizer' '$T/err'"

cp "$T/good.tar" "$T/bad.tar"
printf 'Z' | dd of="$T/bad.tar" bs=1 seek=5 conv=notrunc 2>/dev/null
"$tartest" "$T/bad.tar" >"$T/list"
check bad-checksum grep -q '^malformed$' "$T/list"

: >"$T/none.tar"
"$tartest" "$T/none.tar" >"$T/list"
check empty-archive-malformed [ "$(cat "$T/list")" = malformed ]

head -c 1024 /dev/zero >"$T/zeros.tar"
"$tartest" "$T/zeros.tar" >"$T/list"
check zero-blocks [ "$(cat "$T/list")" = end ]

summary tar
