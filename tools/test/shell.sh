#!/usr/bin/env bash
# Guest tests of the promises of sh(1) not tested elsewhere: a syntax
# error anywhere in a line runs none of it; wait and wait PID, and $!;
# a directory is no script, and a NUL cuts no line short; a builtin
# in a pipeline or the background runs in a child; 32 words a command
# and 16 commands a pipeline; at the console, an over-long line is
# refused whole, ^P shows the prompt and the line again (and cooked
# mode's line), and ^C ends a wait by killing the job it waits for.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

guest -d -c 'echo hi &&& echo x; echo not run
echo s1 $status
echo a; echo b |; echo not run
echo b; echo "unmatched; echo not run
echo a && ; echo not run
echo s3
sh -c "sleep 1; echo slept" > /tmp/o1 &
echo bg $!; wait; echo w1 $status; cat /tmp/o1
sh -c "sleep 1; exit 3" &
wait $!; echo w2 $status
wait 9999; echo w3 $status; wait x; echo w3b $status; wait 1 2; echo w4 $status
sh -c "exit 4" &
sleep 1; wait $!; echo w5 $status; wait $!; echo w5b $status
sh -c "sleep 1; echo slept" | cat > /tmp/o2 &
wait; echo w6 $status; cat /tmp/o2; wait; echo w7 $status
mkdir /tmp/d; echo > /tmp/d/echo; echo sd; sh /tmp/d; echo sd $status
mkdir /tmp/z; echo > /tmp/z/x; echo -n echo cut > /tmp/n; cat /tmp/z >> /tmp/n
echo "; echo rest" >> /tmp/n; echo echo next line >> /tmp/n; echo sn; sh /tmp/n; echo sn $status
echo bi; cd /nosuch | cat; echo bi1 $status; sh -c '\''exit 7 & echo still; wait $!'\''; echo bi2 $status
cd /tmp & wait; pwd; echo bi3
echo lim
echo never; echo w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32
echo w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32
echo never | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat
echo p16 | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat; echo lim2'
has syntax-status '^s1 1$'
check syntax-only-errors [ "$(between 's1 1' s3)" = 'sh: syntax error|sh: unmatched "|sh: syntax error|' ]
check syntax-errors [ "$(grep -c '^sh: syntax error$' <<<"$out")" = 3 ]
has syntax-unmatched '^sh: unmatched "$'
hasnt syntax-nothing-runs '^(hi|a|b|x|not run)$'
has bg-pid '^bg [0-9]+$'
has wait-waited '^w1 0$'
check wait-all-output [ "$(sed -n '/^w1 0$/{n;p}' <<<"$out")" = slept ]
has wait-pid-status '^w2 3$'
has wait-no-such '^sh: wait: 9999: no such background process$'
has wait-no-such-status '^w3 1$'
has wait-bad-pid '^w3b 1$'
has wait-usage '^usage: wait \[pid\]$'
has wait-usage-status '^w4 1$'
has wait-pid-reaped-before '^w5 4$'
has wait-pid-once '^w5b 1$'
has wait-pipeline '^w6 0$'
check wait-pipeline-output [ "$(sed -n '/^w6 0$/{n;p}' <<<"$out")" = slept ]
has wait-none '^w7 0$'
# A directory is no script: its entries' names are not run as commands.
check script-dir [ "$(between sd 'sd 1')" = 'sh: /tmp/d: is a directory|' ]
# A NUL would end a line early: the line is refused, not cut short.
# (A directory's entry is its name padded with NULs, then binary.)
nul=$(between sn 'sn 0')
check script-nul [ "${nul%%|*}" = 'sh: NUL in a line' ]
check script-nul-next-runs [ "${nul: -10}" = 'next line|' ]
hasnt script-nul-not-cut '^cutx|^rest$'
# A builtin in a pipeline, or in the background, runs in a child as
# any other command does: it is found, and it leaves sh as it was.
check builtin-child [ "$(between bi bi3)" = 'sh: /nosuch: file does not exist|bi1 0|still|bi2 7|/|' ]
# A command has at most 32 words and a pipeline 16 commands: more is
# an error in the line, and none of it runs.
check limits [ "$(between lim lim2)" = 'sh: too many arguments|w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32|sh: pipeline too long|p16|' ]

long=$(printf 'b%.0s' $(seq 1100))
fits=$(printf 'a%.0s' $(seq 1000))
typeat console -d <<EOF
wait ^\\$ 
type echo $long | wc -c; echo ran\\r
wait ^\\$ 
type echo st \$status\\r
wait ^st
wait ^\\$ 
type echo $fits | wc -c\\r
wait ^ +[0-9]+\\n
wait ^\\$ 
type echo abc
wait echo abc
type \\x10
wait \\^P at tick
wait ^\\$ echo abc
type d\\r
wait ^abcd\\n
wait ^\\$ 
type cat > /tmp/typed\\r
wait cat > /tmp/typed\\n
type xyz
wait ^xyz
type \\x10
wait \\^P at tick
type \\r\\x04
wait ^\\$ 
type echo ==; cat /tmp/typed; echo ==\\r
wait ^==\\n
wait ^==\\n
wait ^\\$ 
type spin 100 > /dev/null &\\r
wait ^\\$ 
type wait; echo after wait\\r
wait wait; echo after wait\\n
retype \\x10
wait ^ *[0-9]+ +[0-9]+ +sleep +[0-9]+K +[0-9]+ sh\$
type \\x03
wait ^\\$ 
type ps; echo ps done\\r
wait ^ps done\\n
type halt\\r
EOF
has long-refused '^sh: line too long$'
hasnt long-not-run '^ran$'
has long-status '^st 1$'
has long-fits '^ +1001$'
check long-only-fits-ran [ "$(grep -cE '^ +[0-9]+$' <<<"$out")" = 1 ]
has ctlp-raw-redraw '^\$ echo abcd$'
has ctlp-raw-list-first '^\$ echo abc\^P at tick [0-9]+$'
has ctlp-raw-ran '^abcd$'
has ctlp-cooked-list-first '^xyz\^P at tick [0-9]+$'
check ctlp-cooked-redraw [ "$(grep -c '^xyz$' <<<"$out")" = 2 ]
check ctlp-cooked-data [ "$(between == ==)" = "xyz|" ]
hasnt wait-ctlc-ends-line '^after wait$'
check wait-ctlc-kills-job [ "$(sed -n '/^\$ ps; echo ps done$/,$p' <<<"$out" | grep -c ' spin$')" = 0 ]
has wait-ctlc-shell-back '^ps done$'

# A long line typed while the processor is busy: the shell reads it
# more slowly than it comes, and the console holds back what it has no
# room for in raw mode (dev/devuart.c), so no byte is lost.
busy=$(printf 'c%.0s' $(seq 900))
typeat busy -p 1 <<EOF
wait ^\\$ 
type spin 30 | spin 30 | spin 30 &\\r
wait ^\\$ 
type echo $busy | wc -c; echo ran\\r
wait ^ran
wait ^\\$ 
type halt\\r
EOF
has busy-line-whole '^ +901$'

summary shell
