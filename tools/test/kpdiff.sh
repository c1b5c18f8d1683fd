#!/usr/bin/env bash
#
# Tests of kprof -D, two profiles' difference (tools/kpdiff.c), on the
# host, under the plain and the sanitizer builds: shares, changes and
# their z against sampling's standard error, worked out by hand for a
# small kernel; a change of no error; bad input.  Then tools/report.py
# -D's page of a difference, in headless Chromium: no console errors,
# its table, and boxes red for growth and blue for shrinking.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

hostin kprof kpdiff
export T

# Kernel sk: 16 bytes before any symbol, then f (bins 2-5), g (6-9),
# h (10-11).
fixtures kpdiff "the test kernel" nopelf sk 0xc0100000 :16 f:32 g:32 h:16
# f 50 -> 25, g 30 -> 50, h 20 -> 25, of 100 each.  f's error is
# sqrt(.5*.5/100 + .25*.75/100) = 0.0661, so z = -.25/.0661 = -3.8;
# g's sqrt(.3*.7/100 + .5*.5/100) = 0.0678, z = 2.9; h's
# sqrt(.2*.8/100 + .25*.75/100) = 0.0589, z = 0.8.
mkdata before 100 100 12 2:40 3:10 6:30 10:20
mkdata after 100 100 12 4:25 7:50 11:25
want 'before: 100 kernel ticks\tafter: 100 kernel ticks
before\tafter\tchange\tz\tsym
 50.00%%\t 25.00%%\t-25.00\t-3.8\tf
 30.00%%\t 50.00%%\t+20.00\t+2.9\tg
 20.00%%\t 25.00%%\t+5.00\t+0.8\th
'
expect shares 0 -D sk before after
# All of it in f, both times: no change, and no error to measure it by.
mkdata one 10 10 12 2:10
mkdata two 30 20 12 3:20
want 'before: 10 kernel ticks\tafter: 20 kernel ticks
before\tafter\tchange\tz\tsym
100.00%%\t100.00%%\t+0.00\t-\tf
'
expect no-error 0 -D sk one two

# Bad input.
mkdata none 5 0 12
want '' 'kprof: -D: the first profile has no kernel ticks\n'
expect no-ticks 1 -D sk none after
want '' 'kprof: short: truncated at byte 20 of the 56 that kernel text'"'"'s 12 bins take (or of another kernel)\n'
mkdata short 3 3 3 0:1 1:1 2:1
expect bad-bins 1 -D sk before short
want '' "$kprofusage"
expect one-file 1 -D sk before

# tools/report.py -D: two directories of the same kernel, the second's
# stacks moved from f to g.
for d in b a; do
	mkdir -p $d
	echo 'off hz 100 bin 8 text 0xc0100000 etext 0xc0100060 cpus 1 cut 0' >$d/kpctl
done
cp before b/kpdata
cp after a/kpdata
printf 'g;f 50\ng;h 20\ng 30\n' >b/stacks.txt
printf 'g;f 25\ng;h 25\ng 50\n' >a/stacks.txt
"${hostbins[0]}" sk b/kpdata >b/profile.txt
"${hostbins[0]}" sk a/kpdata >a/profile.txt
if python3 "$top/tools/report.py" -D -k sk b a 2>report.err && [ -s a/diff.html ]; then
	ok diff-report
	timeout 200 /usr/bin/python3 - a/diff.html <<'EOF' >browser.out 2>&1
import os, sys, tempfile
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
opts = webdriver.ChromeOptions()
opts.binary_location = '/usr/bin/chromium'
for a in ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync',
          '--user-data-dir=' + tempfile.mkdtemp(dir=os.environ['T'])]:
    opts.add_argument(a)
opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
drv = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
try:
    drv.get('file://' + os.path.abspath(sys.argv[1]))
    errs = [e['message'] for e in drv.get_log('browser') if e['level'] == 'SEVERE']
    print('errors', len(errs), errs[:1])
    rows = drv.execute_script("return [...document.querySelectorAll('#diff tbody tr')].map(r => r.textContent);")
    print('rows', len(rows))
    for name in ['f', 'h', 'g']:
        print('colour', name, drv.execute_script(
            "return [...document.querySelectorAll('#flame .f')].find(d => d.node.name === arguments[0]).style.background;", name))
finally:
    drv.quit()
EOF
	check diff-no-console-errors grep -qx 'errors 0 \[\]' browser.out
	check diff-table grep -qx 'rows 3' browser.out
	# f's share fell 25 points, the largest change: deep blue.  h rose
	# 5: pale red.  g, the root, all of the ticks both times: white.
	check diff-shrank-blue grep -qx 'colour f rgb(0, 0, 255)' browser.out
	check diff-grew-red grep -qE '^colour h rgb\(255, (1[5-9][0-9]|2[0-4][0-9]), ' browser.out
	check diff-same-white grep -qx 'colour g rgb(255, 255, 255)' browser.out
else
	bad diff-report "$(cat report.err)"
fi

summary kpdiff
