# Shared by the test scripts: counting, and booting the guest.
# A script sources this, runs its cases, and ends with `summary NAME`.

# Debian's python3, which tools/install-deps installs with the modules
# the tests import, before any other on the PATH: a version manager's
# shim (pyenv's) costs 0.3 s a call, and the suite makes hundreds.
PATH=/usr/bin:$PATH

pass=0
fail=0
T=$(mktemp -d /tmp/kproftest.XXXXXX)
trap 'rm -rf "$T"' EXIT

ok() {
	echo "ok $1"
	pass=$((pass + 1))
}

bad() {
	echo "FAIL $1: $2"
	fail=$((fail + 1))
}

# check NAME COMMAND...: the case passes if the command succeeds.  One
# command: `check x [ a ] && [ b ]` would check only [ a ].
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name" "$*"; fi
}

summary() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# guest [-iso] [-T] ARGS...: every boot of the tests.  Boot with
# ./run-qemu.sh -k ARGS (with -iso, from the GRUB ISO instead; with -T,
# the test kernel, which has #S and locktest=); the console (without
# carriage returns) is left in $out, the exit status in $st, and
# returned, and the kernel booted, for its symbols, in $kernel.  The console goes to $T/console as it runs, so
# that a test can run `guest ... <FIFO &`, type once the prompt is
# there, and `wait` for the status.
guest() {
	local how=-k test=
	if [ "$1" = -iso ]; then
		how=
		shift
	fi
	kernel=o/kernel
	if [ "$1" = -T ]; then
		test=-T kernel=o/kerneltest
		shift
	fi
	./run-qemu.sh $how $test "$@" >"$T/console" 2>&1
	st=$?
	out=$(tr -d '\r\0' <"$T/console")
	return "$st"
}

# The path of kprof's NMI, which never samples itself (tools/nmipath):
# as an awk pattern of its functions, and as kprof -c's options that
# leave them out.
nmifns=$(grep -v '^#' tools/nmipath | paste -sd '|')
nmix=$(tr '|' '\n' <<<"$nmifns" | sed 's/^/-x /' | tr '\n' ' ')

# freeport: a TCP port on localhost that nothing listens on now.
freeport() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("localhost", 0)); print(s.getsockname()[1])'
}

# listening PORT: wait, two minutes at most, until something listens
# on PORT (a guest booted with -g, waiting for gdb).
listening() {
	local i
	for i in $(seq 1200); do
		ss -ltn | grep -q ":$1 " && return 0
		sleep 0.1
	done
	return 1
}

# gdbguest SCRIPT ARGS...: boot with guest -d -g -t 600 ARGS, and drive
# it from gdb in batch mode with tools/gdbinit and the Python SCRIPT,
# whose output is left in $T/gdb; the console in $out and the guest's
# status in $st, as guest leaves them.
gdbguest() {
	local script=$1 port qemu
	shift
	port=$(freeport)
	GDBPORT=$port guest -d -g -t 600 "$@" &
	qemu=$!
	listening "$port"
	timeout 600 gdb -q -batch -nx -ex "set \$gdbport = $port" -x tools/gdbinit -x "$script" >"$T/gdb" 2>&1
	wait $qemu
	st=$?
	out=$(tr -d '\r\0' <"$T/console")
}

# typeat NAME ARGS...: boot with run-qemu.sh -k ARGS, typing the steps
# on the standard input as a person would (tools/test/typeat.py); the
# console is left in $out, and the case NAME-ran passes if it ended well.
typeat() {
	local name=$1
	shift
	python3 tools/test/typeat.py "$@" >"$T/console" 2>"$T/err"
	st=$?
	out=$(tr -d '\0' <"$T/console")
	check "$name-ran" [ "$st" = 0 ]
	[ "$st" = 0 ] || sed 's/^/	| /' "$T/err" | tail -3
}

# has NAME REGEX: the last guest's console has a line matching REGEX.
has() {
	if grep -qE -- "$2" <<<"$out"; then
		ok "$1"
	else
		bad "$1" "no line matching /$2/ in:"
		sed 's/^/	| /' <<<"$out" | tail -20
	fi
}

# hasnt NAME REGEX: no line of the last guest's console matches REGEX.
hasnt() {
	if grep -qE -- "$2" <<<"$out"; then
		bad "$1" "a line matches /$2/"
		grep -E -- "$2" <<<"$out" | sed 's/^/	| /' | head -5
	else
		ok "$1"
	fi
}

# textsum: what /dev/textsum must say, the FNV-1a hash of .text in
# the kernel the last guest booted, for tests that check that nothing
# has written there.  Hashed once a script for each kernel: a tenth of
# a second of Python each time, and the suite's scripts check 34 boots.
textsum() {
	local k=${kernel:-o/kernel}
	local c=$T/textsum.${k//\//_}
	[ -s "$c" ] || python3 - "$k" >"$c" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<I', f, 32)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 46)
sh = [struct.unpack_from('<IIIIII', f, shoff + i * shentsize) for i in range(shnum)]
names = sh[shstrndx][4]
for name, typ, flags, addr, off, size in sh:
	if f[names + name:f.index(b'\0', names + name)] == b'.text':
		h = 2166136261
		for b in f[off:off + size]:
			h = ((h ^ b) * 16777619) & 0xffffffff
		print('%#x' % h)
PY
	echo "$(<"$c")"
}

# hostbuild NAME SUITE: have mk build o/host/NAME, and o/host/NAME-san
# with the address and undefined-behaviour sanitizers (which make a
# failing case exit 86), and, for the tools the mkfile names in
# EACHTOOLS, o/host/NAME-each, which survives runs (host.bash); without
# them SUITE cannot run, and ends here.
hostbuild() {
	local name=$1 suite=$2 each=
	export ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
	grep -q "^o/host/$name-each:" mkfile && each=o/host/$name-each
	if /usr/lib/plan9/bin/mk "o/host/$name" "o/host/$name-san" $each >"$T/build.err" 2>&1; then
		ok "build-$name"
		hostbins=("$PWD/o/host/$name" "$PWD/o/host/$name-san")
		hosteach=${each:+$PWD/$each}
	else
		bad "build-$name" "$(grep -m3 -e error -e 'mk:' "$T/build.err" | head -c 300)"
		summary "$suite"
		exit 1
	fi
}

# want STDOUT [STDERR]: what the next expect should see (printf formats).
# shellcheck disable=SC2059
want() {
	printf "$1" >want.out
	printf "${2-}" >want.err
}

# wantfile FILE [STDERR]: what the next expect should see on stdout is
# FILE, as it is; on stderr, STDERR as want has it.  For outputs of
# megabytes, which bash's printf takes seconds to write.
# shellcheck disable=SC2059
wantfile() {
	cp "$1" want.out
	printf "${2-}" >want.err
}

# samefile A B: the files hold the same bytes.  Two empty files, as
# one of each case's two outputs mostly is, are told by the shell
# without starting cmp, and expect greps only a stderr that has
# something in it: each run of a tool was four programs more.
samefile() {
	if [ -s "$1" ] || [ -s "$2" ]; then cmp -s "$1" "$2"; fi
}

# expect NAME STATUS ARGS...: run both builds of the last hostbuild with
# ARGS, in the current directory; the case passes if each exits with
# STATUS and prints exactly what want said, with no sanitizer report.
# Each run has 60 seconds (the tools take time linear in their input;
# a run killed for taking longer exits 124).
expect() {
	local name=$1 status=$2 bin got why=
	shift 2
	for bin in "${hostbins[@]}"; do
		timeout 60 "$bin" "$@" >got.out 2>got.err
		got=$?
		if [ -s got.err ] && grep -q -e Sanitizer -e 'runtime error' got.err; then
			why="sanitizer report: $(grep -m1 -e Sanitizer -e 'runtime error' got.err)"
		elif [ "$got" -ne "$status" ]; then
			why="${bin##*/}: exit status $got, want $status"
		elif ! samefile got.out want.out; then
			why="${bin##*/}: stdout differs: $(diff want.out got.out | head -5 | tr '\n' '|')"
		elif ! samefile got.err want.err; then
			why="${bin##*/}: stderr differs: $(diff want.err got.err | head -5 | tr '\n' '|')"
		fi
		[ -n "$why" ] && break
	done
	if [ -z "$why" ]; then ok "$name"; else bad "$name" "$why"; fi
}

# between A B: the lines of the last guest's console after the line A
# and before the line B, each ended by |.
between() {
	sed -n "/^$1\$/,/^$2\$/p" <<<"$out" | sed '1d;$d' | tr '\n' '|'
}

# block NAME: the lines of the last guest's console after the line
# "== NAME", up to the next line that starts "== ".
block() {
	awk -v n="== $1" '$0 == n { on = 1; next } /^== / { on = 0 } on' <<<"$out"
}

# fact KEY [WHAT]: the last word of the line of $T/facts (kpcheck.py's
# findings, one a line) that starts with KEY (and WHAT).
fact() {
	awk -v k="$1" -v f="${2-}" '$1 == k && (f == "" || $2 == f) { print $NF }' "$T/facts"
}

# same NAME A B: the case passes if files A and B are the same.
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else bad "$1" "$(diff "$2" "$3" | head -6 | tr '\n' '|')"; fi
}

# poke FILE OFFSET FORMAT VALUE: overwrite bytes in a file (FORMAT as
# Python's struct module has it), to damage test inputs on purpose.
poke() {
	python3 - "$@" <<'EOF'
import struct, sys
path, off, fmt, val = sys.argv[1], int(sys.argv[2], 0), sys.argv[3], int(sys.argv[4], 0)
b = bytearray(open(path, 'rb').read())
struct.pack_into(fmt, b, off, val)
open(path, 'wb').write(b)
EOF
}

# textintact NAME: every hash of kernel text that the last guest printed
# (cat /dev/textsum: a line 0xHEX) is the hash of its kernel's .text, as
# #c/textsum computes it (32-bit FNV-1a).
textintact() {
	local want sums
	want=$(textsum)
	sums=$(grep -E '^0x[0-9a-f]+$' <<<"$out" | sort -u)
	check "$1" [ -n "$want" -a "$sums" = "$want" ]
}

# pagesback NAME: the last guest printed /dev/sysstat at least twice,
# and the first and last show the same free pages and kernel heap.
pagesback() {
	local n first last
	n=$(grep -cE '^pages ' <<<"$out")
	first=$(grep -E '^pages ' <<<"$out" | head -1 | awk '{print $4, $6}')
	last=$(grep -E '^pages ' <<<"$out" | tail -1 | awk '{print $4, $6}')
	check "$1" [ "$n" -ge 2 -a -n "$first" -a "$first" = "$last" ]
}
