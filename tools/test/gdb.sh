#!/usr/bin/env bash
# The README's gdb recipe (section Debugging), start to end, as written
# there: its ./run-qemu.sh -g command, and each line it types at
# (gdb), given to gdb in batch mode.  The guest waits for gdb as long
# as it takes (under -g, -c sets no time limit); this script's
# timeout only keeps a broken run from hanging the suite.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

section=$(sed -n '/^## Debugging/,/^## /p' README.md)
run=$(grep -m1 '^\$ \./run-qemu\.sh .*-g' <<<"$section" | sed 's/^\$ //')
mapfile -t steps < <(sed -n 's/^(gdb) //p' <<<"$section")
check recipe-found [ -n "$run" -a "${#steps[@]}" -ge 5 ]
gdbargs=()
for s in "${steps[@]}"; do
	gdbargs+=(-ex "$s")
done

port=$(freeport)
eval "GDBPORT=$port timeout 600 $run" >"$T/console" 2>&1 &
qemu=$!
listening "$port"
timeout 600 gdb -q -batch -nx -ex "set \$gdbport = $port" -x tools/gdbinit "${gdbargs[@]}" >"$T/gdb" 2>&1
wait $qemu
st=$?
out=$(tr -d '\r\0' <"$T/console")
check guest-status [ "$st" = 0 ]
has guest-waited 'waiting for gdb on localhost:'
has guest-ran '^hello$'
out=$(cat "$T/gdb")
has clock-break "^Hardware assisted breakpoint 1 at 0x[0-9a-f]+: file kern/"
has clock-hit 'hit Breakpoint 1, clock \(\) at kern/'
has clock-bt0 '^#0  clock \(\) at kern/'
# trap calls clock for a tick in a program, and jumps to it for one in
# the kernel, where the caller is alltraps: which tick comes first varies.
has clock-bt1 '^#1  0x[0-9a-f]+ in (alltraps \(\)|trap \(.*\) at kern/trap\.c:[0-9]+)$'
has usersyms "^add symbol table from file \"o/bin/echo\""
has main-hbreak '^Hardware assisted breakpoint 2 at 0x[0-9a-f]+: file user/echo.c'
has main-hit 'hit Breakpoint 2, main \(argc=2, argv=0x[0-9a-f]+\) at user/echo.c:[0-9]+'
has main-argv '^\$1 = 0x[0-9a-f]+ "hello"$'
hasnt gdb-errors '^(No symbol|Cannot access|Error|.*: No such file)'
[ "$fail" = 0 ] || sed 's/^/	| /' "$T/gdb" | tail -20

summary gdb
