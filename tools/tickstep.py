# gdb script for tools/bench.sh: step through clock ticks instruction by
# instruction and count the instructions by the function they are in.
# The guest (started with -g) runs bench's user-mode loop; the ticks
# counted are those that interrupt it, from the vector's first
# instruction to the iret back.  Prints a line per function, in the
# order first met: "tick NAME INSTRUCTIONS", the mean over $ticks ticks.
import gdb

TICKS = int(gdb.parse_and_eval("$ticks"))
LO = int(gdb.parse_and_eval("$lo"))	# the interrupted pc must be in [LO, HI):
HI = int(gdb.parse_and_eval("$hi"))	# bench's work loop
PORT = int(gdb.parse_and_eval("$port"))	# QEMU's gdb port
KZERO = 0xC0000000

def sym(pc):
    s = gdb.execute("info symbol %#x" % pc, to_string=True).split()
    return s[0] if s and s[0] != "No" else "?"

gdb.execute("target remote localhost:%d" % PORT)
gdb.execute("break vec32")
counts = {}
order = []
done = -1	# the first tick is not counted: it also wakes sleepers, as nextwake starts at 0
while done < TICKS:
    gdb.execute("continue", to_string=True)
    esp = int(gdb.parse_and_eval("$esp")) & 0xFFFFFFFF
    pc = int(gdb.parse_and_eval("*(unsigned int*)%d" % esp)) & 0xFFFFFFFF
    if not LO <= pc < HI:
        continue
    while True:
        pc = int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFF
        if pc < KZERO:
            break
        name = sym(pc)
        if done < 0:
            gdb.execute("stepi", to_string=True)
            continue
        if name not in counts:
            counts[name] = 0
            order.append(name)
        counts[name] += 1
        gdb.execute("stepi", to_string=True)
    done += 1
for name in order:
    print("tick %s %.1f" % (name, counts[name] / TICKS))
gdb.execute("kill")
