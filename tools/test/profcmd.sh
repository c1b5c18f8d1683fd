#!/usr/bin/env bash
#
# Host tests for prof (user/prof.c, with user/lib/elfsym.c) and the
# gmon.out that profiled programs write (user/lib/gmon.c, mcount.asm).
#
# Builds o/host/prof and a copy with the address and undefined-behaviour
# sanitizers, and checks their exact output and exit status on a small
# i386 program with functions at known addresses and gmon.out files
# made to order: good ones, with and without call-graph arcs, and
# truncated, foreign, wrong-version and empty ones, and ones whose arcs
# are cut short, out of the text or overflowed.  Then boots the kernel
# at hz=10000 to run profdemo.prof, whose work is split 3:1 between
# spin3 and spin1, and arctest.prof, whose arcs and calls are known
# (within mcount's table, and past it), brings their gmon.out files out
# through /dev/eia1, and checks that prof in the guest, prof on the host
# and GNU gprof agree on them, on the split and on every call.
#
# Prints "ok NAME" or "FAIL NAME: reason" for each case, then a summary
# line; exits non-zero if any case failed.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

hostin prof profcmd

# Program p1: text at 0x1000, 0x40 bytes.
#	f	1000	16 bytes
#	g	1010	16 bytes
#	h	1020	32 bytes
fixtures profcmd "the test program" nopelf p1 0x1000 f:16 g:16 h:32

# gprofpct program gmon name: gprof's % time for the function name.
gprofpct() {
	gprof -p -b "$1" "$2" 2>/dev/null | awk -v n="$3" '$NF == n && NF >= 4 { print $1; exit }'
}

# The main profile: 4-byte bins, 100 ticks at 1000 Hz.
mkgmon g1 0x1000 0x1040 16 1000 0:10 2:20 5:50 8:15 15:5
wantprof 100 00001000 1000 '50\t 50.0\tg' '30\t 30.0\tf' '20\t 20.0\th'
expect good 0 p1 g1
cp g1 gmon.out
expect default-gmon 0 p1

# gprof reads the same file the same way.
if [ "$(gprofpct p1 g1 g)" = 50.00 ] && [ "$(gprofpct p1 g1 f)" = 30.00 ] &&
   [ "$(gprofpct p1 g1 h)" = 20.00 ]; then
	ok gprof-reads-it
else
	bad gprof-reads-it "$(gprof -p -b p1 g1 2>&1 | head -8 | tr '\n' '|')"
fi

# 8-byte bins: bin i starts at 0x1000 + 8i.
mkgmon g2 0x1000 0x1040 8 100 1:3 2:1 3:1 7:5
wantprof 10 00001000 100 '50\t 50.0\th' '30\t 30.0\tf' '20\t 20.0\tg'
expect wide-bins 0 p1 g2

# A histogram over part of the text.
mkgmon g3 0x1010 0x1020 4 1000 0:1 3:2
wantprof 3 00001010 1000 '3\t100.0\tg'
expect part-of-text 0 p1 g3

# Counters at their limit; percentages round to the nearest tenth.
mkgmon g4 0x1000 0x1040 16 1 0:0xffff 4:0xffff 8:0xffff
wantprof 196605 00001000 1 '65535000\t 33.3\tf' '65535000\t 33.3\tg' '65535000\t 33.3\th'
expect saturated 0 p1 g4

# No ticks: the header only.
mkgmon g5 0x1000 0x1040 16 100
wantprof 0 00001000 100
expect no-ticks 0 p1 g5

# Bad gmon.out files.
: >empty
want '' 'prof: empty: not a gmon.out file\n'
expect empty 1 p1 empty
printf 'gmo' >short
want '' 'prof: short: not a gmon.out file\n'
expect three-bytes 1 p1 short
cp g1 magic
poke magic 0 '<I' 0x4e4f4d47
want '' 'prof: magic: not a gmon.out file\n'
expect wrong-magic 1 p1 magic
cp g1 version
poke version 4 '<I' 2
want '' 'prof: version: unsupported version 2\n'
expect wrong-version 1 p1 version
head -c 12 g1 >trunc12
want '' 'prof: trunc12: truncated header\n'
expect truncated-header 1 p1 trunc12
head -c 20 g1 >hdronly
want '' 'prof: hdronly: no histogram\n'
expect header-only 1 p1 hdronly
head -c 40 g1 >trunc40
want '' 'prof: trunc40: truncated histogram\n'
expect truncated-record 1 p1 trunc40
head -c 84 g1 >trunc84
want '' 'prof: trunc84: truncated histogram\n'
expect truncated-counts 1 p1 trunc84
cp g1 extra
printf 'xx' >>extra
want '' 'prof: extra: unknown record, tag 120 at offset 85\n'
expect trailing-data 1 p1 extra
cp g1 tag
poke tag 20 '<B' 2
want '' 'prof: tag: unknown record, tag 2 at offset 20\n'
expect basic-block-tag 1 p1 tag
# A second histogram of the same range adds to the first, as gprof
# reads it (the kernel's, whose counts pass 16 bits); of another, an error.
cp g1 hist2
tail -c +21 g1 >>hist2
wantprof 200 00001000 1000 '100\t 50.0\tg' '60\t 30.0\tf' '40\t 20.0\th'
expect second-histogram-adds 0 p1 hist2
cp hist2 hist3
poke hist3 86 '<I' 0x1004
want '' 'prof: hist3: a second histogram, at offset 85, of another range or rate\n'
expect second-histogram-elsewhere 1 p1 hist3
# Records that carry a counter past 2^32-1: an error, where it used to
# wrap to a few ticks, silently.
mkgmon wrap 0x1000 0x1040 1 100 0:0xffff
python3 -c "b = open('wrap', 'rb').read(); open('wrap', 'ab').write(b[20:] * 65537)"
want '' 'prof: wrap: histogram record at offset 2293815: counter 0 passes 2^32-1\n'
expect histogram-sum-wraps 1 p1 wrap
mkgmon rate0 0x1000 0x1040 16 0 0:1
want '' 'prof: rate0: clock rate 0\n'
expect zero-rate 1 p1 rate0
mkgmon range1 0x2000 0x2040 16 100 0:1
want '' 'prof: range1: histogram 00002000-00002040 does not fit p1'"'"'s text 00001000-00001040\n'
expect range-elsewhere 1 p1 range1
mkgmon range2 0x1000 0x1080 16 100 0:1
want '' 'prof: range2: histogram 00001000-00001080 does not fit p1'"'"'s text 00001000-00001040\n'
expect range-too-long 1 p1 range2
mkgmon range3 0x1000 0x1040 0 100
want '' 'prof: range3: histogram 00001000-00001040 does not fit p1'"'"'s text 00001000-00001040\n'
expect no-bins 1 p1 range3
mkgmon range4 0x1040 0x1000 16 100
want '' 'prof: range4: histogram 00001040-00001000 does not fit p1'"'"'s text 00001000-00001040\n'
expect range-backwards 1 p1 range4
want '' 'prof: nosuch: No such file or directory\n'
expect missing-gmon 1 p1 nosuch

# Call-graph arcs: each arc's calls go to the function called (the
# one whose text holds self_pc), summed over its callers and over
# repeated records, and a calls column appears.  A return address may
# be the very end of the text (a call that ends it); a function with
# calls and no ticks has a row.
cp g1 a1
addarcs a1 0x1005:0x1013:3 0x1019:0x1023:2 0x1007:0x1023:1 0x1040:0x1013:4
wantprof 100 00001000 1000 calls '50\t 50.0\t7\tg' '30\t 30.0\t\tf' '20\t 20.0\t3\th'
expect arcs 0 p1 a1
# gprof's flat profile has the same calls.
gprof -p -b p1 a1 >gprof.out 2>gprof.err
if [ ! -s gprof.err ] && grep -qE ' 7 +[0-9.]+ +[0-9.]+ +g$' gprof.out &&
   grep -qE ' 3 +[0-9.]+ +[0-9.]+ +h$' gprof.out; then
	ok gprof-reads-arcs
else
	bad gprof-reads-arcs "$(cat gprof.err gprof.out | head -8 | tr '\n' '|')"
fi
mkgmon a2 0x1000 0x1040 16 100 0:2
addarcs a2 0x1005:0x1020:0 0x1015:0x1020:4000000000 0x1025:0x1020:4000000000
wantprof 2 00001000 100 calls '20\t100.0\t\tf' '0\t  0.0\t8000000000\th'
expect calls-no-ticks 0 p1 a2
# Records in any order: the arcs before the histogram.
head -c 20 g1 >a3
addarcs a3 0x1005:0x1013:3
tail -c +21 g1 >>a3
wantprof 100 00001000 1000 calls '50\t 50.0\t3\tg' '30\t 30.0\t\tf' '20\t 20.0\t\th'
expect arcs-first 0 p1 a3

# Bad arcs: each an error, exit 1, nothing on stdout.
cp g1 b1
addarcs b1 0x1005:0x1013:3
head -c $(($(wc -c <b1) - 1)) b1 >b2
want '' 'prof: b2: truncated arc record at offset 85\n'
expect truncated-arc 1 p1 b2
cp b1 b3
printf '\001\005\020' >>b3
want '' 'prof: b3: truncated arc record at offset 98\n'
expect truncated-second-arc 1 p1 b3
badarc() {	# badarc name from:self:count message
	cp g1 "$1"
	addarcs "$1" 0x1005:0x1013:3 "$2"
	want '' "prof: $1: arc at offset 98: $3\\n"
	expect "$1" 1 p1 "$1"
}
badarc caller-at-text-start 0x1000:0x1013:1 "caller 00001000 is outside p1's text 00001000-00001040"
badarc caller-past-text 0x1041:0x1013:1 "caller 00001041 is outside p1's text 00001000-00001040"
badarc caller-zero 0:0x1013:1 "caller 00000000 is outside p1's text 00001000-00001040"
badarc caller-high 0xffffffff:0x1013:1 "caller ffffffff is outside p1's text 00001000-00001040"
badarc callee-at-text-end 0x1005:0x1040:1 "callee 00001040 is outside p1's text 00001000-00001040"
badarc callee-below-text 0x1005:0xfff:1 "callee 00000fff is outside p1's text 00001000-00001040"
badarc count-overflow 0x1005:0x1013:0xffffffff "count overflow: it stopped at 4294967295 calls"

# Time linear in the input: 300,000 arcs (3.9 MB), every one checked.
mkgmon big 0x1000 0x1040 16 100 0:1
python3 - <<'EOF'
import struct
rec = bytes([1]) + struct.pack('<III', 0x1005, 0x1013, 1)
open('big', 'ab').write(rec * 300000)
EOF
wantprof 1 00001000 100 calls '10\t100.0\t\tf' '0\t  0.0\t300000\tg'
expect many-arcs 0 p1 big

# Bad programs.
want '' 'prof: nosuch: No such file or directory\n'
expect missing-program 1 nosuch g1
want '' 'prof: g1: not an ELF file\n'
expect not-elf 1 g1 g1
strip --strip-all -o p1.stripped p1
want '' 'prof: p1.stripped: no symbol table\n'
expect stripped 1 p1.stripped g1

# Usage.
want '' 'usage: prof program [gmon.out]\n       prof -p program [gmon.out] >prof.pb.gz\n'
expect no-arguments 1
expect three-arguments 1 p1 g1 g1
expect flag 1 -x p1

# Random damage to gmon.out, with arcs and without, must give a profile
# or an error, never a crash or a sanitizer report.
python3 - <<'EOF'
import random
random.seed(7)
for i in range(200):
	g = open('a1' if i % 2 else 'g1', 'rb').read()
	b = bytearray(g)
	for j in range(random.randint(1, 6)):
		b[random.randrange(len(b))] = random.randrange(256)
	if random.random() < 0.3:
		b = b[:random.randrange(len(b) + 1)]
	open('fuzz%d' % i, 'wb').write(b)
EOF
survives fuzz-gmon p1 {}

# In the guest, in one boot at 10000 Hz: arctest.prof along 100 arcs 3
# times each, then along 2560 arcs twice, more than mcount's table
# holds; then profdemo.prof for 2 s, 20000 ticks.  Their gmon.out files
# come out through /dev/eia1 one after the other, and each is printed
# by prof in the guest, between "==" lines.
cd "$top" || exit 1
guest -d -a hz=10000 -o "$T/eia1" -t 120 -c 'cd /tmp
arctest.prof 100 3 && mv gmon.out arcs.out
arctest.prof 2560 2 && mv gmon.out full.out
/bin/profdemo.prof 2
cat gmon.out arcs.out full.out > /dev/eia1
echo == profdemo; prof /bin/profdemo.prof gmon.out
echo == arcs; prof /bin/arctest.prof arcs.out
echo == full; prof /bin/arctest.prof full.out; echo prof status $status
echo == end'
if [ "$st" -ne 0 ]; then
	bad guest-run "run-qemu.sh exit status $st: $(tail -5 <<<"$out" | tr '\n' '|')"
	summary profcmd
	exit 1
fi

# Split what came out into the three files: each starts with "gmon",
# where the records of the one before end.
python3 - "$T/eia1" "$T/pd.out" "$T/arcs.out" "$T/full.out" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
start = off = 0
files = []
while off < len(b):
	if b[off:off + 4] == b'gmon':
		if off > start:
			files.append(b[start:off])
		start = off
		off += 20
	elif b[off] == 0:
		off += 33 + 2 * struct.unpack_from('<I', b, off + 9)[0]
	elif b[off] == 1:
		off += 13
	else:
		sys.exit('eia1: bad record at %d' % off)
files.append(b[start:])
for path, data in zip(sys.argv[2:], files):
	open(path, 'wb').write(data)
EOF

# section NAME: the guest's prof output after "== NAME", up to the next "==".
section() {
	sed -n "/^== $1\$/,/^== /p" <<<"$out" | sed '1d;$d'
}

# The guest's and the host's prof agree, on the profile and the calls.
section profdemo >"$T/guest.out"
"${hostbins[0]}" o/bin/profdemo.prof "$T/pd.out" >"$T/host.out" 2>"$T/host.err"
if [ $? -ne 0 ]; then
	bad host-prof "$(head -c 300 "$T/host.err")"
elif ! cmp -s "$T/guest.out" "$T/host.out"; then
	bad host-prof "guest and host prof differ: $(diff "$T/guest.out" "$T/host.out" | head -5 | tr '\n' '|')"
else
	ok host-prof
fi
section arcs >"$T/guest-arcs.out"
"${hostbins[0]}" o/test/arctest.prof "$T/arcs.out" >"$T/host-arcs.out" 2>"$T/host.err"
check host-prof-arcs cmp -s "$T/guest-arcs.out" "$T/host-arcs.out"

# prof's and gprof's top function and shares, and the split.
gprof -p -b o/bin/profdemo.prof "$T/pd.out" >"$T/gprof.out" 2>"$T/gprof.err"
python3 - "$T/host.out" "$T/gprof.out" <<'EOF' >"$T/compare"
import sys
prof = {}
total = 0
for line in open(sys.argv[1]):
	f = line.split()
	if line.startswith('total: '):
		total = int(f[1])
	elif len(f) in (3, 4) and f[0].isdigit():
		prof.setdefault(f[-1], float(f[1]))
gprof = {}
for line in open(sys.argv[2]):
	f = line.split()
	if len(f) >= 4:
		try:
			gprof.setdefault(f[-1], float(f[0]))
		except ValueError:
			pass
def top(d):
	return max(d, key=d.get) if d else None
problems = []
if total < 10000:
	problems.append('only %d ticks' % total)
if top(prof) != top(gprof):
	problems.append('top function: prof %s, gprof %s' % (top(prof), top(gprof)))
elif abs(prof[top(prof)] - gprof[top(gprof)]) > 0.5:
	problems.append('top share: prof %.1f, gprof %.2f' % (prof[top(prof)], gprof[top(gprof)]))
# The split between the two, as profil.sh checks pcsample's: their shares
# of all the time also hold main's part (about 1%), which is not theirs.
for name, d in (('prof', prof), ('gprof', gprof)):
	s3, s1 = d.get('spin3', 0), d.get('spin1', 0)
	if s3 + s1 == 0 or abs(100 * s3 / (s3 + s1) - 75) > 1:
		problems.append('%s: spin3 %.2f%%, spin1 %.2f%%: not 3:1' % (name, s3, s1))
print('; '.join(problems) if problems else 'ok')
EOF
if [ ! -s "$T/gprof.out" ]; then
	bad gprof-guest "gprof: $(head -c 300 "$T/gprof.err")"
elif [ "$(cat "$T/compare")" = ok ]; then
	ok gprof-agrees
else
	bad gprof-agrees "$(cat "$T/compare")"
fi

# gprof -b prints both tables, and no warning.
if gprof -b o/bin/profdemo.prof "$T/pd.out" >"$T/gprofb.out" 2>"$T/gprofb.err" &&
   [ ! -s "$T/gprofb.err" ] && grep -q '^Flat profile:' "$T/gprofb.out" &&
   grep -q 'Call graph' "$T/gprofb.out"; then
	ok gprof-brief-no-warning
else
	bad gprof-brief-no-warning "$(cat "$T/gprofb.err" "$T/gprofb.out" | head -5 | tr '\n' '|')"
fi

# The calls along the arcs are exactly those made: main called spin3
# and spin1 as often as profdemo says, in gprof's call graph and in
# prof's calls column; _start called main once.
calls=$(sed -n 's/^profdemo: \([0-9]*\) calls each of spin3 and spin1.*/\1/p' <<<"$out")
gprof -q -b o/bin/profdemo.prof "$T/pd.out" >"$T/gprofq.out" 2>&1
python3 - "$T/gprofq.out" "$T/guest.out" "$calls" <<'EOF' >"$T/compare"
import re, sys
lines = open(sys.argv[1]).read().split('\n')
n = int(sys.argv[3] or -1)
problems = []
# In gprof's entry for a function (the line "[i] ... name [i]"), its
# callers are the lines above it, "self children called/total name [j]".
def callers(name):
	for i, l in enumerate(lines):
		if re.match(r'\[\d+\] .* %s \[\d+\]$' % name, l):
			got = {}
			for p in lines[:i][::-1]:
				if p.startswith('---') or p.startswith('index'):
					break
				m = re.search(r'(\d+)/(\d+)\s+(\S+) \[\d+\]$', p)
				if m:
					got[m.group(3)] = (int(m.group(1)), int(m.group(2)))
			return got
	return None
for fn in ('spin3', 'spin1'):
	c = callers(fn)
	if c != {'main': (n, n)}:
		problems.append('gprof: %s called by %s, want main %d times' % (fn, c, n))
if callers('main') != {'_start': (1, 1)}:
	problems.append('gprof: main called by %s' % callers('main'))
calls = {}
for l in open(sys.argv[2]):
	f = l.rstrip('\n').split('\t')
	if len(f) == 4 and f[0].isdigit():
		calls[f[3]] = f[2]
for fn, want in (('spin3', n), ('spin1', n), ('main', 1)):
	if calls.get(fn) != str(want):
		problems.append('prof: %s calls %s, want %d' % (fn, calls.get(fn), want))
print('; '.join(problems) if problems else 'ok')
EOF
if [ "$(cat "$T/compare")" = ok ]; then ok gprof-call-counts; else bad gprof-call-counts "$(cat "$T/compare")"; fi

# arctest.prof's arcs, exactly: within the table, 100 arcs from walk to
# the functions f00-f77, 3 calls each, and main's two; past it, as many
# arcs as the table holds (GMON_NARCS in gmon.h), the rest of the calls
# counted as mcountoverflow's, and every call counted once.
narcs=$(sed -n 's/.*GMON_NARCS[ 	]*= \([0-9]*\),.*/\1/p' user/include/gmon.h)
nm o/test/arctest.prof >"$T/arctest.nm"
python3 - "$T/arctest.nm" "$T/arcs.out" "$T/full.out" "$narcs" <<'EOF' >"$T/compare"
import bisect, struct, sys
syms = sorted((int(a, 16), n) for a, t, n in (l.split() for l in open(sys.argv[1])) if t in 'tT')
addrs = [a for a, n in syms]
def fn(pc):
	return syms[bisect.bisect_right(addrs, pc) - 1][1]
def arcs(path):
	b = open(path, 'rb').read()
	off = 20 + 33 + 2 * struct.unpack_from('<I', b, 29)[0]
	out = []
	while off < len(b):
		assert b[off] == 1
		out.append(struct.unpack_from('<III', b, off + 1))
		off += 13
	return out
def check(path, n, rounds, table):
	a = arcs(path)
	p = []
	f = [x for x in a if fn(x[1]).startswith('f') and fn(x[0] - 1) == 'walk']
	lost = [x for x in a if fn(x[1]) == 'mcountoverflow']
	other = sorted((fn(x[0] - 1), fn(x[1]), x[2]) for x in a if x not in f and x not in lost)
	if other != [('_start', 'main', 1), ('main', 'walk', rounds)]:
		p.append('%s: other arcs %s' % (path, other))
	if len(set((x[0], x[1]) for x in f)) != len(f) or any(x[2] != rounds for x in f):
		p.append('%s: arcs to f repeat or have counts other than %d' % (path, rounds))
	if table:
		if len(a) != table + 1 or len(lost) != 1 or a[-1] != lost[0] or lost[0][0] != lost[0][1]:
			p.append('%s: %d records, want %d and the lost calls last' % (path, len(a), table + 1))
		elif lost[0][2] != (n - len(f)) * rounds:
			p.append('%s: %d calls lost, want %d' % (path, lost[0][2], (n - len(f)) * rounds))
	elif len(f) != n or lost:
		p.append('%s: %d arcs to f, %d lost records, want %d and none' % (path, len(f), len(lost), n))
	return p
p = check(sys.argv[2], 100, 3, 0) + check(sys.argv[3], 2560, 2, int(sys.argv[4]))
print('; '.join(p) if p else 'ok')
EOF
if [ "$(cat "$T/compare")" = ok ]; then ok arcs-exact; else bad arcs-exact "$(cat "$T/compare")"; fi
lost=$(( (2560 - (narcs - 2)) * 2 ))
has arcs-full-said-at-once "^mcount: arc table full \($narcs arcs\)"
has arcs-full-said-at-exit "^gmon.out: $lost calls on arcs"
section full >"$T/guest-full.out"
if grep -q "^prof: full.out: the arc table was full: $lost calls" "$T/guest-full.out" &&
   grep -q "^0	  0.0	$lost	mcountoverflow\$" "$T/guest-full.out" && grep -q '^prof status 0$' "$T/guest-full.out"; then
	ok arcs-full-prof
else
	bad arcs-full-prof "$(head -c 300 "$T/guest-full.out" | tr '\n' '|')"
fi
# The host's prof, both builds, says the same.
why=
for bin in "${hostbins[@]}"; do
	"$bin" o/test/arctest.prof "$T/full.out" >"$T/host-full.out" 2>"$T/host-full.err"
	if [ $? -ne 0 ] || ! grep -q "^0	  0.0	$lost	mcountoverflow\$" "$T/host-full.out" ||
	   [ "$(cat "$T/host-full.err")" != "prof: $T/full.out: the arc table was full: $lost calls along arcs it had no room for are counted as mcountoverflow's" ]; then
		why="${bin##*/}: $(head -c 300 "$T/host-full.err")"
		break
	fi
done
if [ -z "$why" ]; then ok arcs-full-host-prof; else bad arcs-full-host-prof "$why"; fi
check arcs-full-gprof grep -qE "^\[[0-9]+\] .* 0\+$lost +mcountoverflow \[" <(gprof -q -b o/test/arctest.prof "$T/full.out" 2>&1)

summary profcmd
