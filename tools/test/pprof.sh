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
. tools/test/lib.bash
. tools/test/host.bash

hostin kprof pprof
export HOME=$T PPROF_TMPDIR=$T
if ! command -v go >/dev/null; then
	bad go-tool-pprof "no go: tools/install-deps installs golang-go"
	summary pprof
	exit 1
fi

# both NAME ARGS: run both builds of kprof with ARGS into NAME.pb.gz and
# NAME-san.pb.gz; they must exit 0, say nothing, and write the same.
both() {
	local name=$1
	shift
	"${hostbins[0]}" "$@" >"$name.pb.gz" 2>"$name.err" && [ ! -s "$name.err" ] &&
	"${hostbins[1]}" "$@" >"$name-san.pb.gz" 2>"$name.err" && [ ! -s "$name.err" ] &&
	cmp -s "$name.pb.gz" "$name-san.pb.gz"
}

# The kernel sk and its stacks s1, as in flame.sh.
fixtures pprof "the test kernel" sk
# 14 bins: 2 before f, 4 of f, 4 of g, 2 of h, 2 of the odd name.
mkdata d1 40 28 14 0:1 2:5 5:2 6:3 9:4 10:6 12:7

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
mkdata d2 28 28 14 0:28
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
lock=$(sym lock)
read -r textbase textsize < <(textof "$kernel")
nbins=$(( (16#$textsize + 7) / 8 ))
bin=$(( (16#$lock - 16#$textbase) / 8 + 1 ))
mkdata kd 9 9 "$nbins" "$bin:9"
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
echo "9 $(at lock 4) $(at syscall 5) $(at trap 5) $(at alltraps 5)" >ks
"${hostbins[0]}" -s "$kernel" ks >ks.folded
if both kstacks -p -h 100 "$kernel" kd ks; then
	pp traces kstacks.pb.gz >got.traces
	same kernel-stacks-traces ks.folded got.traces
else
	bad kernel-stacks-traces "$(cat kstacks.err)"
fi

# Strings are found again in time n log n whatever their names: 120,000
# user pcs of no symbol, each a name "0x%08x", chosen so that the names
# agree in the low 18 bits of FNV-1a.  A hash table of the strings, as
# kprof -p had, probed along one run of them all: a minute of CPU, more
# under the sanitizers, where this takes a second or two.
python3 - <<'EOF'
from fixtures import kpdata
P, K, N = 16777619, 18, 120000
M = (1 << K) - 1
Pinv = pow(P, -1, 1 << K)


def step(h, cs):
    for c in cs:
        h = ((h ^ c) * P) & M
    return h


# FNV-1a's low bits depend on the low bits alone: meet in the middle,
# the states after "0x" and four digits, and back from each target.
h0 = step(2166136261 & M, b'0x')
pre = {}
for a in range(1 << 16):
    pre.setdefault(step(h0, b'%04x' % a), []).append(a)
pcs = []
for t in range(8):
    for b in range(1 << 16):
        h = t
        for c in reversed(b'%04x' % b):
            h = ((h * Pinv) & M) ^ c
        pcs += [a << 16 | b for a in pre.get(h, ())]
open('coll', 'w').write(''.join('1 ffffffff %08x\n' % p for p in pcs[:N]))
kpdata('dcoll', 14, {}, total=N, kern=0)
EOF
for bin in "${hostbins[@]}"; do
	timeout 20 "$bin" -p -h 100 sk dcoll coll >coll.pb.gz 2>coll.err
	check "colliding-names-${bin##*/}" [ $? = 0 -a ! -s coll.err ]
done
"${hostbins[0]}" -s sk coll >coll.folded
python3 "$ppread" leaves coll.folded >want.top
pp top coll.pb.gz >got.top
same colliding-names-top want.top got.top

# Bad input: a clear message, nothing written.
want '' 'kprof: s1: the stacks add up to 28 ticks, not the 27 ticks of d3\n'
mkdata d3 27 27 14 0:27
expect bad-stack-sum 1 -p -h 100 sk d3 s1
want '' 'kprof: d4: truncated at byte 60 of the 64 that kernel text'"'"'s 14 bins take (or of another kernel)\n'
python3 -c 'import struct; open("d4", "wb").write(struct.pack(">15I", *[0] * 15))'
expect bad-bins 1 -p -h 100 sk d4
printf '5 c0100012 xyz\n' >s2
want '' "kprof: s2:1: pc \`xyz' is not a hex number\n"
expect bad-kpstack 1 -p -h 100 sk d1 s2
want '' "$kprofusage"
expect too-many-files 1 -p sk d1 s1 s1
want '' 'kprof: -p: d1: no clock rate beside it: give it with -h\n'
expect no-clock 1 -p sk d1
if command -v script >/dev/null; then
	script -qec "${hostbins[0]} -p -h 100 sk d1" /dev/null >tty.out 2>&1
	check refuses-terminal grep -q 'kprof: -p: the profile is gzipped: send it to a file' tty.out
fi

# prof -p: a user program's gmon.out, a sample for each busy counter.
# Nanoseconds past pprof's signed 64 bits are refused, not written
# negative: 3000 stacks of 2^32-1 ticks at 100 Hz, beside a kpdata
# whose counts have stopped.
mkdata dsat 4294967295 4294967295 14 2:4294967295
for i in $(seq 3000); do echo '4294967295 c0100012'; done >ssat
want '' "kprof: a stack's 12884901885000 ticks at 100 Hz are too many nanoseconds for pprof's 64 bits\n"
expect nanoseconds-overflow 1 -p -h 100 sk dsat ssat

hostin prof pprof
nopelf p1 0x1000 f:16 g:16 h:32
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
read -r ptext psize < <(textof "$prog")
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
