# gdb script for tools/bench.sh: the instructions of an uncontended
# lock and unlock (kern/lock.c), pushcli and popcli included.  Steps
# through $n calls of each, from the first instruction to the return
# to the caller, and prints "lock N" and "unlock N", the means.
import gdb

N = int(gdb.parse_and_eval("$n"))
PORT = int(gdb.parse_and_eval("$port"))	# QEMU's gdb port

gdb.execute("target remote localhost:%d" % PORT)
gdb.execute("break lock")
gdb.execute("break unlock")
counts = {"lock": 0, "unlock": 0}
calls = {"lock": 0, "unlock": 0}
while min(calls.values()) < N:
    gdb.execute("continue", to_string=True)
    pc = int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFF
    name = gdb.execute("info symbol %#x" % pc, to_string=True).split()[0]
    if calls[name] >= N:
        continue
    esp = int(gdb.parse_and_eval("$esp")) & 0xFFFFFFFF
    ret = int(gdb.parse_and_eval("*(unsigned int*)%d" % esp)) & 0xFFFFFFFF
    n = 0
    gdb.execute("disable")
    while (int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFF) != ret:
        gdb.execute("stepi", to_string=True)
        n += 1
    gdb.execute("enable")
    counts[name] += n
    calls[name] += 1
for name in ("lock", "unlock"):
    print("%s %.1f" % (name, counts[name] / N))
gdb.execute("kill")
