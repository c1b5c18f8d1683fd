#!/usr/bin/env bash
# Guest tests of the tools a student reaches for: pwd, head,
# tail, wc, grep, sort, mv, touch, man, ls -l, and the usage of ps,
# bind, sh, mkdir, touch, rm, unmount and profile; their errors (NAME: what:
# why, and a non-zero status), bad arguments, files that do not exist,
# and a failed write, which every tool must notice.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# spans: each line of the standard input, NAME A B WANT (tab-separated),
# is a case: the lines between A and B, each ended by |, are WANT.
spans() {
	local name a b want
	while IFS=$'\t' read -r name a b want; do
		check "$name" [ "$(between "$a" "$b")" = "$want" ]
	done
}

# The groups of commands below run in one boot, in turn, where they
# were 13 (each boot costs the host about 0.15 s of CPU before its
# work): each from /, in a /tmp of its own (an empty directory bound
# over it), as a boot of its own would have them, its output after a
# line `@@ NAME'.  part NAME COMMANDS adds a group; section NAME makes
# $out what that group printed, for the checks.
script=
part() {
	script+="cd /; mkdir /tmp.$1; bind /tmp.$1 /tmp; echo @@ $1"$'\n'"$2"$'\n'
}
section() {
	out=$(awk -v n="@@ $1" '$0 == n { on = 1; next } /^@@ / { on = 0 } on' <<<"$all")
}

part pwd 'cd /tmp; echo pwd; pwd; echo -; pwd x; echo st $status
profile -q -- echo profiled; echo profile $status
cd /bin; pwd; cd /; pwd
ps x; echo ps $status; bind -a /tmp; echo bind $status
sh -c; echo sh $status; sh -x; echo sh $status; sh /nosuch x; echo sh $status
mkdir -p /tmp/m; echo mkdir $status; touch -c /tmp/t; echo touch $status
rm -r /tmp; echo rm $status; unmount -a /dev; echo unmount $status; ls; ls /tmp
profile -x spin; echo profile $status'

part headtail 'cd /tmp; echo 1 > f; echo 2 >> f; echo 3 >> f; echo 4 >> f
echo h1; head -n 2 f; echo h2; head -n 0 f; echo h3; cat f | head -n 1; echo h4
head f /nosuch; echo st $status; head -n x f; echo st $status; head -z; echo st $status
echo t1; tail -n 2 f; echo t2; cat f | tail -n 1; echo t3; tail f; echo t4
tail /nosuch; echo st $status; tail -n -1 f; echo st $status; tail a b; echo st $status
echo -n no newline > g; echo t5; tail -n 1 g; echo t6
echo h5; head -3 f; echo h6; cat f | head -1; echo h7; tail -3 f; echo t7; cat f | tail -1; echo t8
head -3x f; echo st $status; tail -1x f; echo st $status; echo t9; tail -n; echo st $status; echo t10'

part wc 'cd /tmp; echo one two > f; echo "  three " >> f; echo -n four >> f
echo w1; wc f; echo w2; cat f | wc; echo w3; wc f f; echo w4
wc /nosuch; echo st $status; wc -x f; echo st $status; wc < /dev/null
echo w5; wc -l f; cat f | wc -wc; wc -l -c f f; echo w6'

part grep 'cd /tmp; echo apple > f; echo banana >> f; echo cherry pie >> f; echo a.c >> f; echo "x*y" >> f
echo g1; grep an f; echo g2; grep ^a f; echo g3; grep e$ f; echo g4; grep "b.n" f; echo g5
grep "ch*e" f; echo g6; grep -v a f; echo g7; grep -n pie f; echo g8; grep -c a f; echo g9
grep -F a.c f; echo g10; grep "a\.c" f; echo g11; grep "x\*y" f; echo g12; cat f | grep -F "*"; echo g13
grep zzz f; echo st $status; grep a /nosuch; echo st $status; grep; echo st $status
grep -q a f; echo st $status; grep "*a" f; echo st $status; grep "a\" f; echo st $status
grep an f /nosuch; echo st $status; grep -c an f f'

# Long lines and binary bytes: the first and last lines of /kernel,
# and all of them sorted, counted as the host counts them (lines and
# bytes; the tools end a last line that has no newline with one).
part long 'echo k1; head -n 3 /kernel | wc; echo k2; sort /kernel | wc; echo k3; tail -n 2 /kernel | wc; echo k4'

part sort 'cd /tmp; echo pear > f; echo apple >> f; echo 10 >> f; echo 9 >> f; echo Zed >> f
echo s1; sort f; echo s2; sort -r f; echo s3; sort -n f; echo s4; cat f | sort; echo s4b
sort /nosuch; echo st $status; sort -x f; echo st $status; echo s5; sort < /dev/null; echo s6
echo 100000000000 > g; echo 99999999999 >> g; echo -99999999998 >> g; echo -99999999999 >> g
echo " -5" >> g; echo 007 >> g; echo -0 >> g; echo +6 >> g; echo s7; sort -n g; echo s8; sort -rn g; echo s9
echo b > -r; echo a >> -r; sort -- -r; echo s10; sort -r -- -r; echo s11'

part mv 'cd /tmp; echo moved > a; mv a b; cat b; cat a; echo st $status
mkdir d; mv b d; cat d/b; mv d/b /tmp/c; cat c; mv c c; echo st $status
mv /nosuch x; echo st $status; mv d e; echo st $status; mv c; echo st $status
mv c /nodir/x; echo st $status; cat c
mv c /dev/null; echo st $status; cat c > /dev/null && echo still there
touch t; ls -l t; echo kept > t; touch t; cat t; touch /nodir/t; echo st $status; touch; echo st $status'

part man 'echo m1; man kprof; echo m2; man 2 profil; echo m3; man nosuch; echo st $status
man 0 kprof; echo st $status; man; echo st $status; man ../bin/ls; echo st $status'

part manpages 'man pwd; man head; man tail; man wc; man grep; man sort; man mv; man touch; man man'

# A manual page for every program in /bin: the guest lists /bin, which
# must be what the boot archive holds, and man prints a page for each
# (a page of its own, or one that names it, as tests(8) does).
progs=$(ls o/root/bin)
cmds="echo ls; ls /bin; echo endls"
for p in $progs; do
	cmds="$cmds
echo == $p; man $p | head -n 1"
done
part manbin "$cmds"

# Every system call the pages and the README refer to, as name(2), has
# a page in the guest: one of its own, or one that names it (wait(2)
# names _exit).
calls=$(grep -ohE '\b[a-z_][a-z0-9_]*\(2\)' doc/man/* README.md | sed 's/(2)//' | sort -u)
cmds=
for c in $calls; do
	cmds="$cmds
echo == $c; man 2 $c | head -n 1"
done
part mancalls "$cmds"

# ls sorts, and heads each directory's list when given several names.
# A writer whose reader has gone dies quietly (status 255): no message.
part ls 'ls -l /tmp /bin/ls; mkdir /tmp/d; ls -l /tmp
cd /tmp; mkdir e; echo > e/zz; echo > e/aa; echo > e/mm
echo l1; ls e; echo l2; ls -l d e /bin/ls; echo l3; ls /bin; echo l4; ls -x; echo st $status
echo > -l; echo l5; ls -- -l; echo l6
echo x1; xd /nosuch; echo st $status; echo x2; xd /nosuch e/aa; echo st $status; echo x3
sh -c '\''xd /kernel; echo xd $status > /tmp/st'\'' | head -n 1; man kprof | head -n 3; cat /tmp/st'

# sleep takes seconds as spin does; a number too big for sleep(2)'s
# milliseconds is refused, not waited for as what it wrapped to.
part sleep 'sleep 0.25; echo st $status; sleep 4294968; echo st $status
sleep 2147484; echo st $status; sleep 1.2345; echo st $status; sleep 0.; echo st $status'

# The test programs take a count only as digits: "1O", "x" or "-1"
# is refused with the usage, not run as 1, 0 or a wrapped count.
part counts 'atk_race calls 1O; echo st $status; atk_fs race x; echo st $status
atk_kprof exits -1; echo st $status; atk_odd fds 2x; echo st $status
faults kill 1e3; echo st $status; atk_share blocked z; echo st $status
atk_kpstack q; echo st $status; atk_ustack deep -3; echo st $status
atk_create x; echo st $status; calls -f x; echo st $status; calls -c x 3; echo st $status
hotspots -z x 3; echo st $status; hotspots 3x; echo st $status; shareoff x; echo st $status'

# cp copies a file, not a directory's entries.
part cp 'cd /tmp; mkdir d; cp d x; echo st $status; ls x'

# bind and unmount name the name that does not exist, and unmount the
# one that is not in the union or not mounted.
part names 'bind /nosuch /tmp; echo st $status; bind /tmp /nosuch; echo st $status
unmount /nosuch /tmp; echo st $status; unmount /nosuch; echo st $status
unmount /bin /tmp; unmount /tmp /bin'

# A failed write: every tool says so and fails.  Writes to /dev/kpctl
# that are not control messages are refused by the kernel.
part write 'cd /tmp; echo a > f
echo bad > /dev/kpctl; echo echo $status
cat f > /dev/kpctl; echo cat $status
pwd > /dev/kpctl; echo pwd $status
head f > /dev/kpctl; echo head $status
tail f > /dev/kpctl; echo tail $status
wc f > /dev/kpctl; echo wc $status
grep a f > /dev/kpctl; echo grep $status
sort f > /dev/kpctl; echo sort $status
man kprof > /dev/kpctl; echo man $status
ls > /dev/kpctl; echo ls $status
ps > /dev/kpctl; echo ps $status
xd f > /dev/kpctl; echo xd $status'

# One boot for all the groups above; the checks below, group by group.
guest -c "$script"
all=$out

section pwd
check pwd-tmp [ "$(between pwd -)" = "/tmp|" ]
has pwd-usage '^usage: pwd$'
has pwd-usage-status '^st 1$'
has ps-usage '^usage: ps$'
has ps-usage-status '^ps 1$'
has bind-usage '^usage: bind \[-a\|-b\] new old$'
has bind-usage-status '^bind 1$'
check sh-usage [ "$(grep -c '^usage: sh \[file\]$' <<<"$out")" = 3 ]
check sh-usage-status [ "$(grep -c '^sh 1$' <<<"$out")" = 3 ]
for p in mkdir touch rm unmount profile; do
	has "$p-option-usage" "^usage: $p "
	has "$p-option-status" "^$p 1$"
done
hasnt option-made-no-file '^-p$|^-c$'
has profile-dashes '^profiled$'
has profile-dashes-status '^profile 0$'
has pwd-bin '^/bin$'
has pwd-root '^/$'

section headtail
spans <<'EOF'
head-two	h1	h2	1|2|
head-zero	h2	h3
head-stdin	h3	h4	1|
head-minus-n	h5	h6	1|2|3|
head-minus-n-stdin	h6	h7	1|
tail-minus-n	h7	t7	2|3|4|
tail-minus-n-stdin	t7	t8	4|
tail-two	t1	t2	3|4|
tail-stdin	t2	t3	4|
tail-all	t3	t4	1|2|3|4|
tail-no-newline	t5	t6	no newline|
tail-n-no-count	t9	t10	usage: tail [-n lines | -lines] [file]|st 1|
EOF
has head-missing '^head: /nosuch: file does not exist$'
has head-header '^==> f <==$'
check head-bad-status [ "$(grep -c '^st 1$' <<<"$out")" = 9 ]
has head-usage '^usage: head \[-n lines \| -lines\] \[file ...\]$'
has tail-missing '^tail: /nosuch: file does not exist$'
has tail-bad-n '^tail: lines must be 0 to 100000$'
has tail-usage '^usage: tail \[-n lines \| -lines\] \[file\]$'

section wc
spans <<'EOF'
wc-file	w1	w2	      2       4      21 f|
wc-stdin	w2	w3	      2       4      21|
wc-total	w3	w4	      2       4      21 f|      2       4      21 f|      4       8      42 total|
wc-options	w5	w6	      2 f|      4      21|      2      21 f|      2      21 f|      4      42 total|
EOF
has wc-missing '^wc: /nosuch: file does not exist$'
has wc-usage '^usage: wc \[-lwc\] \[file ...\]$'
check wc-bad-status [ "$(grep -c '^st 1$' <<<"$out")" = 2 ]
has wc-empty '^      0       0       0$'

section grep
spans <<'EOF'
grep-fixed	g1	g2	banana|
grep-bol	g2	g3	apple|a.c|
grep-eol	g3	g4	apple|cherry pie|
grep-dot	g4	g5	banana|
grep-star	g5	g6	cherry pie|
grep-v	g6	g7	cherry pie|x*y|
grep-n	g7	g8	3:cherry pie|
grep-c	g8	g9	3|
grep-F	g9	g10	a.c|
grep-escape	g10	g11	a.c|
grep-escape-star	g11	g12	x*y|
grep-F-stdin	g12	g13	x*y|
EOF
has grep-none-status '^st 1$'
has grep-missing '^grep: /nosuch: file does not exist$'
check grep-error-status [ "$(grep -c '^st 2$' <<<"$out")" = 6 ]
has grep-usage '^usage: grep \[-v\] \[-n\] \[-c\] \[-F\] pattern \[file ...\]$'
has grep-bad-star '^grep: \* with nothing before it$'
has grep-bad-backslash '^grep: \\ at the end of the pattern$'
has grep-names '^f:banana$'
has grep-count-names '^f:1$'

section long
want1=$(head -n 3 o/kernel | wc -l -c | awk '{print $1, $2}')
want2=$(LC_ALL=C sort o/kernel | wc -l -c | awk '{print $1, $2}')
nl=
[ "$(tail -c1 o/kernel | od -An -tx1 | tr -d ' ')" = 0a ] || nl=y
want3=$( { tail -n 2 o/kernel; [ -n "$nl" ] && echo; } | wc -l -c | awk '{print $1, $2}')
check long-lines-head [ "$(between k1 k2 | tr -d '|' | awk '{print $1, $3}')" = "$want1" ]
check long-lines-sort [ "$(between k2 k3 | tr -d '|' | awk '{print $1, $3}')" = "$want2" ]
check long-lines-tail [ "$(between k3 k4 | tr -d '|' | awk '{print $1, $3}')" = "$want3" ]

section sort
spans <<'EOF'
sort-bytes	s1	s2	10|9|Zed|apple|pear|
sort-reverse	s2	s3	pear|apple|Zed|9|10|
sort-numeric	s3	s4	Zed|apple|pear|9|10|
sort-stdin	s4	s4b	10|9|Zed|apple|pear|
sort-empty	s5	s6
sort-numeric-big	s7	s8	-99999999999|-99999999998| -5|-0|+6|007|99999999999|100000000000|
sort-numeric-big-reverse	s8	s9	100000000000|99999999999|007|+6|-0| -5|-99999999998|-99999999999|
sort-dashes	s9	s10	a|b|
sort-dashes-option	s10	s11	b|a|
EOF
has sort-missing '^sort: /nosuch: file does not exist$'
has sort-usage '^usage: sort \[-r\] \[-n\] \[file ...\]$'
check sort-bad-status [ "$(grep -c '^st 1$' <<<"$out")" = 2 ]

section mv
has mv-moved '^moved$'
has mv-source-gone '^cat: a: file does not exist$'
check mv-into-dir [ "$(grep -c '^moved$' <<<"$out")" = 4 ]
has mv-same '^mv: c and c are the same file$'
has mv-missing '^mv: /nosuch: file does not exist$'
has mv-dir '^mv: d: is a directory$'
has mv-usage '^usage: mv from to$'
has mv-bad-target '^mv: /nodir/x: '
has mv-onto-device '^mv: /dev/null: a device'"'"'s file, not one to move to$'
has mv-onto-device-kept '^still there$'
check mv-bad-status [ "$(grep -c '^st 1$' <<<"$out")" = 9 ]
has touch-creates '^-rw[-rwx]{7} +0 t$'
has touch-keeps '^kept$'
has touch-bad '^touch: /nodir/t: '
has touch-usage '^usage: touch file ...$'

section man
has man-kprof '^KPROF\(1\) +KPROF\(1\)$'
has man-section '^PROFIL\(2\) +PROFIL\(2\)$'
has man-missing '^man: no manual page for nosuch$'
has man-bad-section '^man: 0: sections are 1 to 9$'
has man-usage '^usage: man \[section\] name$'
has man-bad-name '^man: ../bin/ls: not a page name$'
check man-bad-status [ "$(grep -c '^st 1$' <<<"$out")" = 4 ]

section manpages
for p in pwd head tail wc grep sort mv touch man; do
	has "man-$p" "^${p^^}\\(1\\) +${p^^}\\(1\\)$"
done

section manbin
check man-bin-listed [ "$(between ls endls)" = "$(tr '\n' '|' <<<"$progs")" ]
missing=
for p in $progs; do
	grep -A1 -x "== $p" <<<"$out" | tail -1 | grep -qE '^[A-Z][A-Z0-9_.]*\([1-9]\) +[A-Z][A-Z0-9_.]*\([1-9]\)$' || missing="$missing $p"
done
check man-every-program [ -z "$missing" ] || echo "# no page for:$missing"
hasnt man-every-program-found 'no manual page'

section mancalls
missing=
for c in $calls; do
	grep -A1 -x "== $c" <<<"$out" | tail -1 | grep -qE '^[A-Z][A-Z0-9_]*\(2\) +[A-Z][A-Z0-9_]*\(2\)$' || missing="$missing $c"
done
check man-every-call [ -z "$missing" ] || echo "# no page for:$missing"
check man-calls-found [ "$(wc -w <<<"$calls")" -ge 10 ]

section ls
has ls-l-file '^-rw[-rwx]{7} +[0-9]+ /bin/ls$'
has ls-l-dir '^d[-rwx]{9} +0 d$'
check ls-sorted [ "$(between l1 l2)" = "aa|mm|zz|" ]
check ls-headings [ "$(between l2 l3 | sed -E 's/-rw[-rwx]{7} +[0-9]+ //g')" = "d:||e:|aa|mm|zz||/bin/ls|" ]
check ls-bin-sorted [ "$(between l3 l4 | tr '|' '\n' | LC_ALL=C sort -c && echo yes)" = yes ]
has ls-usage '^usage: ls \[-l\] \[name ...\]$'
check ls-dashes [ "$(between l5 l6)" = "-l|" ]
check xd-none-opened [ "$(between x1 x2)" = "xd: /nosuch: file does not exist|st 1|" ]
check xd-some-opened [ "$(between x2 x3)" = "xd: /nosuch: file does not exist|000000 0a|000001|st 1|" ]
has ls-usage-status '^st 1$'
has broken-pipe-writer-killed '^xd 255$'
hasnt broken-pipe-silent 'broken pipe|write error'
has broken-pipe-reader-read '^MAN\(1\) +MAN\(1\)$|^KPROF\(1\)'

section sleep
check sleep-fraction [ "$(sed -n 1p <<<"$out")" = 'st 0' ]
check sleep-refused [ "$(grep -c '^usage: sleep seconds$' <<<"$out")" = 4 ]
check sleep-statuses [ "$(grep '^st ' <<<"$out" | tr '\n' '|')" = 'st 0|st 1|st 1|st 1|st 1|' ]

section counts
check counts-refused [ "$(grep -c '^usage: ' <<<"$out")" = 14 ]
check counts-status [ "$(grep -c '^st [12]$' <<<"$out")" = 14 ]
check counts-named [ "$(grep -c ': not a count$' <<<"$out")" = 7 ]

section cp
check cp-dir [ "$(sed -n 1,3p <<<"$out" | tr '\n' '|')" = 'cp: d: is a directory|st 1|ls: x: file does not exist|' ]

section names
check bind-missing-named [ "$(sed -n 1,4p <<<"$out" | tr '\n' '|')" = 'bind: /nosuch: file does not exist|st 1|bind: /nosuch: file does not exist|st 1|' ]
check unmount-missing-named [ "$(sed -n 5,8p <<<"$out" | tr '\n' '|')" = 'unmount: /nosuch: file does not exist|st 1|unmount: /nosuch: file does not exist|st 1|' ]
check unmount-union-named [ "$(sed -n 9,10p <<<"$out" | tr '\n' '|')" = 'unmount: /bin: not in the union|unmount: /bin: not mounted|' ]

section write
for p in echo cat pwd head tail wc grep sort man ls ps xd; do
	has "write-fails-$p" "^$p [1-9]"
done
has write-fails-echo-message '^echo: write error: bad control message$'
# A failed write is named as one, not as the file being copied.
check write-fails-message-form [ "$(grep -cE '^(cat|man|ps): write error: bad control message$' <<<"$out")" = 3 ]
hasnt write-fails-input-not-blamed '^(cat|man|ps): [^w].*: bad control message$'
check write-fails-no-success [ "$(grep -cE '^[a-z]+ 0$' <<<"$out")" = 0 ]

# A pattern that backtracking would take exponential time over: linear here.
guest -d -c 'echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab > /tmp/a
grep -c "a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c" /tmp/a; echo st $status'
has grep-no-backtracking '^0$'
has grep-no-backtracking-status '^st 1$'

summary tools
