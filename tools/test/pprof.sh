#!/usr/bin/env bash
#
# Tests of kprof -p, the kernel profile in pprof's format (tools/pprof.c,
# tools/kpprof.c), under the plain and the sanitizer builds: go tool
# pprof reads what it writes, and its -top and -traces give kprof's own
# counts, function by function and stack by stack; the kernel's DWARF
# names the files and lines; bad input is a clear error.  prof -p the
# same, of a user program's gmon.out.  tools/test/profile.sh checks the
# kernel.pb.gz that tools/profile writes.

cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tools/test/lib.bash

hostbuild kprof pprof
kernel=$top/o/kernel
ppread=$top/tools/test/ppread.py
export HOME=$T PPROF_TMPDIR=$T
cd "$T" || exit 1
if ! command -v go >/dev/null; then
	bad go-tool-pprof "no go: tools/install-deps installs golang-go"
	summary pprof
	exit 1
fi

# pp KIND PB: what go tool pprof says of PB, in ppread's form.
pp() {
	local flag=-$1
	go tool pprof -symbolize=none -sample_index=samples -nodecount=1000000 \
		-nodefraction=0 -edgefraction=0 "$flag" "$2" >"$2.$1" 2>"$2.err" &&
		python3 "$ppread" "$1" "$2.$1"
}
# same NAME A B: files A and B are the same.
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else bad "$1" "$(diff "$2" "$3" | head -6 | tr '\n' '|')"; fi
}
# both NAME ARGS: run both builds of kprof with ARGS into NAME.pb.gz and
# NAME-san.pb.gz; they must exit 0, say nothing, and write the same.
both() {
	local name=$1
	shift
	"${hostbins[0]}" "$@" >"$name.pb.gz" 2>"$name.err" && [ ! -s "$name.err" ] &&
	"${hostbins[1]}" "$@" >"$name-san.pb.gz" 2>"$name.err" && [ ! -s "$name.err" ] &&
	cmp -s "$name.pb.gz" "$name-san.pb.gz"
}

# Kernel sk, as in flame.sh: 16 bytes before any symbol, then f, g, h,
# and a function whose name holds what folded stacks can't.
cat >sk.s <<'EOF'
	.text
	.fill	16,1,0x90
	.globl	f
	.type	f,@function
f:	.fill	32,1,0x90
	.globl	g
	.type	g,@function
g:	.fill	32,1,0x90
	.globl	h
	.type	h,@function
h:	.fill	16,1,0x90
	.globl	"a<b&c;d e"
	.type	"a<b&c;d e",@function
"a<b&c;d e":
	.fill	16,1,0x90
EOF
if gcc -m32 -c -o sk.o sk.s && ld -m elf_i386 -Ttext=0xc0100000 -e 0xc0100000 -o sk sk.o; then
	ok fixtures
else
	bad fixtures "could not build the test kernel"
	summary pprof
	exit 1
fi
# mkdata FILE TOTAL COUNT...: a kpdata whose bins hold the counts.
mkdata() {
	python3 - "$@" <<'EOF'
import struct, sys
path, total, counts = sys.argv[1], int(sys.argv[2]), [int(c) for c in sys.argv[3:]]
open(path, 'wb').write(struct.pack('>%dI' % (len(counts) + 2), total, sum(counts), *counts))
EOF
}
# 14 bins: 2 before f, 4 of f, 4 of g, 2 of h, 2 of the odd name.
mkdata d1 40 1 0 5 0 0 2 3 0 0 4 6 0 7 0

# The flat profile: a sample for each busy bin.
if both flat -p -h 1000 sk d1; then
	ok flat-writes
	"${hostbins[0]}" -h 1000 sk d1 >flat.txt
	python3 "$ppread" flat flat.txt >want.top
	pp top flat.pb.gz >got.top
	same flat-top want.top got.top
	check flat-gzip sh -c 'gzip -t flat.pb.gz'
	go tool pprof -raw flat.pb.gz >flat.raw 2>&1
	check flat-types grep -q '^samples/count cpu/nanoseconds$' flat.raw
	check flat-period grep -q '^Period: 1000000$' flat.raw
	check flat-ticks-comment grep -q '^Comment: ticks: 40, in kernel text 28, outside kernel text 12$' flat.raw
	check flat-clock-comment grep -q '^Comment: clock: .*, HZ 1000$' flat.raw
	check flat-nanoseconds grep -q '^ *7    7000000: ' flat.raw
else
	bad flat-writes "$(cat flat.err)"
fi

# Stacks: a sample for each folded stack, as kprof -s prints them.
cat >s1 <<'EOF'
5 c0100012 c0100031 c0100052
3 0xc0100014 0xC0100030 c0100052
4	c0100013  c0100032	c0100053
2 c0100004
1 c0100012 c0100005
7 c0100061 c0100070 c0100051
6 c0100051
EOF
mkdata d2 28 28 0 0 0 0 0 0 0 0 0 0 0 0 0
"${hostbins[0]}" -s sk s1 >s1.folded
if both stacks -p -h 1000 sk d2 s1; then
	ok stacks-writes
	sort s1.folded >want.traces
	pp traces stacks.pb.gz >got.traces
	same stacks-traces want.traces got.traces
	python3 "$ppread" leaves s1.folded >want.top
	pp top stacks.pb.gz >got.top
	same stacks-top want.top got.top
else
	bad stacks-writes "$(cat stacks.err)"
fi

# o/kernel: the functions and lines are its DWARF's, as addr2line has them.
sym() {
	nm "$kernel" | awk -v n="$1" '$3 == n { print $1 }' | head -1
}
lock=$(sym lock)
read -r textbase textsize < <(readelf -SW "$kernel" |
	sed -n 's/.* \.text  *PROGBITS  *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p')
nbins=$(( (16#$textsize + 7) / 8 ))
bin=$(( (16#$lock - 16#$textbase) / 8 + 1 ))
python3 - kd "$nbins" "$bin" <<'EOF'
import struct, sys
path, n, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = [0] * n
c[b] = 9
open(path, 'wb').write(struct.pack('>%dI' % (n + 2), 9, 9, *c))
EOF
pc=$(printf '%x' $(( 16#$textbase + bin*8 )))
line=$(addr2line -e "$kernel" "$pc" | sed 's,.*/\(kern/\),\1,; s/ .*//')
if both kernel -p -h 100 "$kernel" kd; then
	go tool pprof -symbolize=none -sample_index=samples -top -lines kernel.pb.gz >kernel.lines 2>&1
	check kernel-line grep -q " lock $line\$" kernel.lines
	go tool pprof -symbolize=none -list='^lock$' kernel.pb.gz >kernel.list 2>&1
	check kernel-function-file grep -q "^ROUTINE ======================== lock in kern/lock.c" kernel.list
else
	bad kernel-writes "$(cat kernel.err)"
fi
# Its stacks: files and lines are strings added as the frames are.
at() {
	printf '%08x' $((16#$(sym "$1") + $2))
}
echo "9 $(at lock 4) $(at syscall 5) $(at trap 5) $(at alltraps 5)" >ks
"${hostbins[0]}" -s "$kernel" ks >ks.folded
if both kstacks -p -h 100 "$kernel" kd ks; then
	pp traces kstacks.pb.gz >got.traces
	same kernel-stacks-traces ks.folded got.traces
else
	bad kernel-stacks-traces "$(cat kstacks.err)"
fi

# Bad input: a clear message, nothing written.
want '' 'kprof: s1: the stacks add up to 28 ticks, not the 27 ticks of d3\n'
mkdata d3 27 27 0 0 0 0 0 0 0 0 0 0 0 0 0
expect bad-stack-sum 1 -p -h 100 sk d3 s1
want '' 'kprof: d4: truncated at byte 60 of the 64 that kernel text'"'"'s 14 bins take (or of another kernel)\n'
python3 -c 'import struct; open("d4", "wb").write(struct.pack(">15I", *[0] * 15))'
expect bad-bins 1 -p -h 100 sk d4
printf '5 c0100012 xyz\n' >s2
want '' "kprof: s2:1: pc \`xyz' is not a hex number\n"
expect bad-kpstack 1 -p -h 100 sk d1 s2
want '' 'usage: kprof [-h hz] kernel kpdata
       kprof -s|-g [-u prog] kernel kpstack [kpdata]
       kprof -i [-u prog] kernel kpdata kpstack
       kprof -t function [-u prog] kernel kpstack [kpdata]
       kprof -c [-x sym]... kernel exact sampled
       kprof -p [-h hz] [-u prog] kernel kpdata [kpstack] >kernel.pb.gz
       kprof -a function kernel kpdata
       kprof -D kernel before.kpdata after.kpdata
       kprof -P kpproc
       kprof -q kernel kpgmon [function]
'
expect too-many-files 1 -p sk d1 s1 s1
want '' 'kprof: -p: d1: no clock rate beside it: give it with -h\n'
expect no-clock 1 -p sk d1
if command -v script >/dev/null; then
	script -qec "${hostbins[0]} -p -h 100 sk d1" /dev/null >tty.out 2>&1
	check refuses-terminal grep -q 'kprof: -p: the profile is gzipped: send it to a file' tty.out
fi

# prof -p: a user program's gmon.out, a sample for each busy counter.
cd "$top" || exit 1
hostbuild prof pprof
cd "$T" || exit 1
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
# mkgmon FILE LOW HIGH NBINS HZ [BIN:COUNT ...]: a gmon.out, as profcmd.sh makes it.
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
gcc -m32 -c -o p1.o p1.s && ld -m elf_i386 -Ttext=0x1000 -e 0x1000 -o p1 p1.o
mkgmon g1 0x1000 0x1040 16 1000 0:10 2:20 5:50 8:15 15:5
if both user -p p1 g1; then
	ok user-writes
	"${hostbins[0]}" p1 g1 >user.txt
	python3 "$ppread" flat user.txt >want.top
	pp top user.pb.gz >got.top
	same user-top want.top got.top
	go tool pprof -raw user.pb.gz >user.raw 2>&1
	check user-clock-comment grep -q "^Comment: clock: profil(2)'s, HZ 1000\$" user.raw
else
	bad user-writes "$(cat user.err)"
fi
# A real program's lines, from its DWARF.
prog=$top/o/bin/profdemo.prof
read -r ptext psize < <(readelf -SW "$prog" |
	sed -n 's/.* \.text  *PROGBITS  *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p')
spin=$(nm "$prog" | awk '$3 == "spin3" { print $1 }')
mkgmon g2 "0x$ptext" $((16#$ptext + 16#$psize)) $((16#$psize / 2)) 100 $(( (16#$spin - 16#$ptext) / 2 + 4 )):7
pc=$(printf '%x' $(( 16#$spin + 8 )))
line=$(addr2line -e "$prog" "$pc" | sed 's,.*/\(user/\),\1,; s/ .*//')
if both prog -p "$prog" g2; then
	go tool pprof -symbolize=none -top -lines prog.pb.gz >prog.lines 2>&1
	check user-line grep -q " spin3 $line\$" prog.lines
else
	bad user-line "$(cat prog.err)"
fi
echo nonsense >junk
want '' 'prof: junk: not a gmon.out file\n'
expect user-bad-gmon 1 -p p1 junk
want '' 'usage: prof program [gmon.out]
       prof -p program [gmon.out] >prof.pb.gz
'
expect user-usage 1 -p

summary pprof
