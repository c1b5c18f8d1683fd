# gdb script for tools/bench.sh: step through interrupts instruction by
# instruction and count the instructions by the function they are in.
# The interrupts counted are those entering at $entry (vec32, the
# clock; nmientry, kprof's NMI) that interrupt a pc in [$lo, $hi),
# after $skip such (the first may do work that later ones do not:
# wake sleepers, insert a stack in kprof's table), from the entry's
# first instruction until the interrupted pc runs again.  Prints a
# line per function, in the order first met: "step NAME INSTRUCTIONS",
# the mean over $ticks interrupts.
import gdb

ENTRY = str(gdb.parse_and_eval("$entry").string())
TICKS = int(gdb.parse_and_eval("$ticks"))
SKIP = int(gdb.parse_and_eval("$skip"))
LO = int(gdb.parse_and_eval("$lo"))
HI = int(gdb.parse_and_eval("$hi"))
PORT = int(gdb.parse_and_eval("$port"))	# QEMU's gdb port

def sym(pc):
    s = gdb.execute("info symbol %#x" % pc, to_string=True).split()
    return s[0] if s and s[0] != "No" else "?"

gdb.execute("target remote localhost:%d" % PORT)
gdb.execute("break " + ENTRY)
counts = {}
order = []
done = -SKIP
while done < TICKS:
    gdb.execute("continue", to_string=True)
    esp = int(gdb.parse_and_eval("$esp")) & 0xFFFFFFFF
    ipc = int(gdb.parse_and_eval("*(unsigned int*)%d" % esp)) & 0xFFFFFFFF
    if not LO <= ipc < HI:
        continue
    gdb.execute("disable")
    while True:
        pc = int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFF
        if pc == ipc:
            break
        if done >= 0:
            name = sym(pc)
            if name not in counts:
                counts[name] = 0
                order.append(name)
            counts[name] += 1
        gdb.execute("stepi", to_string=True)
    gdb.execute("enable")
    done += 1
for name in order:
    print("step %s %.1f" % (name, counts[name] / TICKS))
gdb.execute("kill")
