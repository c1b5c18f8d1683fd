#!/usr/bin/env bash
#
# tools/profile end to end, and the report it writes: one guest run of
# runtest for a second at hz=1000 on two CPUs (the checks are of the
# formats and the page, none of a profile's accuracy), then
#  - kernel.pb.gz: go tool pprof's -traces and -top give kprof -s's
#    counts, stack by stack and leaf by leaf (tools/test/ppread.py), and
#    its comment names the clock;
#  - report.html: self-contained (no address of anywhere else), and in
#    headless Chromium through Selenium and chromium-driver
#    (tools/test/reportcheck.py): no console errors, click-to-zoom,
#    reset, search and its share, the table's sorting, the idle switch,
#    the ticks by process, and a screenshot that is not blank;
# and, with no guest, a report of a kernel whose function names are
# markup (`<script>', quotes, ampersands), which the page and the SVG
# show as text, and tools/report.py's errors on files it can't read.

cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tools/test/lib.bash
. tools/test/host.bash
export HOME=$T PPROF_TMPDIR=$T T
cd "$T" || exit 1

# browser PAGE DIR QUERY [NAME]: reportcheck.py's cases, counted here.
browser() {
	local line
	timeout 300 /usr/bin/python3 "$top/tools/test/reportcheck.py" "$@" >browser.out 2>&1
	while read -r line; do
		case $line in
		"ok "*) ok "${line#ok }" ;;
		"FAIL "*) line=${line#FAIL }; bad "${line%%:*}" "${line#*: }" ;;
		esac
	done <browser.out
	grep -q '^ok screenshot-not-blank' browser.out ||
		bad browser-ran "$(grep -v -e '^ok ' -e '^FAIL ' browser.out | tail -3 | tr '\n' '|')"
}
# selfcontained PAGE: no address of anything outside the page.
selfcontained() {
	check "$1-self-contained" [ "$(grep -ciE 'https?:|src=|href=|@import|url\(' "$2")" = 0 ]
}

# runtest for 0.4 s at 1000 Hz: 400 ticks, for a page that shows them.
if (cd "$top" && tools/profile -q -a hz=1000 'runtest 0.4' "$T/run") >profile.log 2>&1 &&
   [ -s run/kernel.pb.gz ] && [ -s run/report.html ]; then
	ok profile-writes
	sort run/stacks.txt >want.traces
	pp traces run/kernel.pb.gz >got.traces
	same pprof-traces want.traces got.traces
	python3 "$ppread" leaves run/stacks.txt >want.top
	pp top run/kernel.pb.gz >got.top
	same pprof-top want.top got.top
	# -q: the kernel's call graph, kprof -q's of the kpgmon brought home.
	check callgraph-written grep -qE '^lock	[0-9]+ calls	' run/callgraph.txt
	# The clock, from the kpctl that tools/profile brought home beside kpdata.
	go tool pprof -raw run/kernel.pb.gz >raw 2>&1
	check pprof-clock-comment grep -q '^Comment: clock: virtual (one instruction a nanosecond, -d), HZ 1000$' raw
	selfcontained report run/report.html
	browser run/report.html run lock
else
	bad profile-writes "$(tail -3 profile.log | tr '\n' '|')"
fi

# A kernel whose names are markup: idle, f, and the name; and kprof's
# own cost, 20 ticks, a row of the profile that has no instructions to
# annotate.
name='<script>alert("x")</script>&amp;'"'q'"
nopelf mk 0xc0100000 idle:16 f:16 "$name:16"
mkdir -p h
mkdata h/kpdata 30 24 6 0:5 2:4 4:15
printf '\0\0\0\024' >>h/kpdata
printf '5 c0100000\n4 c0100010\n10 c0100020 c0100011\n5 c0100021\n6 ffffffff\n' >h/kpstack
echo 'off hz 100 bin 8 text 0xc0100000 etext 0xc0100030 cpus 1 cut 0' >h/kpctl
echo 'cpu 0 total 30 kernel 24' >h/kpcpu
kprof=$top/o/host/kprof
$kprof mk h/kpdata >h/profile.txt && $kprof -s mk h/kpstack h/kpdata >h/stacks.txt &&
	$kprof -g mk h/kpstack h/kpdata >h/flame.svg
(cd "$top" && o/host/srcline "$T/mk" "$T/h/kpdata") >h/lines.txt 2>/dev/null
check markup-self-row grep -qE '^200	 *45\.5	kprof$' h/profile.txt
if python3 "$top/tools/report.py" -k mk h "echo '<b>' & \"x\"" 2>report.err && [ -s h/report.html ]; then
	ok markup-report
	check markup-no-raw-tag [ "$(grep -c '<script>alert' h/report.html)" = 0 ]
	selfcontained markup h/report.html
	browser h/report.html h script "$name"
else
	bad markup-report "$(cat report.err)"
fi
check markup-svg-xml xmllint --noout h/flame.svg
check markup-svg-text grep -qF '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;' h/flame.svg

# tools/report.py on files that are not kprof's.
mkdir -p b
cp h/kpctl h/stacks.txt b/
printf 'total: 3\tin kernel text: 2\toutside kernel text: 1\nKTZERO c0100000\tHZ 100\nms\t  %%\tsym\n10\tten\tf\n' >b/profile.txt
python3 "$top/tools/report.py" b x >b.out 2>&1
check report-bad-row grep -qx "tools/report.py: b/profile.txt:4: not a row \`ms % sym'" b.out
printf 'f;g 3x\n' >b/stacks.txt
printf 'total: 3\tin kernel text: 2\toutside kernel text: 1\nKTZERO c0100000\tHZ 100\nms\t  %%\tsym\n' >b/profile.txt
python3 "$top/tools/report.py" b x >b.out 2>&1
check report-bad-stack grep -qx "tools/report.py: b/stacks.txt:1: not a folded stack \`a;b;c count'" b.out
# A file cut short, its last line without its newline: an error, where
# the line used to be left out.
printf 'f;g 3\nf;h 2' >b/stacks.txt
python3 "$top/tools/report.py" b x >b.out 2>&1
check report-cut-short grep -qx 'tools/report.py: b/stacks.txt: cut short: its last line has no newline' b.out
python3 "$top/tools/report.py" nosuch x >b.out 2>&1
check report-no-dir grep -qx 'tools/report.py: nosuch/kpctl: No such file or directory' b.out

summary report
