#!/usr/bin/env python3
# Read what `go tool pprof' prints, and what kprof prints, into one
# form to compare, a line each, sorted:
#
#	ppread.py top PPROF-TOP		`name count' for each function (-top)
#	ppread.py traces PPROF-TRACES	`root;...;leaf count' (-traces)
#	ppread.py flat KPROF-OUTPUT	`name ms' from kprof's flat profile
#	ppread.py leaves KPROF-S	`leaf count', added up, from kprof -s
#
# Names are made one word as kprof -s makes them: a semicolon, blank or
# control byte is an underscore.
import re
import sys


def word(name):
    return re.sub(r'[;\x00-\x20\x7f]', '_', name)


def top(lines):
    out = {}
    rows = False
    for l in lines:
        if re.match(r'\s*flat\s+flat%', l):
            rows = True
            continue
        if not rows:
            continue
        m = re.match(r'\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s(.*)$', l)
        if not m:
            sys.exit('ppread: not a row of -top: %r' % l)
        name = m.group(2).lstrip(' ')
        out[word(name)] = out.get(word(name), 0) + int(m.group(1))
    return out


def traces(lines):
    out = {}
    stack, count = [], None
    for l in lines + ['-----------+']:
        if l.startswith('-----------+'):
            if count is not None:
                key = ';'.join(word(n) for n in reversed(stack))
                out[key] = out.get(key, 0) + count
            stack, count = [], None
        elif count is None and re.match(r'\s*\d+   ', l):
            count = int(l[:10])
            stack.append(l[13:])
        elif count is not None:
            stack.append(l[13:])
    return out


def flat(lines):
    out = {}
    for l in lines[3:]:
        ms, _, name = l.split('\t', 2)
        out[word(name)] = out.get(word(name), 0) + int(ms)
    return out


def leaves(lines):
    out = {}
    for l in lines:
        path, count = l.rsplit(' ', 1)
        leaf = path.split(';')[-1]
        out[leaf] = out.get(leaf, 0) + int(count)
    return out


kind, path = sys.argv[1], sys.argv[2]
lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
if lines and lines[-1] == '':
    lines.pop()
got = {'top': top, 'traces': traces, 'flat': flat, 'leaves': leaves}[kind](lines)
for k in sorted(got):
    if got[k] != 0:
        print(k, got[k])
