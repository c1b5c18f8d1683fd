#!/usr/bin/env bash
#
# Host tests of kprof and prof (user/kprof.c, user/prof.c, with
# user/lib/elfsym.c) on hostile input: ELF files of a few megabytes
# made to cost time, 60,000 symbols whose names run on through one long
# string table, or share long prefixes at one address, 60,000 section
# headers, a symbol table whose strings are in no string table, a .text
# that wraps past 2^32; kpdata whose counts do not add up; and a
# gmon.out of 250,000 functions that call each other in a ring, for
# kprof -q.  Each must end well within expect's time limit (the fixed
# formatters take milliseconds; they used to take 15 to 40 seconds),
# under both the plain and the sanitizer builds, with the right profile
# or a clear error.

cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash
. tools/test/host.bash

cd "$T" || exit 1
python3 - <<'EOF'
import struct
from fixtures import arcs, elf, gmon, kpdata

N = 60000
# Every name a tail of one 2 MB string: each runs to the end of the table.
elf('longnames', N * 8, [(1 + 32 * i, 0xc0100000 + 8 * i) for i in range(N)], b'\0' + b'n' * 2000000 + b'\0')
kpdata('longnames.kp', N, {0: 1})
# 60,000 functions at one address, named by tails of 510-byte runs of
# one letter: the sort that keeps one of them compares long prefixes.
# The least of the names, "a", is the one kept.
syms = [(1 + (i % 4000) * 511 + (i * 7919) % 509, 0xc0100000) for i in range(N)]
syms.append((1 + 3 * 511 + 509, 0xc0100000))
elf('shared', 64, syms, b'\0' + (b'a' * 510 + b'\0') * 4000)
kpdata('shared.kp', 8, {0: 3, 7: 2})
gmon('shared.gmon', 0xc0100000, 0xc0100040, 16, {0: 3, 15: 2})
# 60,000 functions, one per bin, a tick each: 60,000 rows, ties by name.
elf('many', N * 8, [(1 + 7 * i, 0xc0100000 + 8 * i) for i in range(N)],
    b'\0' + b''.join(b'f%05d\0' % i for i in range(N)))
kpdata('many.kp', N, {i: 1 for i in range(N)})
with open('many.want', 'w') as f:
    f.write('total: %d\tin kernel text: %d\toutside kernel text: 0\nKTZERO c0100000\tHZ 100\nms\t  %%\tsym\n' % (N, N))
    f.writelines('10\t  0.0\tf%05d\n' % i for i in range(N))
# 60,000 more section headers, named ".x"; or named by 2 MB of name.
elf('sections', 16, [(1, 0xc0100000)], b'\0f\0', nextra=N, extraname=33)
elf('longsecnames', 16, [(1, 0xc0100000)], b'\0f\0', nextra=N, extraname=36, longsecname=True)
kpdata('f.kp', 2, {0: 4, 1: 1})
# A symbol table whose strings are in a section that is no string
# table (itself), whose names were its raw bytes; a .text that wraps
# past 2^32, whose every tick went to "text".
elf('selflink', 16, [(1, 0xc0100000)], b'\0f\0')
b = bytearray(open('selflink', 'rb').read())
shoff = struct.unpack_from('<I', b, 32)[0]
struct.pack_into('<I', b, shoff + 40*2 + 24, 2)
open('selflink', 'wb').write(b)
elf('textwrap', 16, [(1, 0xc0100000)], b'\0f\0')
b = bytearray(open('textwrap', 'rb').read())
struct.pack_into('<I', b, shoff + 40*1 + 12, 0xfffffff8)
open('textwrap', 'wb').write(b)
# Counts that do not add up.
kpdata('morekern.kp', 2, {0: 4, 1: 1}, total=3)
kpdata('badsum.kp', 2, {0: 4, 1: 1}, kern=4)
kpdata('saturated.kp', 2, {0: 0xffffffff, 1: 7}, kern=0xffffffff)
# 250,000 functions in a ring of calls, each a block of kprof -q: the
# blocks used to look at every arc each, 90 times the time for 10 times
# the functions (minutes, here).
N = 250000
elf('ring', N * 8, [(1 + 8 * i, 0xc0100000 + 8 * i) for i in range(N)],
    b'\0' + b''.join(b'f%06d\0' % i for i in range(N)))
gmon('ring.gmon', 0xc0100000, 0xc0100000 + N * 8, N, {0: 1})
arcs('ring.gmon', [(0xc0100000 + 8 * i + 4, 0xc0100000 + 8 * ((i + 1) % N), 3) for i in range(N)])
with open('ring.want', 'w') as f:
    f.writelines('\t\t3\tf%06d\nf%06d\t3 calls\t%d ms\n\t\t3\tf%06d\n\n' % ((i - 1) % N, i, 10 if i == 0 else 0, (i + 1) % N)
                 for i in range(N))
EOF
fixtures elfhostile "the hostile files" test -s longnames -a -s shared -a -s many -a -s sections -a -s longsecnames

hostin kprof elfhostile

want '' 'kprof: longnames: symbol name longer than 512 bytes\n'
expect kprof-long-names 1 -h 100 longnames longnames.kp
wantkprof 5 5 100 '50\t100.0\ta'
expect kprof-shared-prefixes 0 -h 100 shared shared.kp
wantfile many.want
expect kprof-60000-rows 0 -h 100 many many.kp
wantkprof 5 5 100 '50\t100.0\tf'
expect kprof-60000-sections 0 -h 100 sections f.kp
want '' 'kprof: longsecnames: section name longer than 512 bytes\n'
expect kprof-long-section-names 1 -h 100 longsecnames f.kp
want '' 'kprof: morekern.kp: more kernel ticks (5) than ticks (3)\n'
expect kpdata-kernel-over-total 1 -h 100 sections morekern.kp
want '' 'kprof: badsum.kp: the bins add up to 5 ticks, not the 4 kernel ticks\n'
expect kpdata-bins-not-kernel 1 -h 100 sections badsum.kp
wantkprof 4294967295 4294967295 100 '42949673020\t100.0\tf'
expect kpdata-saturated-bins 0 -h 100 sections saturated.kp
wantfile ring.want
expect kprof-q-ring 0 -q ring ring.gmon
want '' 'kprof: selflink: corrupt ELF file (symbol string table)\n'
expect kprof-strings-not-a-string-table 1 -h 100 selflink f.kp
want '' 'kprof: textwrap: corrupt ELF file (.text section)\n'
expect kprof-text-wraps 1 -h 100 textwrap f.kp

hostin prof elfhostile
want '' 'prof: longnames: symbol name longer than 512 bytes\n'
expect prof-long-names 1 longnames shared.gmon
wantprof 5 c0100000 100 '50\t100.0\ta'
expect prof-shared-prefixes 0 shared shared.gmon
want '' 'prof: longsecnames: section name longer than 512 bytes\n'
expect prof-long-section-names 1 longsecnames shared.gmon
want '' 'prof: selflink: corrupt ELF file (symbol string table)\n'
expect prof-strings-not-a-string-table 1 selflink shared.gmon

summary elfhostile
