#!/usr/bin/env bash
#
# Tests of kprof's call stacks and source lines (user/lib/kpstack.c,
# user/lib/flame.c, tools/srcline.c) on the host, under the plain and
# the sanitizer builds: kprof -s against hand-made kpstack files, for a
# small kernel whose functions sit at known places and for o/kernel
# with pcs taken from its symbols now; the flame graph of kprof -g as
# XML (xmllint) and as a browser draws it (headless Chromium, whose
# screenshot must show the boxes); srcline against addr2line and the
# source; bad input of every kind, each a clear error.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

hostin kprof flame

# The kernel sk and its stacks s1 (host.bash).  Pcs in no function are
# named by their hex; paths of the same names merge, paths with no
# ticks go.
fixtures flame "the test kernel" sk
want '0xc0100004 2
0xc0100005;f 1
h 6
h;a<b&c_d_e;a<b&c_d_e 7
h;f;f 3
h;g;f 9
'
expect folded 0 -s sk s1
mkdata d1 28 28 14 0:28
expect folded-sum 0 -s sk s1 d1
mkdata d2 27 27 14 0:27
want '' 'kprof: s1: the stacks add up to 28 ticks, not the 27 ticks of d2\n'
expect folded-sum-differs 1 -s sk s1 d2

# Self and inclusive ticks (-i), by inclusive; callers and callees (-t).
want 'total: 28
self	  %%	incl	  %%	sym
6	 21.4	25	 89.3	h
13	 46.4	13	 46.4	f
0	  0.0	9	 32.1	g
7	 25.0	7	 25.0	a<b&c_d_e
2	  7.1	2	  7.1	0xc0100004
0	  0.0	1	  3.6	0xc0100005
'
expect inclusive 0 -i sk d1 s1
want '' 'kprof: s1: the stacks add up to 28 ticks, not the 27 ticks of d2\n'
expect inclusive-checks-sum 1 -i sk d2 s1
want 'ticks	  %%	callers, f, callees
	9	 69.2%%	    g
	3	 23.1%%	    h
	1	  7.7%%	    0xc0100005
13	 46.4%%	f (self 13, 46.4%% of all)
'
expect peek-leaf 0 -t f sk s1
want 'ticks	  %%	callers, h, callees
	25	100.0%%	    (none)
25	 89.3%%	h (self 6, 21.4%% of all)
	9	 36.0%%	    g
	7	 28.0%%	    a<b&c_d_e
	3	 12.0%%	    f
'
expect peek-root 0 -t h sk s1 d1
want '' 'kprof: nosuch: in no stack\n'
expect peek-no-such 1 -t nosuch sk s1

# User stacks, after the mark ffffffff: named by the program given
# with -u (sk again here), as addresses without it; the mark alone is
# the user ticks with no stack, [user].
printf '3 c0100061 ffffffff c0100012 c0100052\n2 ffffffff c0100012 c0100031 c0100052\n1 ffffffff\n' >u1
want '[user] 1
h;f;a<b&c_d_e 3
h;g;f 2
'
expect user-named 0 -s -u sk sk u1
want '0xc0100052;0xc0100012;a<b&c_d_e 3
0xc0100052;0xc0100031;0xc0100012 2
[user] 1
'
expect user-addresses 0 -s sk u1
mkdata du 6 3 14 0:3
expect user-sum 0 -s sk u1 du
printf '5 c0100012 ffffffff 00001000 ffffffff\n' >b
want '' 'kprof: b:1: two marks of the user stack (ffffffff)\n'
expect user-two-marks 1 -s sk b
want '' 'kprof: nosuch: No such file or directory\n'
expect user-no-program 1 -s -u nosuch sk u1
mkdata d3 40 28 13 0:28
want '' 'kprof: d3: truncated at byte 60 of the 64 that kernel text'"'"'s 14 bins take (or of another kernel)\n'
expect folded-kpdata-bins 1 -s sk s1 d3
# A kernel count stopped at 2^32-1 is less than the stacks' sum.
printf '4294967295 c0100012\n4294967295 c0100032\n' >sat
mkdata dsat 4294967295 4294967295 14 0:4294967295
want 'f 4294967295\ng 4294967295\n'
expect folded-saturated 0 -s sk sat dsat

# A kernel leaf is credited by its bin, as the flat profile credits
# it, so that self ticks are the flat rows: sb's g starts 4 bytes into
# bin 1, which is f's, and c010000d, in g, is counted in bin 1.
fixtures flame "the kernel sb" nopelf sb 0xc0100000 f:12 g:20
printf '3 c010000d\n2 c0100011 c010000a\n' >sbs
mkdata sbd 5 5 4 1:3 2:2
wantkprof 5 5 - '3\t 60.0\tf' '2\t 40.0\tg'
expect leaf-bin-flat 0 sb sbd
want 'f 3\nf;g 2\n'
expect leaf-bin-folded 0 -s sb sbs sbd
want 'total: 5\nself\t  %%\tincl\t  %%\tsym\n3\t 60.0\t5\t100.0\tf\n2\t 40.0\t2\t 40.0\tg\n'
expect leaf-bin-self 0 -i sb sbd sbs

# o/kernel, with pcs a few bytes into functions its symbols name now.
missing=
for f in alltraps trap syscall sysread devread memmove lock idle; do
	[ -n "$(sym $f)" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
	cat >s2 <<EOF
10 $(at memmove 2) $(at devread 9) $(at sysread 5) $(at syscall 5) $(at trap 5) $(at alltraps 5)
5 $(at memmove 4) $(at devread 10) $(at sysread 5) $(at syscall 5) $(at trap 5) $(at alltraps 5)
3 $(at lock 4) $(at sysread 16) $(at syscall 5) $(at trap 5) $(at alltraps 5)
7 $(at idle 2)
EOF
	want 'alltraps;trap;syscall;sysread;devread;memmove 15
alltraps;trap;syscall;sysread;lock 3
idle 7
'
	expect kernel-folded 0 -s "$kernel" s2
else
	bad kernel-folded "o/kernel has none of:$missing"
fi

# The flame graph: well-formed, a box for each frame with its name,
# ticks and share on hover, and names made safe for XML.
"${hostbins[0]}" -g sk s1 >s1.svg 2>s1.err
check svg-status [ $? = 0 -a ! -s s1.err ]
check svg-xmllint xmllint --noout s1.svg
check svg-root-box grep -q '<title>all: 28 ticks, 100.0%</title>' s1.svg
check svg-merged-box grep -q '<title>h: 25 ticks, 89.3%</title>' s1.svg
check svg-escaped grep -q '<title>a&lt;b&amp;c;d e: 7 ticks, 25.0%</title>' s1.svg
check svg-box-count [ "$(grep -c '^<g><title>' s1.svg)" = 11 ]
check svg-no-script [ "$(grep -ciE '<script|href=|@import|url\(' s1.svg)" = 0 ]
"${hostbins[1]}" -g sk s1 >s1san.svg 2>s1.err
check svg-san-same cmp -s s1.svg s1san.svg
"${hostbins[0]}" -g "$kernel" s2 >s2.svg
check svg-kernel-xmllint xmllint --noout s2.svg

# A browser draws it: the screenshot has the flame colours (red, 205
# and up; blue, 55 and under) over a good part of it, in many shades.
shot() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/chrome" --screenshot="$2" --window-size=1200,"$3" "file://$T/$1" >chrome.log 2>&1
}
pngcheck() {
	python3 - "$1" <<'EOF'
import collections, sys
from fixtures import pngrows
w, h, bpp, rows = pngrows(open(sys.argv[1], 'rb').read())
# Each colour's pixels counted by Counter and zip, not a loop of Python.
n = collections.Counter()
for line in rows:
	n.update(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
shades = [(r, g, bl) for r, g, bl in n if r >= 205 and bl <= 55 and g <= 230]
flame = sum(n[c] for c in shades)
print('%d of %d pixels flame-coloured, %d shades' % (flame, w * h, len(shades)))
sys.exit(not (flame >= w * h // 10 and len(shades) >= 5))
EOF
}
if shot s1.svg s1.png 180 && [ -s s1.png ]; then
	check browser-draws pngcheck s1.png
else
	bad browser-draws "chromium made no screenshot: $(tail -2 chrome.log)"
fi

# Bad kpstack files: each a clear error, and nothing printed on stdout.
bad1() {
	local name=$1 msg=$2
	shift 2
	want '' "$msg"
	expect "$name" 1 -s sk "$@"
}
# A file cut short, here inside a pc, says so, not that the pc is bad.
printf '5 c0100012\n3 c01' >b
bad1 truncated "kprof: b: truncated at byte 16: the last line has no newline\n" b
# A binary file, such as a kpdata where the kpstack belongs.
printf '\0\0\0\5\0\0\0\3' >b
bad1 binary "kprof: b: not a kpstack: a NUL byte at offset 0\n" b
printf '5 c0100012\n3 c0100012 xyz\n' >b
bad1 bad-pc "kprof: b:2: pc \`xyz' is not a hex number\n" b
printf '5 c0100012\n5x c0100012\n' >b
bad1 bad-count "kprof: b:2: count \`5x' is not a decimal number\n" b
printf -- '-5 c0100012\n' >b
bad1 negative-count "kprof: b:1: count \`-5' is not a decimal number\n" b
printf '4294967296 c0100012\n' >b
bad1 count-too-big "kprof: b:1: count \`4294967296' is more than 2^32-1\n" b
printf '99999999999999999999999999 c0100012\n' >b
bad1 count-huge "kprof: b:1: count \`999999999999999999999999...' is more than 2^32-1\n" b
printf '18446744073709551621 c0100012\n' >b
bad1 count-wraps-to-5 "kprof: b:1: count \`18446744073709551621' is more than 2^32-1\n" b
printf '99999999999999999999999x c0100012\n' >b
bad1 count-huge-junk "kprof: b:1: count \`99999999999999999999999x' is not a decimal number\n" b
printf '5\n' >b
bad1 no-pcs 'kprof: b:1: a count and no pcs\n' b
printf '5 c0100012\n\n5 c0100012\n' >b
bad1 empty-line "kprof: b:2: an empty line, not \`count pc ...'\n" b
: >b
bad1 empty-file 'kprof: b: no stacks: the file is empty\n' b
printf '5 0c0100012\n' >b
bad1 pc-too-long "kprof: b:1: pc \`0c0100012' is longer than 8 hex digits\n" b
printf '5 0x\n' >b
bad1 pc-bare-0x "kprof: b:1: pc \`0x' is not a hex number\n" b
printf '5 c0100070\n' >b
bad1 leaf-at-etext 'kprof: b:1: pc c0100070 is outside kernel text (c0100000 to c0100070)\n' b
printf '5 bfffffff\n' >b
bad1 leaf-below-text 'kprof: b:1: pc bfffffff is outside kernel text (c0100000 to c0100070)\n' b
printf '5 c0100012 c0100000\n' >b
bad1 caller-at-text 'kprof: b:1: pc c0100000 is outside kernel text (c0100000 to c0100070)\n' b
printf '5 c0100012 0\n' >b
bad1 caller-zero 'kprof: b:1: pc 00000000 is outside kernel text (c0100000 to c0100070)\n' b
printf '5 c0100012 c0100071\n' >b
bad1 caller-past-etext 'kprof: b:1: pc c0100071 is outside kernel text (c0100000 to c0100070)\n' b
printf '5 c01000\0 c0100012\n' >b
bad1 nul-byte "kprof: b:1: pc \`c01000?' is not a hex number\n" b
python3 -c "print('5' + ' c0100012' * 49); print('5' + ' c0100012' * 50)" >b
bad1 too-many-frames 'kprof: b:2: more than 49 frames\n' b
python3 -c "print('5 ' + 'c' * 20000000)" >b
bad1 huge-word "kprof: b:1: pc \`cccccccccccccccccccccccc...' is longer than 8 hex digits\n" b
python3 -c "print('5' + ' c0100012' * 2000000)" >b
bad1 huge-line 'kprof: b:1: more than 49 frames\n' b
want '' 'kprof: nosuch: No such file or directory\n'
expect missing-kpstack 1 -s sk nosuch
printf '0 c0100012\n' >z
want '' 'kprof: z: no ticks to draw\n'
expect svg-no-ticks 1 -g sk z
want ''
expect folded-no-ticks 0 -s sk z
want '' "$kprofusage"
expect usage-s-one-file 1 -s sk
expect usage-s-four-files 1 -s sk b d1 d1
expect usage-s-and-g 1 -s -g sk b
expect usage-s-with-h 1 -s -h 100 sk b

# Many stacks take time in proportion: 20,000 lines of 32 frames, all
# distinct, from 2,000 functions whose names share 60-byte prefixes.
python3 - <<'EOF'
import random
from fixtures import elf
random.seed(11)
N = 2000
elf('big', 16 * N, [(1 + 65 * i, 0xc0100000 + 16 * i) for i in range(N)],
    b'\0' + b''.join(b'%s%04d\0' % (b'n' * 60, i) for i in range(N)), symsize=16)
with open('big.kp', 'w') as f:
	for i in range(20000):
		f.write('1 ' + ' '.join('%x' % (0xc0100001 + 16 * random.randrange(N)) for j in range(32)) + '\n')
EOF
for bin in "${hostbins[@]}"; do
	start=$(date +%s)
	timeout 60 "$bin" -s big big.kp >big.out 2>big.err
	st=$?
	check "many-stacks-${bin##*/}" [ $st = 0 -a "$(wc -l <big.out)" = 20000 -a ! -s big.err ]
	echo "${bin##*/}: 20,000 stacks of 32 frames folded in $(($(date +%s) - start)) s"
done
timeout 60 "${hostbins[0]}" -g big big.kp >big.svg 2>big.err
check many-stacks-svg [ $? = 0 ] && xmllint --noout big.svg

# srcline: the source line of a bin, as addr2line says, with its text.
hostin srcline flame
lk=$(sym lock)
ldata() {
	python3 - "$kernel" "$@" <<'EOF'
import struct, subprocess, sys
out = subprocess.run(['readelf', '-SW', sys.argv[1]], capture_output=True, text=True).stdout
size = next(int(l.split()[l.split().index('PROGBITS') + 3], 16) for l in out.splitlines() if ' .text ' in l)
nb = (size + 7) // 8
c = [0] * nb
for a in sys.argv[3:]:
	addr, n = a.split(':')
	c[(int(addr, 16) - 0xc0100000) // 8] += int(n)
open(sys.argv[2], 'wb').write(struct.pack('>%dI' % (nb + 2), 100, sum(c), *c))
EOF
}
alltraps8=$(printf '%08x' $(((16#$(sym alltraps) + 7) / 8 * 8)))
ldata l1 "$(at lock 8):30" "$alltraps8:10"
loc=$(addr2line -e "$kernel" "0x$(at lock 8)" | sed "s|^$top/||; s/ (discriminator.*//")
file=${loc%%:*}
line=${loc##*:}
text=$(sed -n "${line}p" "$top/$file" | sed 's/^[ 	]*//')
cd "$top" || exit 1
"${hostbins[1]}" -h 100 o/kernel "$T/l1" >"$T/l1.out" 2>"$T/l1.err"
st=$?
cd "$T" || exit 1
check lines-status [ $st = 0 -a ! -s l1.err ]
check lines-header grep -qx 'ms	  %	sym	line' l1.out
check lines-lock grep -qxF "300	 75.0	lock	$file:$line	$text" l1.out
check lines-assembly grep -qxF '100	 25.0	alltraps	-	(no line table: assembly)' l1.out
"${hostbins[1]}" -h 100 "$kernel" l1 >l2.out 2>l2.err
check lines-missing-source grep -qxF "300	 75.0	lock	$file:$line	(source missing)" l2.out
check lines-missing-said grep -qxF "srcline: $file: No such file or directory; its lines are shown without their text" l2.err
mkdata dsk 10 10 14 0:10
want '' 'srcline: sk: no DWARF line table (no DWARF information): build the kernel with -g\n'
expect lines-no-dwarf 1 -h 100 sk dsk
# A line table cut to 10 bytes: every row was "assembly", with status 0.
python3 - "$kernel" cutline <<'EOF2'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<I', b, 32)
shnum, shstrndx = struct.unpack_from('<HH', b, 48)
stroff, = struct.unpack_from('<I', b, shoff + 40*shstrndx + 16)
for i in range(shnum):
    name, = struct.unpack_from('<I', b, shoff + 40*i)
    if b[stroff + name:stroff + name + 12] == b'.debug_line\0':
        struct.pack_into('<I', b, shoff + 40*i + 20, 10)
open(sys.argv[2], 'wb').write(b)
EOF2
want '' 'srcline: cutline: no DWARF line table that can be read: build the kernel with -g\n'
expect lines-cut-dwarf 1 -h 100 cutline l1
want '' 'usage: srcline [-h hz] kernel kpdata\n'
expect srcline-usage 1 sk
expect srcline-bad-flag 1 -l sk dsk
want '' 'srcline: bad hz: 0\n'
expect srcline-bad-hz 1 -h 0 sk dsk
# A line number past 2^31-1, which libdw's int shows negative: an
# error, where it used to be printed as line -294967296.
printf '\t.file 1 "x.c"\n\t.text\n\t.globl f\nf:\n\t.loc 1 4000000000\n\tnop\n\t.loc 1 2\n\tnop\n' >dl.s
gcc -m32 -g -c -o dl.o dl.s && ld -m elf_i386 -Ttext=0xc0100000 -e 0xc0100000 -o dl dl.o
mkdata dl.kp 1 1 1 0:1
want '' 'srcline: dl: DWARF line 4000000000 at c0100000 is past 2^31-1\n'
expect srcline-line-past-int 1 dl dl.kp
# A source file that is not a regular file is not read: DWARF that
# names /dev/zero, which never ends (read until memory ran out), or a
# FIFO, whose open waits for a writer (for ever): dz (host.bash).
dz
want 'total: 2\tin kernel text: 2\toutside kernel text: 0\nKTZERO c0100000\tHZ 100\nms\t  %%\tsym\tline
10\t 50.0\tf\t/dev/zero:1\t(source missing)\n10\t 50.0\tf\tfifo:1\t(source missing)\n' \
	'srcline: /dev/zero: not a regular file; its lines are shown without their text
srcline: fifo: not a regular file; its lines are shown without their text\n'
expect srcline-not-regular 0 -h 100 dz dz.kp

# Damaged DWARF gives lines, or none, or an error: never a crash.  A
# tick in every bin looks every address up.
python3 - "$kernel" <<'EOF'
import random, struct, sys
random.seed(7)
k = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<I', k, 32)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', k, 46)
sh = [struct.unpack_from('<IIIIII', k, shoff + i * shentsize) for i in range(shnum)]
secs = {k[sh[shstrndx][4] + s[0]:k.index(b'\0', sh[shstrndx][4] + s[0])]: s for s in sh}
nb = (secs[b'.text'][5] + 7) // 8
open('every', 'wb').write(struct.pack('>%dI' % (nb + 2), nb, nb, *[1] * nb))
for i in range(60):
	b = bytearray(k)
	name = random.choice([n for n in secs if n.startswith(b'.debug_')])
	off, size = secs[name][4], secs[name][5]
	for j in range(random.randint(1, 10)):
		b[off + random.randrange(size)] = random.randrange(256)
	open('fuzz%d' % i, 'wb').write(b)
EOF
survives fuzz-dwarf -h 100 {} every

# One boot, end to end: tools/profile runs runtest on 1 CPU, for 0.5 s
# (30-odd stacks under main's system calls, of the 5 wanted).  The
# commands stop kprof themselves and fold the real /dev/kpstack in the
# guest, which must print what the host's kprof -s makes of the same
# kpstack brought home.  With -x, and a second boot under the plugin:
# its compare.txt leaves out idle and the NMI's path (tools/nmipath),
# which takes no ticks; left in, profdemo's profile at hz=10000 on 2
# CPUs read 45.3 points from the exact count against sampling's 95th
# percentile of 33.8, and 32.7 without it.
"$top/tools/profile" -x -p 1 'runtest 0.5
echo stop > /dev/kpctl
kprof -s -u /bin/runtest kernel /dev/kpstack /dev/kpdata
echo guest-s $status' "$T/prof" >prof.out 2>&1
st=$?
check profile-status [ $st = 0 -a "$(tail -1 prof.out)" = "$T/prof" ]
missing=
for f in console.txt kpctl kpdata kpstack profile.txt lines.txt stacks.txt flame.svg; do
	[ -s "prof/$f" ] || missing="$missing $f"
done
check profile-files [ -z "$missing" ]
check profile-flat grep -qx 'KTZERO c0100000	HZ 100' prof/profile.txt
check profile-lines grep -qE '^[0-9]+	 *[0-9]+\.[0-9]	[a-z_.0-9]+	kern/[a-z]+\.[ch]:[0-9]+	.' prof/lines.txt
check profile-svg xmllint --noout prof/flame.svg
sum=$(awk '{ s += $NF } END { print s }' prof/stacks.txt)
cell0=$(python3 -c "import struct; print(struct.unpack('>2I', open('prof/kpdata', 'rb').read(8))[0])")
check profile-stacks-sum [ -n "$sum" -a "$sum" = "$cell0" ]
check profile-stacks-root [ "$(grep -c '^_start;main;.*;alltraps;trap;syscall;' prof/stacks.txt)" -gt 5 ]
echo "flame: $(grep -c "^_start;main;.*;alltraps;trap;syscall;" prof/stacks.txt) stacks under main's system calls"
sed -n '/^runtest: /,/^guest-s /p' prof/console.txt | sed '1d;$d' >guest.s
check guest-s-status grep -qx 'guest-s 0' prof/console.txt
check guest-s-same-as-host cmp -s guest.s prof/stacks.txt
want="left out: $({ echo idle; grep -v '^#' "$top/tools/nmipath"; } | LC_ALL=C sort | paste -sd ' ')"
check profile-exact-leaves-out-nmi grep -qx "$want" prof/exact/compare.txt

summary flame
