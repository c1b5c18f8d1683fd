#!/usr/bin/env python3
"""Type at the guest's console as a person does, through a pseudo-terminal.

    typeat.py [RUN-QEMU-ARGS...] < SCRIPT

boots ./run-qemu.sh -k ARGS with a pseudo-terminal as its terminal and
follows SCRIPT, one step a line:

    wait REGEX      wait (up to 60 s) until the console's output since the
                    last wait matches the Python regular expression
    type TEXT       type TEXT; \\r, \\x03 (^C), \\x1b[A (up arrow)... as in
                    Python strings
    retype TEXT     the next wait types TEXT at once and again every half
                    second, each time matching only what came after it:
                    for a state that shows only when asked (^P's list)
    pause SECONDS   wait that long
    # ...           a comment

Everything the console printed goes to the standard output, carriage
returns removed.  Exits 0 when the script is done and the guest has
powered off (the last step is usually `type halt\\r`), 1 if a wait timed
out or the guest did not stop, with the reason on the standard error.
"""
import os, pty, re, select, subprocess, sys, time

def main():
    steps = [l.rstrip("\n") for l in sys.stdin]
    master, slave = pty.openpty()
    proc = subprocess.Popen(["./run-qemu.sh", "-k", "-t", "120"] + sys.argv[1:],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen = b""      # output since the last wait matched
    everything = []

    def pump(t):
        nonlocal seen
        r, _, _ = select.select([master], [], [], t)
        if not r:
            return True
        try:
            data = os.read(master, 4096)
        except OSError:
            return False
        if not data:
            return False
        seen += data
        everything.append(data)
        return True

    def finish(code, why=None):
        deadline = time.time() + 60
        while proc.poll() is None and time.time() < deadline:
            if not pump(0.2):
                break
        try:
            proc.wait(max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            pass
        if proc.poll() is None:
            proc.kill()
            why = why or "guest did not stop"
            code = 1
        sys.stdout.write(b"".join(everything).decode("latin-1").replace("\r", ""))
        if why:
            sys.stderr.write("typeat.py: " + why + "\n")
        sys.exit(code)

    def keys(text):
        return text.encode("latin-1").decode("unicode_escape").encode("latin-1")

    retype = None
    for step in steps:
        if step.startswith("#") or not step.strip():
            continue
        op, _, arg = step.partition(" ")
        if op == "wait":
            pat = re.compile(arg.encode("latin-1"), re.M)
            deadline = time.time() + 60
            again = 0
            while True:
                if retype is not None and time.time() >= again:
                    seen = b""
                    os.write(master, keys(retype))
                    again = time.time() + 0.5
                m = pat.search(seen.replace(b"\r", b""))
                if m:
                    seen = seen.replace(b"\r", b"")[m.end():]
                    break
                if time.time() > deadline or not pump(0.2):
                    finish(1, "timed out waiting for /%s/" % arg)
            retype = None
        elif op == "retype":
            retype = arg
        elif op == "type":
            os.write(master, keys(arg))
        elif op == "pause":
            end = time.time() + float(arg)
            while time.time() < end and pump(0.1):
                pass
        else:
            finish(1, "bad step: " + step)
    finish(0)

main()
