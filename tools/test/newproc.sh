#!/usr/bin/env bash
# A new process's note group is its own from the moment its pid is in
# the process table: a ^C of another group (the console's pkillgrp,
# which looks at the table under its lock) must not find the slot's
# last group there and kill the process being made.  gdb stops each
# newproc just after it lets go of the table's lock, at its kernel
# stack's kmalloc, and reads the slot's pid and group.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

at=$(objdump -d --no-show-raw-insn o/kernel | awk '/<newproc>:/, /^$/' |
	sed -nE 's/^ *([0-9a-f]+):.*call .*<kmalloc>$/\1/p' | head -1)
cat >"$T/groups.py" <<EOF2
import gdb
gdb.execute("hbreak *0x$at", to_string=True)
for i in range(6):
    gdb.execute("continue", to_string=True)
    print("newproc: pid %d group %d" % (int(gdb.parse_and_eval("p->pid")), int(gdb.parse_and_eval("p->noteid"))))
gdb.execute("delete")
gdb.execute("continue")
EOF2

gdbguest "$T/groups.py" -p 2 -c 'echo a; echo b; echo c; echo d; echo e'
check guest-status [ "$st" = 0 ]
check found-newproc [ -n "$at" ]
n=$(grep -cE '^newproc: pid ([0-9]+) group \1$' "$T/gdb")
check six-made [ "$(grep -c '^newproc: ' "$T/gdb")" = 6 ]
check group-its-own [ "$n" = 6 ]
[ "$fail" = 0 ] || { sed 's/^/	| /' "$T/gdb" | tail -10; sed 's/^/	| /' <<<"$out" | tail -6; }

summary newproc
