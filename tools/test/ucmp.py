# ucmp.py KIND SAMPLED PROG UPCDATA FUNCTION...: a program's own profile
# against the exact count of its user instructions, by function, as
# kprof -c holds a kernel profile against one.  KIND is profil (SAMPLED
# holds 16-bit counters, one for each 2 bytes from address 0, scale
# 0x10000) or pcsample (raw 4-byte pcs); UPCDATA is the plugin's count
# by 8-byte bin of user text (tools/kpexact.c), each bin credited to the
# function that holds its first byte, a sampled pc to the one that holds
# it, both by PROG's symbols.  Only the FUNCTIONs named count, on both
# sides: the system call stubs, where profil counts the process's
# kernel time, and code the exact count has from the rest of the run,
# stay out.  Prints a row for each, then the total variation distance
# in points and what sampling alone gives: the median and 95th
# percentile of the distances of 1000 multinomial draws of as many
# ticks from the exact shares, with a fixed seed, so that the figures
# are the same every time.
import bisect, math, random, struct, subprocess, sys
sys.path.insert(0, sys.path[0])
from kprofh import K, UTZERO

kind, sampled, prog, upc = sys.argv[1:5]
fns = sys.argv[5:]
syms = sorted((int(f[0], 16), f[2]) for f in (l.split() for l in
	subprocess.run(['nm', '-n', prog], capture_output=True, text=True, check=True).stdout.splitlines())
	if len(f) == 3 and f[1] in 'tTW')
addrs = [a for a, _ in syms]

def fn(pc):
	k = bisect.bisect_right(addrs, pc) - 1
	return syms[k][1] if k >= 0 else None

b = open(upc, 'rb').read()
c = struct.unpack('>%dI' % (len(b) // 4), b)
exact = dict.fromkeys(fns, 0)
for j, v in enumerate(c[K['KPBIN']:]):
	f = fn(UTZERO + j * K['KPBINSIZE'])
	if f in exact:
		exact[f] += v
samp = dict.fromkeys(fns, 0)
d = open(sampled, 'rb').read()
if kind == 'profil':
	pcs = ((2 * j, n) for j, n in enumerate(struct.unpack('<%dH' % (len(d) // 2), d)) if n)
else:
	pcs = ((pc, 1) for pc in struct.unpack('<%dI' % (len(d) // 4), d))
for pc, n in pcs:
	f = fn(pc)
	if f in samp:
		samp[f] += n
E, S = sum(exact.values()), sum(samp.values())
if E == 0 or S == 0:
	sys.exit('ucmp: no exact count or no samples of ' + ' '.join(fns))
print('exact: %d thousand instructions; sampled: %d ticks' % (E, S))
print('sampled\texact\tdiff\tSEs\tsym')
tv = 0
for f in sorted(fns, key=lambda f: -exact[f]):
	p, s = exact[f] / E, samp[f] / S
	tv += abs(s - p) / 2
	se = math.sqrt(p * (1 - p) / S)
	print('%6.2f\t%6.2f\t%+6.2f\t%s\t%s' % (100 * s, 100 * p, 100 * (s - p), '%+5.1f' % ((s - p) / se) if se else '-', f))

def binomial(rng, n, p):
	# Binomial(n, p), exactly: the count of n uniforms below p, found
	# from their order statistics in O(log n) draws (Knuth, TAOCP 3.4.1)
	# where counting them took n.  The m-th least of n is Beta(m, n+1-m);
	# below p, the m least are counted and the n-m others are uniform
	# above it; else only the m-1 below it can count.
	x = 0
	while n >= 16 and 0 < p < 1:
		m = (n + 1) // 2
		u = rng.betavariate(m, n + 1 - m)
		if u < p:
			x, n, p = x + m, n - m, (p - u) / (1 - u)
		else:
			n, p = m - 1, p / u
	if p >= 1:
		return x + n
	return x + sum(rng.random() < p for _ in range(n))

# Each draw is multinomial, as a binomial for each function in turn of
# the ticks not yet drawn, at its share of what is left: 0.1 s for the
# 1000 where drawing each of 13,000 ticks took 2.5 s.  The figures are
# the same law's: for hotspots' shares and 13,507 ticks, the median and
# 95th percentile were 0.632 and 1.116 points on average over 40 seeds,
# 0.630 and 1.121 over 4 seeds of the tick by tick draws, and either
# way they move by 0.01 and 0.02 from seed to seed.
rng = random.Random(1)
w = [exact[f] for f in fns]
dist = []
for _ in range(1000):
	n, left, rest = [], S, E
	for wj in w:
		k = binomial(rng, left, wj / rest) if rest else 0
		n.append(k)
		left, rest = left - k, rest - wj
	dist.append(sum(abs(n[j] / S - w[j] / E) for j in range(len(fns))) / 2)
dist.sort()
print('total variation: %.2f points' % (100 * tv))
print('sampling alone: median %.2f, 95th percentile %.2f points (1000 simulated profiles of %d ticks)' % (100 * dist[500], 100 * dist[950], S))
