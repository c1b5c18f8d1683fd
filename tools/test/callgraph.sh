#!/usr/bin/env bash
# The kernel's call graph (kern/arcs.c, #T/kpgmon): every entry in the
# kernel's table of entry nops is a nop, and the NMI's path has none;
# the calls counted are exact (calls, seeking N times from 1, 2 and 4
# processes on as many processors, against GNU gprof's reading of
# kpgmon; #S's chain and tree of calls); the guest's and the host's
# kprof -q print the same call graph; kpctl refuses bad arcs messages;
# startclr clears the arcs; a table with no room counts its drops;
# kprof's stacks at an entry nop keep the caller; and arcs on and off, hundreds of times
# while the other processors run kernel code with kprof's NMI on,
# leave the text as o/kernel's and count exactly after.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# gcalls FILE CALLEE CALLER: the calls of CALLEE by CALLER in gprof -q's
# call graph of the kernel's gmon.out FILE, or nothing.
gcalls() {
	gprof -b -q "$kernel" "$1" 2>/dev/null | awk -v f="$2" -v c="$3" '
	/^-----/ { n = 0; next }
	/^\[/ { if($(NF-1) == f) for(i = 1; i <= n; i++) print buf[i]; n = 0; next }
	{ buf[++n] = $0 }' | awk -v c="$3" '$(NF-1) == c { split($(NF-2), a, "/"); print a[1] }'
}

# cutgmons FILE NAME...: cut FILE, the guest's files one after another,
# into $T/NAME each, by the sizes `ls -l` printed for /tmp/NAME.
cutgmons() {
	local f=$1 off=0 size name
	shift
	for name in "$@"; do
		size=$(awk -v p="/tmp/$name" '$NF == p { print $(NF-1) }' <<<"$out")
		[ -n "$size" ] || return 1
		tail -c +$((off + 1)) "$f" | head -c "$size" >"$T/$name"
		off=$((off + size))
	done
}

# The table: each entry is a function's address, holding the 5-byte
# nop; the recorder, the NMI's path and the clock's have none.
python3 - o/kernel syscall arcslow patchintr stopall patch kprofnmi stackadd delivered nmiclocknext clock lapiceoi >"$T/facts" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<I', f, 32)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 46)
sh = [struct.unpack_from('<10I', f, shoff + i * shentsize) for i in range(shnum)]
name = lambda o, base: f[base + o:f.index(b'\0', base + o)].decode()
sec = {name(s[0], sh[shstrndx][4]): s for s in sh}
symtab = sec['.symtab']
funcs, syms = {}, {}
for i in range(symtab[5] // 16):
	n, v, size, info, other, ndx = struct.unpack_from('<IIIBBH', f, symtab[4] + 16 * i)
	syms[name(n, sh[symtab[6]][4])] = v
	if info & 0xf == 2:
		funcs[v] = name(n, sh[symtab[6]][4])
def at(s, a, n):
	return f[s[4] + a - s[3]:s[4] + a - s[3] + n]
ro = sec['.rodata']
loc = at(ro, syms['mcountloc'], syms['emcountloc'] - syms['mcountloc'])
entries = struct.unpack('<%dI' % (len(loc) // 4), loc)
print('entries', len(entries))
print('notnop', sum(at(sec['.text'], e, 5) != b'\x0f\x1f\x44\x00\x00' for e in entries))
print('notfunc', sum(e not in funcs for e in entries))
listed = {funcs.get(e) for e in entries}
for fn in sys.argv[2:]:
	print('listed', fn, int(fn in listed))
# The NMI's path: what nmientry calls, directly, and what that calls;
# and its instructions that use es or the direction flag, string
# instructions, which nmientry leaves as the NMI found them.
import re, subprocess
calls, strings, cur = {}, {}, None
for l in subprocess.run(['objdump', '-d', '--no-show-raw-insn', sys.argv[1]], capture_output=True, text=True).stdout.split('\n'):
	m = re.match(r'^[0-9a-f]+ <(.*)>:$', l)
	if m:
		cur = m.group(1)
		calls[cur] = set()
		strings[cur] = 0
	m = re.search(r'\scall\s+[0-9a-f]+ <([^>+]*)>', l)
	if m and cur:
		calls[cur].add(m.group(1))
	if cur and re.search(r'\t(rep[a-z]* )?(movs|stos|lods|scas|cmps|ins|outs)[bwl]?( |$)|%es([^ip]|$)', l):
		strings[cur] += 1
seen, todo = set(), ['nmientry']
while todo:
	fn = todo.pop()
	if fn not in seen:
		seen.add(fn)
		todo += calls.get(fn, ())
print('nmipath', len(seen), sum(syms[fn] in entries for fn in seen if fn in syms))
print('nmistrings', sum(strings.get(fn, 0) for fn in seen))
PY
check table-large [ "$(fact entries)" -gt 200 ]
check table-all-nops [ "$(fact notnop)" = 0 -a "$(fact notfunc)" = 0 ]
check table-has-syscall [ "$(fact listed syscall)" = 1 ]
check nmi-path-no-nops [ "$(awk '$1 == "nmipath" { print ($2 > 1 && $3 == 0) }' "$T/facts")" = 1 ]
check nmi-path-no-strings [ "$(fact nmistrings)" = 0 ]
for fn in arcslow patchintr stopall patch kprofnmi stackadd delivered nmiclocknext clock lapiceoi; do
	check "table-not-$fn" [ "$(fact listed $fn)" = 0 ]
done

# kprof's stacks at an entry nop: the caller's pc is on top of the
# stack, and kern/kpwalk.c takes it, so the second pc of a stack whose
# leaf is an entry returns from a call of that function, or of one
# that jumps to it (a tail call), or by a chain of them (wakeup jumps
# to unlock, which jumps to popcli).  runtest, 0.3 s at 10000 Hz, and
# usertests land on enough entries: 17, then 9 with later builds of the
# kernel, of the 5 wanted (runtest alone found 20 with one build and 8
# with another, 0.6 s of it no more: the stacks are counted once each,
# and the ticks fall by where the code lies); before kpwalk knew them,
# none of these stacks was right.
guest -d -p 1 -a hz=10000 -t 300 -o "$T/ks" -c 'echo startclr > /dev/kpctl; runtest 0.3 > /dev/null; usertests > /dev/null; echo stop > /dev/kpctl; cat /dev/kpstack > /dev/eia1'
python3 - "$kernel" "$T/ks" >"$T/entries" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<I', f, 32)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 46)
sh = [struct.unpack_from('<10I', f, shoff + i * shentsize) for i in range(shnum)]
name = lambda o, base: f[base + o:f.index(b'\0', base + o)].decode()
t = {name(s[0], sh[shstrndx][4]): s for s in sh}['.text']
at = lambda a, n: f[t[4] + a - t[3]:t[4] + a - t[3] + n]
rel = lambda a: struct.unpack('<i', at(a, 4))[0]
def targets(x):	# where a jmp or jcc rel32 within function x's first 2 KB goes
	return {(a + 5 + rel(a + 1)) & 0xffffffff for a in range(x, x + 2048) if at(a, 1) == b'\xe9'} | \
		{(a + 6 + rel(a + 2)) & 0xffffffff for a in range(x, x + 2048) if at(a, 1) == b'\x0f' and at(a + 1, 1)[0] & 0xf0 == 0x80}
def jumps(x, leaf, depth=3):	# x reaches leaf by tail calls, through functions' entries
	t = targets(x)
	return leaf in t or depth > 1 and any(jumps(y, leaf, depth - 1) for y in t
		if y % 16 == 0 and at(y, 5) == b'\x0f\x1f\x44\x00\x00')
right = wrong = 0
for l in open(sys.argv[2]):
	pcs = [int(x, 16) for x in l.split()[1:]]
	leaf = pcs[0]
	if len(pcs) < 2 or leaf % 16 or at(leaf, 5) != b'\x0f\x1f\x44\x00\x00' or at(pcs[1] - 5, 1) != b'\xe8':
		continue
	x = (pcs[1] + rel(pcs[1] - 4)) & 0xffffffff
	if x == leaf or jumps(x, leaf):
		right += 1
	else:
		wrong += 1
print(right, wrong)
PY
read -r right wrong <"$T/entries"
echo "stacks whose leaf is an entry nop, after a direct call: $right with the caller next, $wrong without"
check stack-at-entry [ "${right:-0}" -ge 5 -a "${wrong:-none}" = 0 ]

# Exact counts: on P processors, P copies of calls seek N times each,
# for N = 0 (the background), 1 and 1000; kpgmon after each is kept.
for p in 1 2 4; do
	cmds="echo arcs on > /dev/kpctl"
	for n in 0 1 1000; do
		cmds+="
echo startclr > /dev/kpctl; calls -c $p $n; echo stop > /dev/kpctl; cat /dev/kpgmon > /tmp/g$n"
	done
	cmds+="
echo arcs off > /dev/kpctl; cat /dev/textsum; ls -l /tmp/g0 /tmp/g1 /tmp/g1000; cat /tmp/g0 /tmp/g1 /tmp/g1000 > /dev/eia1"
	[ "$p" = 2 ] && cmds+="
echo ==q; kprof -q kernel /tmp/g1000; echo ==end
echo startclr > /dev/kpctl; echo stop > /dev/kpctl; cat /dev/kpgmon > /tmp/gnone; kprof -q kernel /tmp/gnone; echo no arcs: \$?"
	guest -d -p "$p" -t 300 -o "$T/gmons" -c "$cmds"
	check "p$p-split" cutgmons "$T/gmons" g0 g1 g1000
	has "p$p-runs" "^calls: $p copies, 1000 seeks each$"
	textintact "p$p-text-back"
	bg=$(gcalls "$T/g0" sysseek syscall)
	for n in 1 1000; do
		got=$(gcalls "$T/g$n" sysseek syscall)
		echo "$p processors, $p copies of $n seeks: syscall calls sysseek ${got:-0} times, ${bg:-0} with none"
		check "p$p-n$n-exact" [ -n "$got" -a "${got:-0}" -ge $((p * n)) -a "${got:-0}" -le $((p * n + ${bg:-0})) ]
	done
	gprof -b "$kernel" "$T/g1000" >"$T/flat" 2>"$T/err"
	check "p$p-gprof-no-warnings" [ ! -s "$T/err" ]
	check "p$p-gprof-flat-calls" grep -qE "^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +$((p * 1000)) .* sysseek$" "$T/flat"
	if [ "$p" = 2 ]; then
		# kprof -q, the guest's then the host's, on the same file.
		sed -n '/^==q$/,/^==end$/p' <<<"$out" | sed '1d;$d' >"$T/guestq"
		o/host/kprof -q "$kernel" "$T/g1000" >"$T/hostq"
		check kprof-q-same [ -s "$T/hostq" ] && cmp -s "$T/guestq" "$T/hostq"
		check kprof-q-sysseek grep -qxE '		2000	syscall' <(grep -B3 -A4 '^sysseek	' "$T/hostq")
		check kprof-q-block grep -qxE 'sysseek	2000 calls	[0-9]+ ms' "$T/hostq"
		o/host/kprof -q "$kernel" "$T/g1000" sysseek >"$T/oneq"
		check kprof-q-one [ "$(grep -c calls "$T/oneq")" = 1 ] && grep -qxE '		2000	syscall' "$T/oneq"
		o/host/kprof -q "$kernel" "$T/g1000" nosuch >/dev/null 2>"$T/err"
		check kprof-q-none [ $? = 1 ] && grep -qx 'kprof: nosuch: no calls to or from it' "$T/err"
		has kprof-q-no-arcs '^kprof: no calls in the call graph: were its arcs on \(echo arcs on > /dev/kpctl\)\?$'
		has kprof-q-no-arcs-status '^no arcs: 1$'
		/usr/lib/plan9/bin/mk o/host/kprof-san >/dev/null 2>&1
		ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86 o/host/kprof-san -q "$kernel" "$T/g1000" >"$T/sanq" 2>&1
		check kprof-q-sanitized cmp -s "$T/sanq" "$T/hostq"
	fi
done

# #S's chain, 3 times, and its tree once: 1024 paths 14 levels deep,
# level by level through spinleft or spinright by a bit of the path's
# number (0 to 1023: 5120 one bits in all, the other 9216 left).
guest -T -d -p 2 -t 300 -o "$T/gs" -c "bind -a '#S' /dev
echo startclr > /dev/kpctl; echo arcs on > /dev/kpctl
echo c 10 > /dev/spinctl; echo c 10 > /dev/spinctl; echo c 10 > /dev/spinctl
echo t 0 > /dev/spinctl
echo arcs off > /dev/kpctl; echo stop > /dev/kpctl
cat /dev/kpgmon > /dev/eia1; cat /dev/textsum"
textintact spin-text-back
check spin-chaina [ "$(gcalls "$T/gs" chaina spinwrite)" = 3 ]
check spin-chainb [ "$(gcalls "$T/gs" chainb chaina)" = 3 ]
check spin-chainc [ "$(gcalls "$T/gs" chainc chainb)" = 3 ]
o/host/kprof -q "$kernel" "$T/gs" >"$T/sq"
callers() { awk -v f="$1" '/^$/ { n = 0; next } /^\t\t/ { buf[++n] = $0; next } $1 == f { for(i = 1; i <= n; i++) print buf[i]; exit } { n = 0 }' "$T/sq"; }
callees() { awk -v f="$1" '$1 == f { on = 1; next } on && /^\t\t/ { print; next } on { exit }' "$T/sq"; }
check spin-tree-node [ "$(callers spinnode | sort)" = "$(printf '\t\t1024\tspintree\n\t\t5120\tspinright\n\t\t9216\tspinleft' | sort)" ]
check spin-tree-left [ "$(callers spinleft)" = "$(printf '\t\t9216\tspinnode')" ]
check spin-tree-right [ "$(callers spinright)" = "$(printf '\t\t5120\tspinnode')" ]
check spin-tree-callees [ "$(callees spinnode)" = "$(printf '\t\t9216\tspinleft\n\t\t5120\tspinright')" ]

# kpctl: bad arcs messages refused, the status says off; startclr
# clears the arcs; kpgmon cannot be written.
guest -d -p 1 -t 120 -o "$T/gclr" -c "echo arcs on > /dev/kpctl; calls 5; echo arcs off > /dev/kpctl
echo arcs > /dev/kpctl; echo arcs maybe > /dev/kpctl; echo arcs on off > /dev/kpctl; echo arcsx on > /dev/kpctl; echo 'arcs ON' > /dev/kpctl
cat /dev/kpctl
kprof -q kernel /dev/kpgmon | grep -c calls
echo startclr > /dev/kpctl; echo stop > /dev/kpctl
kprof -q kernel /dev/kpgmon | grep -c calls
echo x > /dev/kpgmon
cat /dev/kpgmon > /dev/eia1"
check bad-messages-refused [ "$(grep -c '^echo: write error: bad control message$' <<<"$out")" = 5 ]
has status-arcs-off ' arcs off drop 0$'
check startclr-clears [ "$(grep -xE '[0-9]+' <<<"$out" | head -1)" -gt 10 -a "$(grep -xE '[0-9]+' <<<"$out" | tail -1)" = 0 ]
has kpgmon-read-only '^sh: .*kpgmon.*permission denied|^echo: .*permission denied'
gprof -b "$kernel" "$T/gclr" >/dev/null 2>"$T/err"
check cleared-gmon-reads [ ! -s "$T/err" ]

# Patching hammered: 300 rounds of arcs on and off while two processes
# seek and one spins in the kernel, on 4 processors, with kprof's NMI
# at 1000 Hz; then the text is o/kernel's, nothing was dropped, and
# the recorder counts exactly.
guest -T -d -p 4 -a hz=1000 -t 600 -o "$T/gh" -c "bind -a '#S' /dev
echo startclr > /dev/kpctl
calls -c 2 20000 & echo a 30000000 > /dev/spinctl & calls -f 300; wait
cat /dev/textsum; cat /dev/kpctl; cat /dev/kpcpu
echo startclr > /dev/kpctl; echo arcs on > /dev/kpctl
calls -c 4 500; echo a 1000 > /dev/spinctl
echo arcs off > /dev/kpctl; echo stop > /dev/kpctl; cat /dev/kpctl
cat /dev/kpgmon > /dev/eia1; cat /dev/textsum"
has hammer-seekers '^calls: 2 copies, 20000 seeks each$'
hasnt hammer-no-panic 'panic|kernel trap|write error'
textintact hammer-text-back
check hammer-after-exact [ "$(gcalls "$T/gh" sysseek syscall)" = 2000 -a "$(gcalls "$T/gh" spina spinwrite)" = 1 ]
check hammer-no-drops [ "$(grep -cE ' arcs off drop 0$' <<<"$out")" = 2 ]
check hammer-nmi-on-all [ "$(grep -cE '^cpu [0-3] total [1-9][0-9]* kernel [1-9]' <<<"$out")" = 4 ]

# A table with no room: the test kernel's arcprobes=1 lets the recorder
# try one slot an arc, so arcs whose hashes meet are dropped; kpctl
# counts the drops, startclr clears them, and kpgmon still reads.  The
# user's kernel has no such word.
guest -T -d -p 2 -a arcprobes=1 -o "$T/gdrop" -c "echo startclr > /dev/kpctl; echo arcs on > /dev/kpctl
runtest 0.3 > /dev/null
echo arcs off > /dev/kpctl; echo stop > /dev/kpctl; cat /dev/kpctl
cat /dev/kpgmon > /dev/eia1
echo startclr > /dev/kpctl; cat /dev/kpctl"
drops=$(grep -oE ' arcs off drop [0-9]+$' <<<"$out" | awk '{ print $NF }' | tr '\n' ' ')
echo "arcprobes=1: drops $drops"
check drops-counted [ "$(awk '{ print ($1 > 1000) }' <<<"$drops")" = 1 ]
check drops-cleared [ "$(awk '{ print $2 }' <<<"$drops")" = 0 ]
hasnt drops-no-panic 'panic|kernel trap'
gprof -b "$kernel" "$T/gdrop" >/dev/null 2>"$T/err"
check drops-gmon-reads [ -s "$T/gdrop" -a ! -s "$T/err" ]
guest -a arcprobes=1 -c 'cat /dev/kpctl'
has drops-user-kernel-no-word '^warning: unknown kernel command-line word arcprobes=1$'

summary callgraph
