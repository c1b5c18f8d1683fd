#!/usr/bin/env python3
# kpfloor.py KERNEL EXACT SAMPLED: how far a sampled kpdata is from the
# exact count of the same run (tools/kpexact.c), against how far
# sampling alone would put it.  Both files are kpdata: the bins are
# credited to the kernel functions that hold them (each bin to the
# function its start address is in, as kprof does), leaving out idle,
# where a halted processor runs no instructions but takes ticks, and
# the sampler's own NMI path (nmientry, kprofnmi and its stackadd),
# which runs instructions but cannot sample itself.  The distance is
# the total variation over the functions' shares, in points; the noise
# is that distance for multinomial samples of as many ticks drawn from
# the exact shares (400 of them, seeded, so the figures are the same
# each time).  Prints the busiest functions, then
#	ticks N  tv D  noise50 M  noise95 P  floor F
# and exits 0 if tv is at most the floor, max(noise95, 1 point).
import bisect, random, re, struct, subprocess, sys

kernel, exactpath, sampledpath = sys.argv[1:4]
LEFTOUT = {'idle', 'nmientry', 'kprofnmi', 'stackadd'}

syms = []
for l in subprocess.run(['nm', '-n', kernel], capture_output=True, text=True, check=True).stdout.splitlines():
	f = l.split()
	if len(f) == 3 and f[1] in 'tT':
		syms.append((int(f[0], 16), f[2]))
starts = [a for a, _ in syms]
text = None
for l in subprocess.run(['readelf', '-SW', kernel], capture_output=True, text=True, check=True).stdout.splitlines():
	m = re.search(r'\] \.text +PROGBITS +([0-9a-f]+) ', l)
	if m:
		text = int(m.group(1), 16)

def shares(path):
	d = open(path, 'rb').read()
	c = struct.unpack('>%dI' % (len(d) // 4), d)
	f = {}
	for i, v in enumerate(c[2:]):
		if v:
			j = bisect.bisect_right(starts, text + 8 * i) - 1
			name = syms[j][1] if j >= 0 else '?'
			if name not in LEFTOUT:
				f[name] = f.get(name, 0) + v
	return f

exact, sampled = shares(exactpath), shares(sampledpath)
n = sum(sampled.values())
etot = sum(exact.values())
if n == 0 or etot == 0:
	sys.exit('kpfloor: no kernel ticks left to compare')
names = sorted(set(exact) | set(sampled), key=lambda k: -exact.get(k, 0))
p = [exact.get(k, 0) / etot for k in names]
q = [sampled.get(k, 0) / n for k in names]

def tv(a, b):
	return 50 * sum(abs(x - y) for x, y in zip(a, b))

rng = random.Random(1)
cum, t = [], 0
for x in p:
	t += x
	cum.append(t)
noise = []
for _ in range(400):
	counts = [0] * len(p)
	for k in rng.choices(range(len(p)), cum_weights=cum, k=n):
		counts[k] += 1
	noise.append(tv(p, [x / n for x in counts]))
noise.sort()
d = tv(p, q)
n50, n95 = noise[len(noise) // 2], noise[int(len(noise) * 0.95)]
floor = max(n95, 1.0)
print('exact%\tsampled%\tsym')
for k, x, y in list(zip(names, p, q))[:12]:
	print('%5.1f\t%5.1f\t%s' % (100 * x, 100 * y, k))
print('ticks %d  tv %.2f  noise50 %.2f  noise95 %.2f  floor %.2f' % (n, d, n50, n95, floor))
sys.exit(0 if d <= floor else 1)
