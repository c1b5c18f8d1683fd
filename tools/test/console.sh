#!/usr/bin/env bash
# Guest tests of the console as a person types at it: the
# kernel's line discipline (cooked mode, while a command reads), the
# shell's own line editor and history (raw mode, at the prompt), ^C,
# ^D, ^P, and the run-qemu.sh -g message.  tools/test/typeat.py types
# through a pseudo-terminal; \x03 is ^C, \x1b[A the up arrow, and so on.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# A ^C reaches a command only once the shell has made it the console's
# foreground, which nothing prints: the scripts below type ^P (the
# process list) until it shows the command there and the shell asleep,
# as it is only in wait, after that.

# ^C ends a foreground spin 100: the shell prompts again, and within a
# second of guest time.  ^P, typed with the ^C, gives the tick of the ^C;
# the cat typed after it (kept: ^C discards only what came before) is
# the first thing the new prompt reads, and gives the tick it ran at.
# The rest of the line is abandoned; a background spin lives on, to
# end after the ^C.
typeat ctlc -d <<'EOF2'
wait ^\$ 
type spin 1 > /tmp/bg &\r
wait ^\$ 
type spin 100; echo not after a kill\r
wait spin 100; echo not after a kill\n
retype \x10
wait \A(?=(?s:.*)^ *[0-9]+ +[0-9]+ +sleep +[0-9]+K +[0-9]+ sh$)(?=(?:(?s:.*?)^.* spin\n){2})
type \x10\x03cat /dev/time; echo after $status\r
wait ^after [0-9]+\n
wait ^\$ 
type sleep 2; cat /tmp/bg\r
wait ^spin [0-9]+: ticks .* loops\n
type halt\r
EOF2
tc=$(sed -n 's/^^P at tick \([0-9]*\)$/\1/p' <<<"$out" | tail -1)
t1=$(grep -E '^[0-9]+ 100$' <<<"$out" | head -1 | cut -d' ' -f1)
has ctlc-echo '\^C$'
d=$(( ${t1:-100000} - ${tc:-0} ))
echo "# ^C to the next command's start: $d ticks at 100 Hz (tick $tc to $t1)"
check ctlc-within-a-second [ -n "$tc" -a -n "$t1" -a "$d" -ge 0 -a "$d" -le 100 ]
has ctlc-shell-goes-on '^after 0$'
hasnt ctlc-ends-the-line '^not after a kill$'
check ctlc-spin-killed [ "$(grep -c '^spin [0-9]*: ticks' <<<"$out")" = 1 ]
bg=$(sed -nE 's/^spin [0-9]+: ticks [0-9]+ to ([0-9]+), .*/\1/p' <<<"$out" | head -1)
check ctlc-background-lives [ -n "$bg" -a "${bg:-0}" -gt "${tc:-999999}" ]

# The kernel's cooked mode, while cat reads: erase, kill, word erase,
# control characters and arrows dropped, ^D at a line's start ends it;
# after some of a line, ^D ends the line there, and cat reads on.
# The shell turns raw mode off before the newline that ends the line it
# read, and the console edits what is typed as it comes: typed after
# that newline, the lines are cooked, whether cat reads yet or not.
typeat cooked -d <<'EOF2'
wait ^\$ 
type cat > /tmp/typed\r
wait cat > /tmp/typed\n
type abc\x7fd\r
type wrong\x15right\r
type one two\x17three\r
type x\x08y\x0cz\x1b[A\x1b[Dw\r
type ab\x04
type cd\r
type \x04
wait ^\$ 
type echo ==; cat /tmp/typed; echo ==\r
wait ^==$
wait ^==$
wait ^\$ 
type halt\r
EOF2
check cooked-lines [ "$(between == ==)" = "abd|right|one three|yzw|abcd|" ]
hasnt cooked-no-control "$(printf '[\x01-\x07\x0c\x0e-\x1f]')"

# The shell's line editor: ^U, DEL, ^W, the left arrow, a control
# character dropped, history with the up and down arrows, ^C at the
# prompt, and errors.
typeat editor -d <<'EOF2'
wait ^\$ 
type echo a\x15echo b\r
wait ^\$ 
type echo abc\x7f\x7fz\r
wait ^\$ 
type echo ac\x1b[Db\r
wait ^\$ 
type echo foo bar\x17baz\r
wait ^\$ 
type echo x\x0cy\r
wait ^\$ 
type echo once\r
wait ^\$ 
type \x1b[A\r
wait ^\$ 
type \x1b[A\x1b[A\x1b[B\x1b[B\x1b[Becho down\r
wait ^\$ 
type echo never\x03
wait ^\$ 
type nosuch\r
wait ^\$ 
type echo bad > /dev/kpctl; echo st $status\r
wait ^st [0-9]
wait ^\$ 
type ls /nosuch && echo and; ls /nosuch || echo or; echo x && echo y || echo z\r
wait ^y
wait ^\$ 
type \x10
wait pid +ppid
wait  sh$
type halt\r
EOF2
has editor-kill-line '^b$'
hasnt editor-kill-line-gone '^a echo b$'
has editor-erase '^az$'
has editor-left-arrow '^abc$'
has editor-word-erase '^foo baz$'
has editor-control-dropped '^xy$'
check editor-up-repeats [ "$(grep -c '^once$' <<<"$out")" = 2 ]
has editor-down-empty '^down$'
hasnt editor-ctlc-abandons '^never$'
has editor-not-found '^sh: nosuch: not found$'
has kpctl-bad-message '^echo: write error: bad control message$'
has kpctl-bad-status '^st 1$'
hasnt and-skips '^and$'
has or-runs '^or$'
has and-or-chain '^y$'
hasnt and-or-chain-skips '^z$'
has ctlp-ps '^ +[0-9]+ +[0-9]+ +(sleep|run|ready) .* sh$'
has ctlp-tick '\^P at tick [0-9]+$'

# ^D at the prompt of a nested shell returns to the outer one; ^C in
# the inner one kills its command, not the inner shell.
typeat nested -d <<'EOF2'
wait ^\$ 
type sh\r
wait ^\$ 
type spin 100\r
wait spin 100\n
retype \x10
wait \A(?=(?:(?s:.*?)^ *[0-9]+ +[0-9]+ +sleep +[0-9]+K +[0-9]+ sh$){2})(?=(?s:.*)^.* spin\n)
type \x03
wait ^\$ 
type echo inner\r
wait ^inner
wait ^\$ 
type \x04
wait ^\$ 
type echo outer\r
wait ^outer
wait ^\$ 
type \x04
wait ^\$ 
type echo init started a new one\r
wait ^init started a new one\n
type halt\r
EOF2
has nested-inner '^inner$'
has nested-outer '^outer$'
has nested-init-restarts '^init started a new one$'
hasnt nested-spin-killed '^spin [0-9]+: ticks'

# A whole pipeline is one note group: ^C kills all of it.
typeat ctlc-pipeline -d <<'EOF2'
wait ^\$ 
type spin 100 | cat | cat\r
wait spin 100 \| cat \| cat\n
retype \x10
wait \A(?=(?s:.*)^ *[0-9]+ +[0-9]+ +sleep +[0-9]+K +[0-9]+ sh$)(?=(?s:.*)^.* spin\n)
type \x03
wait ^\$ 
type echo back\r
wait ^back\n
wait ^\$ 
type halt\r
EOF2
has ctlc-pipeline-back '^back$'
hasnt ctlc-pipeline-spin '^spin [0-9]+: ticks'

# Raw mode ends when the channel that set it is closed: here, when echo
# exits; so cat reads cooked lines after it.  Typed once the second
# echo has printed, after the first exited.
typeat raw-released -d <<'EOF2'
wait ^\$ 
type echo rawon > /dev/consctl; echo released; cat > /tmp/typed\r
wait ^released\n
type ab\x7fc\r
type \x04
wait ^\$ 
type echo ==; cat /tmp/typed; echo ==\r
wait ^==\n
wait ^==\n
wait ^\$ 
type halt\r
EOF2
check raw-released-cooked [ "$(between == ==)" = "ac|" ]

# consctl refuses what it does not know, as every control file does.
guest -c 'echo bogus > /dev/consctl; echo a $status; echo fg > /dev/consctl; echo b $status
echo fg x > /dev/consctl; echo c $status; echo fg 99999999999 > /dev/consctl; echo d $status
echo fg 12 13 > /dev/consctl; echo e $status; echo rawon rawoff > /dev/consctl; echo f $status
echo 0123456789012345678901234567890123456789 > /dev/consctl; echo g $status
cat /dev/consctl; echo h $status; echo fg 0 > /dev/consctl; echo fg0 $status
echo rawon > /dev/consctl; echo rawoff > /dev/consctl; echo raw $status'
for k in a b c d e f g h; do
	has "consctl-refuses-$k" "^$k 1$"
done
check consctl-says-why [ "$(grep -c '^echo: write error: bad control message$' <<<"$out")" = 7 ]
has consctl-fg0 '^fg0 0$'
has consctl-raw '^raw 0$'

# -g says it waits for gdb, and how to attach.
timeout 20 ./run-qemu.sh -k -g -t 2 >"$T/g" 2>&1 </dev/null
out=$(cat "$T/g")
has gdb-waits 'waiting for gdb on localhost:1234'
has gdb-how 'gdb -x tools/gdbinit'

# A fork bomb in the foreground: ^C ends every process of it, also those
# forked while the kill went round; then the table has room again, a
# second later (ps shows 5 lines even at once; a sleep of 500 s cost
# the host 2 s under -d, ticking through it).
typeat forkbomb -d <<'EOF2'
wait ^\$ 
type atk_procs wait\r
wait ^atk_procs: [0-9]+ processes forking\n
pause 1
type \x03
wait ^\$ 
type sleep 1; ps | wc -l; echo counted\r
wait ^counted\n
type halt\r
EOF2
n=$(grep -B1 '^counted' <<<"$out" | head -1 | awk '{print $1}')
echo "# processes after ^C on a fork bomb: ${n:-?} lines of ps"
check forkbomb-ctlc-ends-all [ "${n:-99}" -le 8 ]

summary console
