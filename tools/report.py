#!/usr/bin/env python3
# Write report.html, one self-contained page (no network, no script
# from elsewhere) of a profile that tools/profile brought home:
#
#	tools/report.py [-k KERNEL] DIR 'COMMANDS'
#
# reads what tools/profile wrote in DIR (kpctl, kpdata, kpcpu,
# profile.txt, lines.txt, stacks.txt), runs kprof -a on the hottest
# functions of KERNEL (default o/kernel, from the top of the tree, where
# the source files are), and writes
# DIR/report.html: the header (clock, ticks, CPUs, HZ, the commands),
# the flat profile as a table that sorts by any column, the flame graph
# (tools/report.js draws it: zoom, search, idle on or off), the hottest
# source lines, the annotated instructions and the per-CPU table.
#
#	tools/report.py -D [-k KERNEL] BEFORE AFTER
#
# writes AFTER/diff.html, the difference between two such directories:
# kprof -D's table, and a differential flame graph, its boxes as wide
# as AFTER's ticks, red where a function's share grew from BEFORE's
# and blue where it shrank, as Brendan Gregg's difffolded draws them.
#
# The data goes into the page as JSON, each `<', `>' and `&' escaped,
# and the page's script shows every name as text, never as markup: a
# function called `<script>' is shown so.  A file that is not what
# kprof writes is an error naming its line; the time is linear in the
# files.
import html
import json
import os
import re
import subprocess
import sys

HOT = 40		# rows of source lines shown
ANNOTATED = 5		# functions annotated, the busiest but idle
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    sys.exit('tools/report.py: ' + msg)


def read(d, name, need=True):
    path = os.path.join(d, name)
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError as e:
        if need:
            fail('%s: %s' % (path, e.strerror))
        return None
    # kprof ends every line; a last line without its end was cut short.
    if text and not text.endswith('\n'):
        fail('%s: cut short: its last line has no newline' % path)
    return text.split('\n')[:-1]


def ctl(d):
    # kpctl's status line: a state, then pairs of key and value.
    lines = read(d, 'kpctl')
    w = lines[0].split() if lines else []
    if len(w) < 1 or len(w) % 2 != 1:
        fail('%s/kpctl: not a kpctl status line' % d)
    return dict(zip(w[1::2], w[2::2]))


def flat(d):
    # kprof's flat profile: two lines of totals, the clock's line if
    # kpctl named one, the headings, then rows.
    lines = read(d, 'profile.txt')
    if len(lines) > 2 and lines[2].startswith('clock '):
        del lines[2]
    m = re.match(r'total: (\d+)\tin kernel text: (\d+)\toutside kernel text: (-?\d+)$',
                 lines[0] if lines else '')
    if not m or len(lines) < 3 or not lines[2].startswith('ms\t'):
        fail('%s/profile.txt: not kprof\'s flat profile' % d)
    rows = []
    for i, l in enumerate(lines[3:], 4):
        r = re.match(r'(\d+)\t *(\d+\.\d)\t(.*)$', l)
        if not r:
            fail('%s/profile.txt:%d: not a row `ms %% sym\'' % (d, i))
        rows.append([int(r.group(1)), float(r.group(2)), r.group(3)])
    return [int(m.group(1)), int(m.group(2)), int(m.group(3))], rows


def srclines(d):
    lines = read(d, 'lines.txt', False)
    rows = []
    if lines is None:
        return rows
    if len(lines) > 2 and lines[2].startswith('clock '):
        del lines[2]
    for i, l in enumerate(lines[3:3 + HOT], 4):
        r = re.match(r'(\d+)\t *(\d+\.\d)\t([^\t]*)\t([^\t]*)\t(.*)$', l)
        if not r:
            fail('%s/lines.txt:%d: not a row `ms %% sym line text\'' % (d, i))
        rows.append([int(r.group(1)), float(r.group(2)), r.group(3), r.group(4), r.group(5)])
    return rows


def stacks(d):
    lines = read(d, 'stacks.txt', False)
    out = []
    for i, l in enumerate(lines or [], 1):
        r = re.match(r'(\S+) (\d+)$', l)
        if not r:
            fail('%s/stacks.txt:%d: not a folded stack `a;b;c count\'' % (d, i))
        out.append([r.group(1).split(';'), int(r.group(2))])
    return out


def cpus(d):
    lines = read(d, 'kpcpu', False)
    out = []
    for i, l in enumerate(lines or [], 1):
        r = re.match(r'cpu (\d+) total (\d+) kernel (\d+)$', l)
        if not r:
            fail('%s/kpcpu:%d: not a line `cpu N total N kernel N\'' % (d, i))
        out.append([int(r.group(1)), int(r.group(2)), int(r.group(3))])
    return out


def procs(d):
    # kprof -P's table: a heading, then pid, parent, user, kernel, total,
    # %, name; pid and parent `-' on the line of processes the table had
    # no room for.
    lines = read(d, 'procs.txt', False)
    out = []
    if not lines:
        return out
    if not lines[0].startswith('pid\tppid\t'):
        fail('%s/procs.txt: not kprof -P\'s table' % d)
    for i, l in enumerate(lines[1:], 2):
        r = re.match(r'(\d+|-)\t(\d+|-)\t(\d+)\t(\d+)\t(\d+)\t *(\d+\.\d)\t(.*)$', l)
        if not r:
            fail('%s/procs.txt:%d: not a row `pid ppid user kernel total %% name\'' % (d, i))
        out.append([None if r.group(k) == '-' else int(r.group(k)) for k in (1, 2, 3, 4, 5)] +
                   [float(r.group(6)), r.group(7)])
    return out


def annotate(d, kernel, rows):
    # kprof -a's listings of the busiest functions, one after another:
    # not idle, nor kprof's own row, which is measured, in no bin.
    out = []
    for r in [r for r in rows if r[2] not in ('idle', 'kprof')][:ANNOTATED]:
        p = subprocess.run([os.path.join(TOP, 'o/host/kprof'), '-a', r[2], os.path.abspath(kernel),
                            os.path.abspath(os.path.join(d, 'kpdata'))],
                           cwd=TOP, capture_output=True, text=True, errors='replace')
        if p.returncode != 0:
            fail('kprof -a %s: %s' % (r[2], p.stderr.strip()))
        out.append(p.stdout)
    return '\n'.join(out)


def diff(d1, d2, kernel):
    # kprof -D's rows: before %, after %, change, z (None for `-'), name.
    p = subprocess.run([os.path.join(TOP, 'o/host/kprof'), '-D', os.path.abspath(kernel),
                        os.path.abspath(os.path.join(d1, 'kpdata')), os.path.abspath(os.path.join(d2, 'kpdata'))],
                       cwd=TOP, capture_output=True, text=True, errors='replace')
    if p.returncode != 0:
        fail('kprof -D: %s' % p.stderr.strip())
    rows = []
    for l in p.stdout.split('\n')[2:-1]:
        r = re.match(r' *([0-9.]+)%\t *([0-9.]+)%\t([-+][0-9.]+)\t([-+][0-9.]+|-)\t(.*)$', l)
        if not r:
            fail('kprof -D: not a row: %r' % l)
        rows.append([float(r.group(1)), float(r.group(2)), float(r.group(3)),
                     None if r.group(4) == '-' else float(r.group(4)), r.group(5)])
    return rows


def diffmain(args):
    kernel = os.path.join(TOP, 'o/kernel')
    if len(args) == 4 and args[0] == '-k':
        kernel, args = args[1], args[2:]
    if len(args) != 2:
        sys.exit('usage: tools/report.py -D [-k KERNEL] BEFORE AFTER')
    d1, d2 = args
    s1, s2 = ctl(d1), ctl(d2)
    t1, _ = flat(d1)
    t2, _ = flat(d2)
    data = {
        'command': 'the difference from %s to %s' % (d1, d2),
        'clock': s2.get('clock', 'not named by kpctl'),
        'hz': s2.get('hz', '?'), 'cpus': s2.get('cpus', '?'), 'cut': s2.get('cut', '0'),
        'ticks': t2[0], 'kernel': t2[1], 'user': t2[2],
        'before': {'ticks': t1[0], 'kernel': t1[1], 'user': t1[2], 'stacks': stacks(d1)},
        'diff': diff(d1, d2, kernel),
        'flat': [], 'lines': [], 'stacks': stacks(d2), 'cpu': [], 'procs': [], 'callgraph': '', 'annotate': '',
    }
    write(os.path.join(d2, 'diff.html'), page(data, 'Kernel profile: difference'))


def write(out, text):
    with open(out + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


def page(data, title):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'report.css')) as f:
        css = f.read()
    with open(os.path.join(here, 'report.js')) as f:
        js = f.read()
    # JSON inside <script>: no `<', `>' or `&' that HTML could read as markup.
    blob = json.dumps(data, ensure_ascii=True, separators=(',', ':'))
    blob = blob.replace('<', '\\u003c').replace('>', '\\u003e').replace('&', '\\u0026')
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n'
            '<script type="application/json" id="data">%s</script>\n'
            '<script>\n%s</script>\n</body>\n</html>\n') % (html.escape(title), css, blob, js)


def main():
    args = sys.argv[1:]
    if args[:1] == ['-D']:
        diffmain(args[1:])
        return
    kernel = os.path.join(TOP, 'o/kernel')
    if len(args) == 4 and args[0] == '-k':
        kernel, args = args[1], args[2:]
    if len(args) != 2:
        sys.exit('usage: tools/report.py [-k KERNEL] DIR COMMANDS')
    d, command = args
    status = ctl(d)
    totals, rows = flat(d)
    data = {
        'command': command,
        'clock': status.get('clock', 'not named by kpctl'),
        'hz': status.get('hz', '?'),
        'cpus': status.get('cpus', '?'),
        'cut': status.get('cut', '0'),
        'ticks': totals[0], 'kernel': totals[1], 'user': totals[2],
        'flat': rows,
        'lines': srclines(d),
        'stacks': stacks(d),
        'cpu': cpus(d),
        'procs': procs(d),
        'callgraph': '\n'.join(read(d, 'callgraph.txt', False) or []),
        'annotate': annotate(d, kernel, rows),
    }
    write(os.path.join(d, 'report.html'), page(data, 'Kernel profile: ' + command))


main()
