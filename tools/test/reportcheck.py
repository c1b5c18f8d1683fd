#!/usr/bin/python3
# Drive report.html in headless Chromium through Selenium and
# chromium-driver, for tools/test/report.sh:
#
#	reportcheck.py PAGE PROFILE-DIR SEARCH [NAME]
#
# prints `ok CASE' or `FAIL CASE: why' for each check: no console
# errors; a click on a frame zooms to it (its width becomes the
# graph's); a search marks the matching frames and shows their share,
# which must be the share of stacks.txt's ticks in stacks that name a
# match; sorting the flat table by a column orders it; the idle switch
# removes idle's frames; the annotated instructions are there; the
# ticks by process are procs.txt's; a
# screenshot is not blank.  With NAME, a
# function whose name is markup: it must show as that text, and run
# nothing.
import collections, os
import re
import sys
import tempfile

from fixtures import pngrows
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

page, pdir, query = sys.argv[1], sys.argv[2], sys.argv[3]
name = sys.argv[4] if len(sys.argv) > 4 else None


def report(case, good, why=''):
    print(('ok %s' % case) if good else ('FAIL %s: %s' % (case, why)))


def boxes(drv):
    return drv.execute_script(
        "return [...document.querySelectorAll('#flame .f')].map(d => "
        "[d.node.name, d.getBoundingClientRect().width, d.classList.contains('anc'), d.classList.contains('match')]);")


def pixels(png):
    # The distinct colours of a PNG, and how many pixels are not white.
    # Each row's pixels as (r, g, b), made by zip, not a loop of Python.
    w, h, bpp, rows = pngrows(png)
    colours, inked = set(), 0
    for line in rows:
        px = list(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
        colours.update(px)
        inked += w - px.count((255, 255, 255))
    return len(colours), inked, w * h


opts = webdriver.ChromeOptions()
opts.binary_location = '/usr/bin/chromium'
profile = tempfile.mkdtemp(prefix='chrome.', dir=os.environ.get('T', '/tmp'))
for a in ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync',
          '--user-data-dir=' + profile, '--window-size=1000,900']:
    opts.add_argument(a)
opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
drv = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
try:
    drv.get('file://' + os.path.abspath(page))
    errs = [e['message'] for e in drv.get_log('browser') if e['level'] == 'SEVERE']
    report('no-console-errors', not errs, '; '.join(errs)[:300])
    report('one-script', drv.execute_script("return document.scripts.length") == 2,
           'a script that the page did not put there')

    # Zoom: click the widest frame that is not a root, and whose name no
    # other box has (a user function may call the kernel's by the same
    # name), then it is as wide as the graph.
    full = drv.find_element(By.ID, 'flame').rect['width']
    names = collections.Counter(x[0] for x in boxes(drv))
    b = [x for x in boxes(drv) if x[0] not in ('all', '[user]', '[cut]', 'idle') and names[x[0]] == 1]
    if b:
        target = max(b[1:] if len(b) > 1 else b, key=lambda x: x[1] if x[1] < full - 1 else 0)[0]
        drv.execute_script("[...document.querySelectorAll('#flame .f')].find(d => d.node.name === arguments[0]"
                           " && d.getBoundingClientRect().width < arguments[1] - 1).click();", target, full)
        w = [x[1] for x in boxes(drv) if x[0] == target and not x[2]]
        report('click-zooms', len(w) == 1 and abs(w[0] - full) <= 1,
               '%s is %s pixels wide, the graph %s' % (target, w, full))
        drv.find_element(By.ID, 'reset').click()
        w = max(x[1] for x in boxes(drv) if x[0] == target)
        report('reset', w < full - 1, '%s still %s wide' % (target, w))
    else:
        report('click-zooms', False, 'no frames')

    # Search: the marks, and the share, against stacks.txt.
    total = match = 0
    for l in open(os.path.join(pdir, 'stacks.txt')):
        frames, n = l.rsplit(' ', 1)
        total += int(n)
        match += int(n) if any(query in f for f in frames.split(';')) else 0
    drv.find_element(By.ID, 'search').send_keys(query)
    got = boxes(drv)
    marked = [x[0] for x in got if x[3]]
    report('search-marks', marked and all(query in m for m in marked) and
           all(x[3] for x in got if query in x[0] and x[0] != 'all'), 'marked %s' % marked[:5])
    text = drv.find_element(By.ID, 'matched').text
    want = '(%d of %d ticks)' % (match, total)
    report('search-share', want in text and '%' in text, '%r, want %r' % (text, want))

    # Sorting the flat profile by function, then by ms.
    def column(i):
        return [r.find_elements(By.TAG_NAME, 'td')[i].text
                for r in drv.find_elements(By.CSS_SELECTOR, '#flat tbody tr')]
    drv.find_element(By.CSS_SELECTOR, '#flat th[data-col="2"]').click()
    names = column(2)
    report('sort-by-name', names == sorted(names) and len(names) > 1, str(names[:5]))
    drv.find_element(By.CSS_SELECTOR, '#flat th[data-col="0"]').click()
    ms = [int(x) for x in column(0)]
    report('sort-by-ms', ms == sorted(ms, reverse=True) and ms[0] > ms[-1], str(ms[:5]))

    # The idle switch: idle's frames go; a profile scoped to its commands
    # (tools/profile) has none to begin with.
    idle = any('idle' in l.rsplit(' ', 1)[0].split(';') for l in open(os.path.join(pdir, 'stacks.txt')))
    had = sum(1 for x in boxes(drv) if x[0] == 'idle')
    drv.find_element(By.ID, 'idle').click()
    now = sum(1 for x in boxes(drv) if x[0] == 'idle')
    report('idle-switch', (had > 0) == idle and now == 0, 'idle frames %d, then %d' % (had, now))
    drv.find_element(By.ID, 'idle').click()

    ann = drv.find_elements(By.ID, 'annotate')
    report('annotated', ann and re.search(r'ticks\s+%\s+address\s+instruction', ann[0].text) and
           re.search(r'\n[0-9]+\s+[0-9.]+\s+[0-9a-f]{8}:', ann[0].text), 'no annotated instructions')

    # The kernel call graph: callgraph.txt, whole, where the run counted it.
    cg = os.path.join(pdir, 'callgraph.txt')
    if os.path.exists(cg):
        def words(text):
            return [l.split() for l in text.split('\n') if l.strip()]
        with open(cg) as f:
            want = words(f.read())
        got = drv.find_elements(By.ID, 'callgraph')
        report('callgraph-section', got and want and words(got[0].text) == want,
               'the page\'s call graph differs from callgraph.txt')

    # The ticks by process: procs.txt's rows, each process once, in its order.
    procs = os.path.join(pdir, 'procs.txt')
    if os.path.exists(procs):
        with open(procs) as f:
            want = [l.split('\t')[6] for l in f.read().split('\n')[1:-1]]
        got = [r.find_elements(By.TAG_NAME, 'td')[6].text
               for r in drv.find_elements(By.CSS_SELECTOR, '#procs tbody tr')]
        report('procs-table', got == want and len(got) > 1, '%r, want %r' % (got[:5], want[:5]))

    colours, inked, area = pixels(drv.get_screenshot_as_png())
    report('screenshot-not-blank', colours >= 20 and inked >= area // 10,
           '%d colours, %d of %d pixels not white' % (colours, inked, area))

    if name is not None:
        # The flame graph's is as kprof -s folds it: `;' and blanks are `_'.
        count = ("return [...document.querySelectorAll(arguments[0])].filter(e => "
                 "e.textContent === arguments[1]).length;")
        cells = drv.execute_script(count, '#flat td', name)
        frames = drv.execute_script(count, '#flame .f span', re.sub(r'[;\s]', '_', name))
        report('markup-shown-as-text', cells == 1 and frames >= 1,
               'the name is in %d cells and %d boxes' % (cells, frames))
        try:
            drv.switch_to.alert
            report('markup-runs-nothing', False, 'an alert ran')
        except NoAlertPresentException:
            report('markup-runs-nothing', drv.execute_script("return document.scripts.length") == 2,
                   'the name made a script')
    errs = [e['message'] for e in drv.get_log('browser') if e['level'] == 'SEVERE']
    report('no-console-errors-after', not errs, '; '.join(errs)[:300])
finally:
    drv.quit()
