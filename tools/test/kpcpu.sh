#!/usr/bin/env bash
# #T/kpcpu (kprof(3)) with every count at its largest, 2^32-1, on 8
# processors: gdb sets them while the guest waits, and every line comes
# out whole.  Its buffer had 40 bytes a processor, where a line takes
# 41: the last line was cut short.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cat >"$T/max.py" <<'EOF2'
import gdb
gdb.execute("hbreak sysread", to_string=True)
gdb.execute("continue", to_string=True)
for k in range(8):
    gdb.execute("set var mach[%d].kp->cell[0] = 0xffffffff" % k)
    gdb.execute("set var mach[%d].kp->cell[1] = 0xffffffff" % k)
gdb.execute("delete")
gdb.execute("continue")
EOF2

gdbguest "$T/max.py" -p 8 -c 'cat /dev/kpcpu; echo end'
check guest-status [ "$st" = 0 ]
check all-lines-whole [ "$(grep -cE '^cpu [0-7] total 4294967295 kernel 4294967295$' <<<"$out")" = 8 ]
has end '^end$'
[ "$fail" = 0 ] || { sed 's/^/	| /' "$T/gdb" | tail -10; sed 's/^/	| /' <<<"$out" | tail -12; }

summary kpcpu
