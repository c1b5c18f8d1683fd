#!/usr/bin/env bash
# A user page fault at an address whose page table entry now allows the
# access is run again, not taken for the program's (kern/trap.c,
# spurious): on real processors another thread's sbrk can show a hidden
# heap page again while this processor's TLB still holds it hidden.
# QEMU keeps no such translation, so gdb makes the fault: atk_share
# stale, with a thread beside it, hides a page it wrote and reads it in
# stalepoke; at that read's page fault gdb sets the entry's user bit,
# as mapuser would, and the read must go on and find what was written.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

cat >"$T/stale.py" <<'EOF2'
import gdb
ev = gdb.parse_and_eval
gdb.execute("add-symbol-file o/test/atk_share", to_string=True)
gdb.execute('hbreak stalepoke if $_streq($up()->name, "atk_share")', to_string=True)
gdb.execute("continue", to_string=True)
pid = int(ev("$up()->pid"))
va = int(ev("(unsigned)staleaddr"))
gdb.execute("delete")
# The process's next page fault, on whichever processor it runs then
# (an idle one has no process: the condition must not look through
# nil, as gdb stops where it cannot evaluate one).
gdb.execute("hbreak trap if $up() != 0 && $up()->pid == %d && u->trap == 14" % pid, to_string=True)
for i in range(100):
    gdb.execute("continue", to_string=True)
    p = ev("$up()")
    if int(p) != 0 and int(p["pid"]) == pid and int(ev("u->trap")) == 14:
        break
if int(ev("u->cs")) & 3 == 3 and int(ev("u->pc")) < 0xC0000000:
    pde = int(ev("$up()->pgdir[%d]" % (va >> 22)))
    pte = "*(unsigned*)%d" % ((pde & ~0xFFF) + 0xC0000000 + ((va >> 12) & 0x3FF) * 4)
    print("stale: fault at %#x, entry %#x" % (va, int(ev(pte))))
    gdb.execute("set var %s = %s | 4" % (pte, pte))
else:
    print("stale: a fault in the kernel at %#x" % int(ev("u->pc")))
gdb.execute("delete")
gdb.execute("continue")
EOF2

gdbguest "$T/stale.py" -p 2 -c 'cat /dev/textsum; cat /dev/sysstat; atk_share stale; cat /dev/sysstat; cat /dev/textsum'
check gdb-found-the-fault grep -qE '^stale: fault at 0x[0-9a-f]+, entry 0x[0-9a-f]*[0-3]$' "$T/gdb"
has read-again '^atk_share: stale: ok$'
hasnt not-killed 'atk_share: pid [0-9]+: trap|FAIL|panic|kernel trap'
textintact text-intact
pagesback pages-back
[ "$fail" = 0 ] || { sed 's/^/	| /' "$T/gdb" | tail -10; sed 's/^/	| /' <<<"$out" | tail -6; }

summary stale
