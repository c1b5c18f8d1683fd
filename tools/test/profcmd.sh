#!/usr/bin/env bash
#
# Host tests for prof (user/prof.c, with user/lib/elfsym.c) and the
# gmon.out that profiled programs write (user/lib/gmon.c).
#
# Builds o/host/prof and a copy with the address and undefined-behaviour
# sanitizers, and checks their exact output and exit status on a small
# i386 program with functions at known addresses and gmon.out files
# made to order: good ones, and truncated, foreign, wrong-version and
# empty ones.  Then boots the kernel at hz=10000 to run profdemo.prof,
# whose work is split 3:1 between spin3 and spin1, brings its gmon.out
# out through /dev/eia1, and checks that prof in the guest, prof on the
# host and GNU gprof agree on it, and on the split.
#
# Prints "ok NAME" or "FAIL NAME: reason" for each case, then a summary
# line; exits non-zero if any case failed.

cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tools/test/lib.bash

hostbuild prof profcmd

cd "$T" || exit 1

# Program p1: text at 0x1000, 0x40 bytes.
#	f	1000	16 bytes
#	g	1010	16 bytes
#	h	1020	32 bytes
cat >p1.s <<'EOF'
	.text
	.globl	f
	.type	f,@function
f:	.fill	16,1,0x90
	.globl	g
	.type	g,@function
g:	.fill	16,1,0x90
	.globl	h
	.type	h,@function
h:	.fill	32,1,0x90
EOF

if gcc -m32 -c -o p1.o p1.s && ld -m elf_i386 -Ttext=0x1000 -e 0x1000 -o p1 p1.o &&
   readelf -S p1 | grep -q ' \.text  *PROGBITS  *00001000 [0-9a-f]* 000040 '; then
	ok fixtures
else
	bad fixtures "could not build the test program"
	summary profcmd
	exit 1
fi

# mkgmon file low high nbins hz [bin:count ...]: a gmon.out as gmon.c
# writes it.
mkgmon() {
	python3 - "$@" <<'EOF'
import struct, sys
path, low, high, n, hz = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), int(sys.argv[4]), int(sys.argv[5])
cnt = [0] * n
for a in sys.argv[6:]:
	i, c = a.split(':')
	cnt[int(i)] += int(c, 0)
b = b'gmon' + struct.pack('<I', 1) + bytes(12)
b += bytes([0]) + struct.pack('<IIII', low, high, n, hz) + b'seconds'.ljust(15, b'\0') + b's'
b += b''.join(struct.pack('<H', c) for c in cnt)
open(path, 'wb').write(b)
EOF
}


# gprofpct program gmon name: gprof's % time for the function name.
gprofpct() {
	gprof -p -b "$1" "$2" 2>/dev/null | awk -v n="$3" '$NF == n && NF >= 4 { print $1; exit }'
}

# The main profile: 4-byte bins, 100 ticks at 1000 Hz.
mkgmon g1 0x1000 0x1040 16 1000 0:10 2:20 5:50 8:15 15:5
want 'total: 100
TEXT 00001000\tHZ 1000
ms\t  %%\tsym
50\t 50.0\tg
30\t 30.0\tf
20\t 20.0\th
'
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
want 'total: 10
TEXT 00001000\tHZ 100
ms\t  %%\tsym
50\t 50.0\th
30\t 30.0\tf
20\t 20.0\tg
'
expect wide-bins 0 p1 g2

# A histogram over part of the text.
mkgmon g3 0x1010 0x1020 4 1000 0:1 3:2
want 'total: 3
TEXT 00001010\tHZ 1000
ms\t  %%\tsym
3\t100.0\tg
'
expect part-of-text 0 p1 g3

# Counters at their limit; percentages round to the nearest tenth.
mkgmon g4 0x1000 0x1040 16 1 0:0xffff 4:0xffff 8:0xffff
want 'total: 196605
TEXT 00001000\tHZ 1
ms\t  %%\tsym
65535000\t 33.3\tf
65535000\t 33.3\tg
65535000\t 33.3\th
'
expect saturated 0 p1 g4

# No ticks: the header only.
mkgmon g5 0x1000 0x1040 16 100
want 'total: 0
TEXT 00001000\tHZ 100
ms\t  %%\tsym
'
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
want '' 'prof: extra: data after the histogram\n'
expect trailing-data 1 p1 extra
cp g1 tag
poke tag 20 '<B' 1
want '' 'prof: tag: unsupported record, tag 1\n'
expect call-graph-tag 1 p1 tag
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

# Bad programs.
want '' 'prof: nosuch: No such file or directory\n'
expect missing-program 1 nosuch g1
want '' 'prof: g1: not an ELF file\n'
expect not-elf 1 g1 g1
strip --strip-all -o p1.stripped p1
want '' 'prof: p1.stripped: no symbol table\n'
expect stripped 1 p1.stripped g1

# Usage.
want '' 'usage: prof program [gmon.out]\n'
expect no-arguments 1
expect three-arguments 1 p1 g1 g1
expect flag 1 -x p1

# Random damage to gmon.out must give a profile or an error, never a
# crash or a sanitizer report.
python3 - <<'EOF'
import random
random.seed(7)
g = open('g1', 'rb').read()
for i in range(200):
	b = bytearray(g)
	for j in range(random.randint(1, 6)):
		b[random.randrange(len(b))] = random.randrange(256)
	if random.random() < 0.3:
		b = b[:random.randrange(len(b) + 1)]
	open('fuzz%d' % i, 'wb').write(b)
EOF
why=
for f in fuzz*; do
	"${hostbins[1]}" p1 "$f" >/dev/null 2>got.err
	st=$?
	if [ "$st" -gt 1 ] || grep -q -e Sanitizer -e 'runtime error' got.err; then
		why="$f: exit status $st: $(head -3 got.err | tr '\n' '|')"
		break
	fi
done
if [ -z "$why" ]; then
	ok fuzz-gmon
else
	bad fuzz-gmon "$why"
fi

# In the guest: profdemo.prof for 2 s at 10000 Hz is 20000 ticks.
cd "$top" || exit 1
guest -d -a hz=10000 -o "$T/eia1" -t 120 \
	-c 'cd /tmp; /bin/profdemo.prof 2; cat gmon.out > /dev/eia1; prof /bin/profdemo.prof gmon.out'
if [ "$st" -ne 0 ]; then
	bad guest-run "run-qemu.sh exit status $st: $(tail -5 <<<"$out" | tr '\n' '|')"
	summary profcmd
	exit 1
fi

# The guest's prof output: from its "total:" line to the end, without
# the carriage returns of the console.
sed -n '/^total: /,$p' <<<"$out" >"$T/guest.out"
"${hostbins[0]}" o/bin/profdemo.prof "$T/eia1" >"$T/host.out" 2>"$T/host.err"
if [ $? -ne 0 ]; then
	bad host-prof "$(head -c 300 "$T/host.err")"
elif ! cmp -s "$T/guest.out" "$T/host.out"; then
	bad host-prof "guest and host prof differ: $(diff "$T/guest.out" "$T/host.out" | head -5 | tr '\n' '|')"
else
	ok host-prof
fi

# prof's and gprof's top function and shares, and the split.
gprof -p -b o/bin/profdemo.prof "$T/eia1" >"$T/gprof.out" 2>"$T/gprof.err"
python3 - "$T/host.out" "$T/gprof.out" <<'EOF' >"$T/compare"
import sys
prof = {}
total = 0
for line in open(sys.argv[1]):
	f = line.split()
	if line.startswith('total: '):
		total = int(f[1])
	elif len(f) == 3 and f[0].isdigit():
		prof.setdefault(f[2], float(f[1]))
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

summary profcmd
