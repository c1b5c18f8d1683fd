#!/usr/bin/env python3
# kpcheck.py KERNEL FILE [FN[:CALLER,CALLER...]]...: the facts the kprof
# tests check about a kpdata and the kpstack read with it.  FILE holds
# kpdata (its length is known from KERNEL's text) followed by kpstack,
# as `cat /dev/kpdata /dev/kpstack > /dev/eia1` leaves them.  Prints
# "key value" lines:
#	ticks, kernel	cells 0 and 1
#	binsum		the sum of the bins
#	self		kprof's own cost, the cell after the bins
#	stacksum	the sum of kpstack's counts
#	kstacksum	that of the lines whose leaf is in kernel text
#	ustacksum	that of the lines with a user stack (KPUMARK)
#	uleaf		that of the lines of user mode (no kernel pcs) that
#			say where it was: a user pc after the mark
#	lines, depth	kpstack's lines, and the most kernel pcs in one
#	udepth		the most user pcs in one
#	leafonly	lines of one pc
#	badlines	lines not of kpstack's form, with kernel pcs outside
#			text, or user pcs at or above it
#	repeats		lines whose stack an earlier line has
#	bins FN		ticks in FN's bins (each bin is its start address's)
#	chain FN	ticks of the stacks whose leaf is in FN and whose next
#			kernel pcs are in the CALLERs, in order
#	leaf FN		ticks of the stacks whose leaf is in FN
import bisect, re, struct, subprocess, sys

from kprofh import K, UMARK

kernel, path = sys.argv[1], sys.argv[2]
syms = []
for l in subprocess.run(['nm', '-n', kernel], capture_output=True, text=True, check=True).stdout.splitlines():
	f = l.split()
	if len(f) == 3 and f[1] in 'tT':
		syms.append((int(f[0], 16), f[2]))
starts = [a for a, _ in syms]
text = etext = None
for l in subprocess.run(['readelf', '-SW', kernel], capture_output=True, text=True, check=True).stdout.splitlines():
	m = re.search(r'\] \.text +PROGBITS +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+)', l)
	if m:
		text, etext = int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)

def fn(pc):
	i = bisect.bisect_right(starts, pc) - 1
	return syms[i][1] if i >= 0 else '?'

d = open(path, 'rb').read()
bin, cell = K['KPBINSIZE'], K['KPCELL']
n = K['KPBIN'] + (etext - text + bin - 1) // bin + K['KPSELF']
c = struct.unpack('>%d%s' % (n, {4: 'I', 8: 'Q'}[cell]), d[:cell * n])
lines = d[cell * n:].decode('ascii', 'replace').splitlines()
stacks, ustacks, bad = [], [], 0
for l in lines:
	if not re.fullmatch(r'[0-9]+( [0-9a-f]{%d}){1,%d}' % (K['KPPCDIGITS'], K['KPMAXFRAMES']), l):
		bad += 1
		continue
	f = l.split()
	pcs = [int(x, 16) for x in f[1:]]
	upcs = pcs[pcs.index(UMARK) + 1:] if UMARK in pcs else None
	if upcs is not None:
		pcs = pcs[:pcs.index(UMARK)]
	if (not all(text <= p < etext for p in pcs) or len(pcs) > K['KPKFRAMES']
	    or upcs is not None and (not all(p < text for p in upcs) or len(upcs) > K['KPUFRAMES'])):
		bad += 1
		continue
	if pcs:
		stacks.append((int(f[0]), pcs))
	if upcs is not None:
		ustacks.append((int(f[0]), upcs, len(pcs)))
bins = c[K['KPBIN']:n - K['KPSELF']]
print('ticks', c[K['KPTOTAL']])
print('kernel', c[K['KPKERNEL']])
print('binsum', sum(bins))
print('self', c[n - 1])
print('stacksum', sum(s for s, _ in stacks) + sum(s for s, _, k in ustacks if k == 0))
print('kstacksum', sum(s for s, _ in stacks))
print('ustacksum', sum(s for s, _, _ in ustacks))
print('uleaf', sum(s for s, p, k in ustacks if k == 0 and p))
print('lines', len(lines))
print('depth', max((len(p) for _, p in stacks), default=0))
print('udepth', max((len(p) for _, p, _ in ustacks), default=0))
print('leafonly', sum(1 for _, p in stacks if len(p) == 1) + sum(1 for _, p, k in ustacks if k + len(p) == 1))
print('badlines', bad)
print('repeats', len(lines) - bad - len(set(l for l in lines)))
for a in sys.argv[3:]:
	name, _, callers = a.partition(':')
	chain = [name] + [x for x in callers.split(',') if x]
	print('bins', name, sum(v for i, v in enumerate(bins) if fn(text + bin * i) == name))
	print('leaf', name, sum(s for s, p in stacks if fn(p[0]) == name))
	print('chain', name, sum(s for s, p in stacks if [fn(x) for x in p[:len(chain)]] == chain))
