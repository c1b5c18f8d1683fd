#!/usr/bin/env bash
#
# Tests of kprof -a, a function's instructions with their ticks
# (tools/annotate.c), on the host, under the plain and the sanitizer
# builds: a small kernel of known instructions and bins, whose ticks
# are shown once a bin, at its first instruction, a bin where none
# starts going to the next; o/kernel, whose source lines head their
# instructions with the text of the file, and whose functions' ticks
# add up to their rows of the flat profile; bad input.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

hostin kprof annotate

# Kernel ak: f, 16 bytes in two bins of three and four instructions;
# g, six nops, a 10-byte instruction over the whole of bin 3, a ret,
# and padding.
fixtures annotate "the test kernel" asm ak 0xc0100000 <<'EOF'
	.text
	.globl	f
	.type	f,@function
f:	push	%ebp
	mov	%esp,%ebp
	movl	$0x12345678,%eax
	nop
	mov	$1,%ecx
	pop	%ebp
	ret
	.globl	g
	.type	g,@function
g:	.fill	6,1,0x90
	movl	$1,0x12345678
	ret
	.fill	7,1,0x90
EOF
mkdata ad 30 21 5 0:3 1:4 2:5 3:7 4:2

# nops A B: want's lines for nops at c01000A to c01000B (hex), no ticks.
nops() {
	local a
	for ((a = 0x$1; a <= 0x$2; a++)); do printf '\\t\\tc01000%02x:\\tnop\\n' "$a"; done
}

want 'f: 7 ticks, 33.3%% of the kernel'"'"'s 21
ticks\t  %%\taddress\tinstruction
3\t 42.9\tc0100000:\tpush   %%ebp
\t\tc0100001:\tmov    %%esp,%%ebp
\t\tc0100003:\tmov    $0x12345678,%%eax
4\t 57.1\tc0100008:\tnop
\t\tc0100009:\tmov    $0x1,%%ecx
\t\tc010000e:\tpop    %%ebp
\t\tc010000f:\tret
'
expect two-bins 0 -a f ak ad
want 'g: 14 ticks, 66.7%% of the kernel'"'"'s 21
ticks\t  %%\taddress\tinstruction
5\t 35.7\tc0100010:\tnop
'"$(nops 11 15)"'\t\tc0100016:\tmovl   $0x1,0x12345678
9\t 64.3\tc0100020:\tret
'"$(nops 21 27)"
expect bin-with-no-start 0 -a g ak ad

# Kernel ab: p's mov runs over into bin 1, where q starts, and the flat
# profile credits bin 1 to p: its ticks are at q's first instruction,
# shown after p's, so that p's column adds up to its row.
fixtures annotate "the kernel ab" asm ab 0xc0100000 <<'EOF'
	.text
	.globl	p
	.type	p,@function
p:	.fill	6,1,0x90
	mov	$0x12345678,%eax
	.globl	q
	.type	q,@function
q:	ret
	.fill	4,1,0x90
EOF
mkdata abd 5 5 2 0:2 1:3
want 'p: 5 ticks, 100.0%% of the kernel'"'"'s 5
ticks\t  %%\taddress\tinstruction
2\t 40.0\tc0100000:\tnop
'"$(nops 01 05)"'\t\tc0100006:\tmov    $0x12345678,%%eax
\t\t\t(q, in the same bin)
3\t 60.0\tc010000b:\tret
'"$(nops 0c 0f)"
expect bin-of-next-function 0 -a p ab abd

# Bad input.
want '' 'kprof: -a: ak has no function nosuch\n'
expect no-such-function 1 -a nosuch ak ad
want '' "$kprofusage"
expect no-function-named 1 -a
expect too-many-files 1 -a f ak ad ad
want '' 'kprof: ad2: truncated at byte 24 of the 28 that kernel text'"'"'s 5 bins take (or of another kernel)\n'
head -c 24 ad >ad2
expect bad-kpdata 1 -a f ak ad2
PATH=/nonexistent "${hostbins[0]}" -a f ak ad >got.out 2>got.err
check no-objdump grep -qx 'kprof: -a: objdump failed on ak' got.err
# A source file that is not a regular file is not read: DWARF that
# names /dev/zero, which never ends (read until memory ran out), or a
# FIFO, whose open waits for a writer (for ever): dz (host.bash).
dz
want "f: 2 ticks, 100.0%% of the kernel's 2\nticks\t  %%\taddress\tinstruction
\t\t\t/dev/zero:1\t(source missing)\n1\t 50.0\tc0100000:\tnop\n$(nops 01 07)\t\t\tfifo:1\t(source missing)\n1\t 50.0\tc0100008:\tnop\n"
expect source-not-regular 0 -a f dz dz.kp

# Each source file is read once, however the lines go from one to
# another: a function of 24,000 lines that take turns among 20 files
# of a megabyte.  A cache of 16 files read each again at every turn,
# 24 GB in all (half a minute, minutes under the sanitizers; this
# takes a second).
python3 - <<'EOF'
M, NF, S = 20000, 20, 24000
for i in range(NF):
    open('src%d.c' % i, 'w').write(''.join('line %d of src%d.c, text text text text text\n' % (j + 1, i) for j in range(M)))
with open('turns.c', 'w') as f:
    f.write('volatile int x;\nvoid f(void)\n{\n')
    f.writelines('#line %d "src%d.c"\n\tx += %d;\n' % (1 + k % M, k % NF, k) for k in range(S))
    f.write('}\n')
EOF
if gcc -m32 -g -O0 -ffreestanding -fno-pic -c -o turns.o turns.c &&
	ld -m elf_i386 -Ttext 0xc0100000 -e f -o turns turns.o; then
	read -r _ tsize < <(textof turns)
	mkdata td 1 1 $(( (16#$tsize + 7) / 8 )) 0:1
	for bin in "${hostbins[@]}"; do
		timeout 20 "$bin" -a f turns td >turns.out 2>turns.err
		check "files-in-turns-${bin##*/}" [ $? = 0 -a ! -s turns.err ]
	done
	# Every line a heading, with its own text (the closing brace's too).
	awk -F'\t' '$4 ~ /^src[0-9]+\.c:[0-9]+$/ { n++; split($4, p, ":")
		if($5 != "line " p[2] " of " p[1] ", text text text text text") bad++ }
		END { print n + 0, bad + 0 }' turns.out >turns.count
	check files-in-turns-text [ "$(cat turns.count)" = "24001 0" ]
else
	bad files-in-turns "gcc -m32 or ld -m elf_i386 failed"
fi

# o/kernel: a bin in each of the busiest functions of a made-up profile.
read -r textbase textsize < <(textof "$kernel")
nm "$kernel" | awk '$2 ~ /^[tT]$/ { print $1, $3 }' >syms
python3 - kd "$textbase" "$textsize" syms <<'EOF'
import struct, sys
path, base, size = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
n = (size + 7) // 8
c = [0] * n
want = ['lock', 'unlock', 'namec', 'memmove', 'trap', 'syscall']
for l in open(sys.argv[4]):
	a, name = l.split()
	if name in want:
		b = (int(a, 16) - base + 7) // 8
		for i in range(3):
			c[b + i] += 5 + i + len(name)
open(path, 'wb').write(struct.pack('>%dI' % (n + 2), sum(c), sum(c), *c))
EOF
"${hostbins[0]}" -h 1000 "$kernel" kd >flat.txt
problems=
for f in lock unlock namec memmove trap syscall; do
	# Run at the top, where the source files are.
	(cd "$top" && "${hostbins[1]}" -a "$f" "$kernel" "$T/kd") >"a.$f" 2>"a.$f.err" || problems="$problems $f:status"
	grep -q -e Sanitizer -e 'runtime error' "a.$f.err" && problems="$problems $f:sanitizer"
	sum=$(awk -F'\t' 'NR > 2 && $1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }' "a.$f")
	row=$(awk -F'\t' -v f="$f" '$3 == f { print $1 }' flat.txt)
	[ "$sum" = "$row" ] || problems="$problems $f:sum=$sum,row=$row"
done
if [ -z "$problems" ]; then ok kernel-sums; else bad kernel-sums "$problems"; fi
# The source lines: each heading's text is that line of its file.
awk -F'\t' '$4 ~ /:[0-9]+$/ { print $4 "\t" $5 }' a.lock >headings
check kernel-headings [ -s headings ]
mismatch=0
while IFS=$'\t' read -r place text; do
	file=${place%:*} line=${place##*:}
	real=$(sed -n "${line}p" "$top/$file" | sed 's/^[ \t]*//' | tr '\t' ' ' | cut -c1-100)
	[ "$real" = "$text" ] || mismatch=$((mismatch + 1))
done <headings
check kernel-heading-text [ "$mismatch" = 0 ]
check kernel-in-lock-c grep -q $'^\t\t\tkern/lock.c:[0-9]*\t' a.lock

summary annotate
