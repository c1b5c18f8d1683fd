#!/usr/bin/env bash
#
# Host unit tests for kprof (user/kprof.c, with user/lib/elfsym.c,
# kpdata.c and kpcmp.c).
# Builds o/host/kprof and a second copy with the address and
# undefined-behaviour sanitizers, makes small i386 kernels whose functions
# sit at known addresses and kpdata files with known counts, and checks
# each case's exact output and exit status under both builds.  Prints
# "ok NAME" or "FAIL NAME: reason" for each case, then a summary line;
# exits non-zero if any case failed.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

hostin kprof kprofcmd

# kernels: k1, from the standard input, and its damaged copies; k2, 16
# bytes before the first symbol, then f, 4 bins; and an x86-64 object.
kernels() {
	asm k1 0xc0100000 && [ "$(textof k1)" = "c0100000 000094" ] &&
	nopelf k2 0xc0100000 :16 f:16 &&
	strip --strip-all -o k1.stripped k1 &&
	echo 'int f(int x) { return x + 1; }' >x64.c && gcc -c -o x64.o x64.c &&
	head -c 100 k1 >k1.trunc
}

# Kernel k1: text at c0100000, 0x94 bytes, so 19 bins (the last half full).
#	start	c0100000	bins 0-1	untyped global label
#	f	c0100010	bins 2-9
#	g	c0100050	bins 10-13	20 bytes, then padding to c0100070
#	h	c0100070	bin 14
#	lbl	c0100078	bins 15-16	local label; lbl.inner inside it
#	idle	c0100088	bins 17-18	function; alias, a label, at the same place
fixtures kprofcmd "the test kernels" kernels <<'EOF'
	.text
	.globl	start
start:	.fill	16,1,0x90
	.globl	f
	.type	f,@function
f:	.fill	64,1,0x90
	.globl	g
	.type	g,@function
g:	.fill	20,1,0x90
	.p2align 4,0xcc
	.globl	h
	.type	h,@function
h:	.fill	8,1,0x90
lbl:	.fill	8,1,0x90
lbl.inner:
	.fill	8,1,0x90
	.globl	alias
alias:
	.globl	idle
	.type	idle,@function
idle:	.fill	12,1,0x90
EOF

# The offset of field off within section header n of an ELF32 file.
shfield() {
	python3 - "$@" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<I', b, 32)
shentsize, = struct.unpack_from('<H', b, 46)
print(shoff + int(sys.argv[2]) * shentsize + int(sys.argv[3]))
EOF
}


# The main profile: 1000 kernel ticks of 2000.  g's 25 ticks in bin 13
# (padding after g) go to g; lbl.inner's bin goes to lbl; alias and idle
# share an address and idle, the function, is named.
mkdata d1 2000 1000 19 0:10 1:50 2:100 5:200 10:50 12:25 13:25 14:30 15:20 16:20 17:400 18:70
# d1's rows, in ms at 1000 Hz and at 250.
d1rows=('470\t 47.0\tidle' '300\t 30.0\tf' '100\t 10.0\tg' '60\t  6.0\tstart' '40\t  4.0\tlbl' '30\t  3.0\th')
d1rows250=('1880\t 47.0\tidle' '1200\t 30.0\tf' '400\t 10.0\tg' '240\t  6.0\tstart' '160\t  4.0\tlbl' '120\t  3.0\th')
wantkprof 2000 1000 1000 "${d1rows[@]}"
expect attribution 0 -h 1000 k1 d1
expect hz-joined 0 -h1000 k1 d1

# With no -h and no kpctl (if this host has no /dev/kpctl), HZ is not
# guessed: the rows are in ticks, and the header says so.
if [ ! -e /dev/kpctl ]; then
	wantkprof 2000 1000 - "${d1rows[@]}"
	expect no-hz-ticks 0 k1 d1
fi

# HZ from the kpctl status file beside the data.
mkdir -p dev
cp d1 dev/kpdata
echo 'off hz 250 bin 8 text 0xc0100000 etext 0xc0100094' >dev/kpctl
wantkprof 2000 1000 250 "${d1rows250[@]}"
expect kpctl-hz 0 k1 dev/kpdata

# kpctl is checked against kprof's own: -h, the bin size, the text.
want '' 'kprof: -h 1000, but dev/kpctl says hz 250\n'
expect h-not-kpctl 1 -h 1000 k1 dev/kpdata
wantkprof 2000 1000 250 "${d1rows250[@]}"
expect h-as-kpctl 0 -h 250 k1 dev/kpdata
mkdir -p bin16 text etext
cp d1 bin16/kpdata
cp d1 text/kpdata
cp d1 etext/kpdata
echo 'off hz 250 bin 16 text 0xc0100000 etext 0xc0100094' >bin16/kpctl
echo 'off hz 250 bin 8 text 0xc0200000 etext 0xc0200094' >text/kpctl
echo 'off hz 250 bin 8 text 0xc0100000 etext 0xc0100098 cpus 2 cut 0' >etext/kpctl
want '' 'kprof: bin16/kpctl: bins of 16 bytes, but kprof'"'"'s are 8\n'
expect kpctl-bin 1 k1 bin16/kpdata
want '' 'kprof: text/kpctl: kernel text at 0xc0200000, but k1'"'"'s is at 0xc0100000: another kernel\n'
expect kpctl-text 1 k1 text/kpdata
want '' 'kprof: etext/kpctl: kernel text ends at 0xc0100098, but k1'"'"'s at 0xc0100094: another kernel\n'
expect kpctl-etext 1 k1 etext/kpdata
# A kpctl whose numbers are not numbers, or whose hz no clock runs at,
# is wrong, not silent: it used to leave HZ unknown, "no kpctl", or a
# text of 0xc0100000junk taken for kprof's; a key with no value too.
want '' 'kprof: lie1/kpctl: hz has no value\n'
mkdir -p lie1 lie2 lie3 lie4 lie5 lie6 lie7 lie8
for d in lie*; do cp d1 $d/kpdata; done
echo 'off hz' >lie1/kpctl
echo 'off hz 0 bin 8' >lie2/kpctl
echo 'off hz 2000000 bin 8' >lie3/kpctl
echo 'off hz 250x bin 8' >lie4/kpctl
echo 'off hz 250 bin 8 text 0xc0100000junk' >lie5/kpctl
echo 'off hz 250 bin 8 text 0xc0100000 etext -1' >lie6/kpctl
expect kpctl-no-value 1 k1 lie1/kpdata
want '' 'kprof: lie2/kpctl: hz 0 is not a clock rate (1 to 1000000)\n'
expect kpctl-hz-0 1 k1 lie2/kpdata
want '' 'kprof: lie3/kpctl: hz 2000000 is not a clock rate (1 to 1000000)\n'
expect kpctl-hz-huge 1 k1 lie3/kpdata
want '' "kprof: lie4/kpctl: hz \`250x' is not a number\n"
expect kpctl-hz-junk 1 k1 lie4/kpdata
want '' "kprof: lie5/kpctl: text \`0xc0100000junk' is not a number\n"
expect kpctl-text-junk 1 k1 lie5/kpdata
want '' "kprof: lie6/kpctl: etext \`-1' is not a number\n"
expect kpctl-etext-negative 1 k1 lie6/kpdata
# Decimal is decimal with a leading 0 too (bin 010 is ten, not octal
# eight), and hex wants its digits, fewer than 2^32.
echo 'off hz 250 bin 010 text 0xc0100000 etext 0xc0100094' >lie7/kpctl
echo 'off hz 250 bin 8 text 0x1c0100000 etext 0xc0100094' >lie8/kpctl
want '' 'kprof: lie7/kpctl: bins of 010 bytes, but kprof'"'"'s are 8\n'
expect kpctl-bin-not-octal 1 k1 lie7/kpdata
want '' "kprof: lie8/kpctl: text \`0x1c0100000' is not a number\n"
expect kpctl-text-over-32-bits 1 k1 lie8/kpdata

# Equal counts sort by name; percentages round to the nearest tenth.
mkdata d2 3 3 19 14:1 2:1 10:1
wantkprof 3 3 1000 '1\t 33.3\tf' '1\t 33.3\tg' '1\t 33.3\th'
expect ties-by-name 0 -h 1000 k1 d2

mkdata d3 3 3 19 2:2 17:1
wantkprof 3 3 1000 '2\t 66.7\tf' '1\t 33.3\tidle'
expect rounding 0 -h 1000 k1 d3

# Every tick in one function: 100.0; counts at their limit need 64 bits.
mkdata d4 0xffffffff 0xffffffff 19 18:0xffffffff
wantkprof 4294967295 4294967295 1 '4294967295000\t100.0\tidle'
expect saturated 0 -h 1 k1 d4

# No kernel ticks: the header only.
mkdata d5 5 0 19
wantkprof 5 0 100
expect no-kernel-ticks 0 -h 100 k1 d5

# Bins before the first symbol go to "text".
mkdata d6 10 10 4 0:3 1:4 2:2 3:1
wantkprof 10 10 100 '70\t 70.0\ttext' '30\t 30.0\tf'
expect before-first-symbol 0 -h 100 k2 d6

# Bad kernels.
want '' 'kprof: k1.stripped: no symbol table\n'
expect stripped 1 -h 100 k1.stripped d1
printf 'hello, world\n' >notelf
want '' 'kprof: notelf: not an ELF file\n'
expect not-elf 1 -h 100 notelf d1
: >empty
want '' 'kprof: empty: not an ELF file\n'
expect empty-kernel 1 -h 100 empty d1
want '' 'kprof: x64.o: not an i386 ELF file\n'
expect x86-64 1 -h 100 x64.o d1
want '' 'kprof: k1.trunc: corrupt ELF file (section headers)\n'
expect truncated-elf 1 -h 100 k1.trunc d1
head -c 40 k1 >k1.short
want '' 'kprof: k1.short: corrupt ELF file (file header)\n'
expect short-elf 1 -h 100 k1.short d1
cp k1 k1.shstrndx
poke k1.shstrndx 50 '<H' 99
want '' 'kprof: k1.shstrndx: corrupt ELF file (section names)\n'
expect bad-shstrndx 1 -h 100 k1.shstrndx d1
cp k1 k1.link
poke k1.link "$(shfield k1 2 24)" '<I' 77
want '' 'kprof: k1.link: corrupt ELF file (symbol string table)\n'
expect bad-strtab-link 1 -h 100 k1.link d1
cp k1 k1.strsize
poke k1.strsize "$(shfield k1 3 20)" '<I' 3
want '' 'kprof: k1.strsize: corrupt ELF file (symbol name)\n'
expect unterminated-name 1 -h 100 k1.strsize d1
cp k1 k1.symsize
poke k1.symsize "$(shfield k1 2 20)" '<I' 0x7ffffff0
want '' 'kprof: k1.symsize: corrupt ELF file (symbol table)\n'
expect huge-symtab 1 -h 100 k1.symsize d1
want '' 'kprof: nosuch: No such file or directory\n'
expect missing-kernel 1 -h 100 nosuch d1

# Bad data.
want '' 'kprof: empty: truncated at byte 0 of the 84 that kernel text'"'"'s 19 bins take (or of another kernel)\n'
expect empty-kpdata 1 -h 100 k1 empty
printf '\0\0\0\1' >four
want '' 'kprof: four: truncated at byte 4 of the 84 that kernel text'"'"'s 19 bins take (or of another kernel)\n'
expect four-byte-kpdata 1 -h 100 k1 four
head -c 10 d1 >ten
want '' 'kprof: ten: truncated at byte 10 of the 84 that kernel text'"'"'s 19 bins take (or of another kernel)\n'
expect odd-length-kpdata 1 -h 100 k1 ten
mkdata d18 0 0 18
want '' 'kprof: d18: truncated at byte 80 of the 84 that kernel text'"'"'s 19 bins take (or of another kernel)\n'
expect wrong-bin-count 1 -h 100 k1 d18
# One cell more is kprof's own cost (kprof(3)); two are too many.
mkdata d21 0 0 21
want '' 'kprof: d21: 92 bytes, more than the 84 of kernel text'"'"'s 19 bins\n'
expect too-many-bins 1 -h 100 k1 d21
want '' 'kprof: nosuch: No such file or directory\n'
expect missing-kpdata 1 -h 100 k1 nosuch

# Usage.
want '' "$kprofusage"
expect no-arguments 1
expect one-argument 1 k1
expect three-arguments 1 k1 d1 d1
expect bad-flag 1 -x k1 d1
expect h-without-value 1 -h
expect x-without-c 1 -x idle k1 d1
expect c-two-files 1 -c k1 d1
expect c-with-h 1 -c -h 100 k1 d1 d1
expect a-with-h 1 -h 100 -a f k1 d1
expect D-with-h 1 -h 100 -D k1 d1 d1
expect q-with-h 1 -h 100 -q k1 d1
want '' 'kprof: bad hz: 0\n'
expect zero-hz 1 -h 0 k1 d1
want '' 'kprof: bad hz: 10x\n'
expect bad-hz 1 -h 10x k1 d1
# One parser, kpdecimal, for -h and the files' counts: no sign, no
# blank, and no wrap however many digits.
want '' 'kprof: bad hz: +100\n'
expect signed-hz 1 -h +100 k1 d1
want '' 'kprof: bad hz: 1000001\n'
expect hz-over-million 1 -h 1000001 k1 d1
want '' 'kprof: bad hz: 18446744073709551716\n'
expect hz-wraps-to-100 1 -h 18446744073709551716 k1 d1

# -c: a sampled profile against an exact count.  Two functions, half
# each exactly, and 100 ticks that gave f 55: 5 points off, one standard
# error (sqrt(.5*.5/100) = 5 points).  For 100 ticks the distance is
# |X-50| points, X binomial(100, 1/2): its median is 3 (P(|X-50| <= 3)
# = 0.516) and its 95th percentile 10 (P(<= 9) = 0.943, P(<= 10) = 0.965).
mkdata ex1 10000 10000 19 2:5000 10:5000
mkdata sa1 100 100 19 2:55 10:45
want 'exact: 10000 in kernel text (ex1)
sampled: 100 ticks in kernel text (sa1)
sampled\texact\tdiff\tSEs\tsym
 55.00\t 50.00\t +5.00\t  +1.0\tf
 45.00\t 50.00\t -5.00\t  -1.0\tg
total variation: 5.00 points
sampling alone: median 3.00, 95th percentile 10.00 points (1000 simulated profiles of 100 ticks drawn from the exact shares)
'
expect compare 0 -c k1 ex1 sa1

# Functions left out on both sides (idle: a halted processor runs no
# instructions but takes ticks); a function with ticks and no exact
# count has no standard error; one with counts and no ticks is a row.
mkdata ex2 30000 30000 19 2:6000 10:3000 14:500 15:500 17:10000 18:10000
mkdata sa2 120 120 19 0:2 2:58 10:30 16:10 17:20
want 'exact: 10000 in kernel text (ex2)
sampled: 100 ticks in kernel text (sa2)
left out: idle
sampled\texact\tdiff\tSEs\tsym
 58.00\t 60.00\t -2.00\t  -0.4\tf
 30.00\t 30.00\t  0.00\t   0.0\tg
 10.00\t  5.00\t +5.00\t  +2.3\tlbl
  0.00\t  5.00\t -5.00\t  -2.3\th
  2.00\t  0.00\t +2.00\t     -\tstart
total variation: 7.00 points
sampling alone: median 5.00, 95th percentile 11.00 points (1000 simulated profiles of 100 ticks drawn from the exact shares)
'
expect compare-left-out 0 -c -x idle k1 ex2 sa2
expect compare-left-out-once 0 -c -x idle -x idle k1 ex2 sa2

# 30,000 ticks: the simulation's figures are the normal law's, 0.674
# and 1.960 standard errors of 0.289 points (0.195 and 0.566), within
# what 1000 draws can tell (0.03 points at the 95th percentile).
mkdata ex3 40000 40000 19 2:20000 10:20000
mkdata sa3 30000 30000 19 2:15000 10:15000
if "${hostbins[1]}" -c k1 ex3 sa3 >got.out 2>got.err &&
   python3 - got.out <<'EOF'
import re, sys
m = re.search(r'median ([0-9.]+), 95th percentile ([0-9.]+) points \(1000 simulated profiles of 30000 ticks', open(sys.argv[1]).read())
sys.exit(not (m and abs(float(m.group(1)) - 0.195) <= 0.02 and abs(float(m.group(2)) - 0.566) <= 0.06))
EOF
then
	ok compare-30000-ticks
else
	bad compare-30000-ticks "$(tail -1 got.out) $(cat got.err)"
fi

# Past 524,288 ticks the simulated profiles are of 524,288, and their
# distances scaled by the square root: 2^21 ticks, half each, have the
# normal law's 0.023 and 0.068 points; and a file of 84 bytes that says
# 2^32-2 ticks takes no longer (it took 100 draws a tick, hours).
mkdata sa6 0x200000 0x200000 19 2:0x100000 10:0x100000
mkdata sa7 0xfffffffe 0xfffffffe 19 2:0x7fffffff 10:0x7fffffff
for f in sa6 sa7; do
	for bin in "${hostbins[@]}"; do
		if timeout 20 "$bin" -c k1 ex3 $f >got.out 2>got.err &&
		   python3 - got.out $f <<'EOF2'
import re, sys
n = {'sa6': 2097152, 'sa7': 4294967294}[sys.argv[2]]
m = re.search(r'median ([0-9.]+), 95th percentile ([0-9.]+) points \(128 simulated profiles of 524288 ticks drawn from the exact shares, their distances scaled to %d ticks\)' % n, open(sys.argv[1]).read())
want = (0.023, 0.068) if n == 2097152 else (0.0, 0.0)
sys.exit(not (m and abs(float(m.group(1)) - want[0]) <= 0.01 and abs(float(m.group(2)) - want[1]) <= 0.02))
EOF2
		then
			ok "compare-scaled-$f-${bin##*/}"
		else
			bad "compare-scaled-$f-${bin##*/}" "$(tail -1 got.out) $(cat got.err)"
		fi
	done
done

mkdata ex4 0xffffffff 0xffffffff 19 2:0xffffffff
want '' 'kprof: ex4: the count of bin 2 (c0100010) has stopped at 2^32-1\n'
expect compare-saturated 1 -c k1 ex4 sa1
want '' 'kprof: d5: no counts in kernel text\n'
expect compare-no-exact 1 -c k1 d5 sa1
want '' 'kprof: ex1: no counts in kernel text outside the functions left out\n'
expect compare-nothing-left 1 -c -x f -x g k1 ex1 sa1
want '' 'kprof: -x nosuch: k1 has no such function\n'
expect compare-no-such-function 1 -c -x nosuch k1 ex1 sa1
want '' 'kprof: d18: truncated at byte 80 of the 84 that kernel text'"'"'s 19 bins take (or of another kernel)\n'
expect compare-wrong-bin-count 1 -c k1 ex1 d18

# Random damage to the kernel must give a profile or an error, never a
# crash or a sanitizer report.
python3 - <<'EOF'
import random
random.seed(4)
k = open('k1', 'rb').read()
for i in range(300):
	b = bytearray(k)
	for j in range(random.randint(1, 8)):
		off = random.choice([random.randrange(52), random.randrange(len(b))])
		if random.random() < 0.3:
			off = random.randrange(0x1094, len(b))
		b[off] = random.randrange(256)
	if random.random() < 0.2:
		b = b[:random.randrange(len(b))]
	open('fuzz%d' % i, 'wb').write(b)
EOF
survives fuzz-elf -h 100 {} d1

summary kprofcmd
