# Shared by the host tests of kprof and prof (after lib.bash, sourced
# from the top of the tree): small kernels and programs whose functions
# sit at known places, the kpdata and gmon.out files they read, and
# what the tools say when misused.

top=$PWD
kernel=$top/o/kernel
fixturespy=$top/tools/test/fixtures.py
ppread=$top/tools/test/ppread.py
export PYTHONPATH=$top/tools/test${PYTHONPATH:+:$PYTHONPATH}

# hostin NAME SUITE: hostbuild NAME SUITE at the top of the tree, then
# work in $T, where the cases make their files.
hostin() {
	cd "$top" || exit 1
	hostbuild "$1" "$2"
	cd "$T" || exit 1
}

# What kprof prints, on stderr, when called wrongly.
kprofusage='usage: kprof [-h hz] kernel kpdata
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

# wantkprof TOTAL KERN HZ ROW...: want kprof's profile of a kernel
# whose text is at c0100000: its header for TOTAL ticks, KERN of them in
# kernel text, at HZ (- for none known), then the rows, each a printf
# format as want has it.
wantkprof() {
	local head="total: $1\tin kernel text: $2\toutside kernel text: $(($1 - $2))\nKTZERO c0100000\t" row
	if [ "$3" = - ]; then
		head+='HZ unknown (no -h, no kpctl): ticks, not ms\nticks'
	else
		head+="HZ $3\nms"
	fi
	head+='\t  %%\tsym\n'
	shift 3
	for row; do head+="$row\n"; done
	want "$head"
}

# wantprof TOTAL TEXT HZ [calls] ROW...: want prof's profile, its
# header for TOTAL ticks of a histogram from TEXT at HZ (with a calls
# column if said), then the rows, each a printf format as want has it.
wantprof() {
	local head="total: $1\nTEXT $2\tHZ $3\nms\t  %%\t" row
	shift 3
	if [ "$1" = calls ]; then
		head+='calls\t'
		shift
	fi
	head+='sym\n'
	for row; do head+="$row\n"; done
	want "$head"
}

# fixtures SUITE WHAT COMMAND...: the case fixtures passes if COMMAND
# makes WHAT; without them SUITE cannot run, and ends here.
fixtures() {
	local suite=$1 what=$2
	shift 2
	if "$@"; then
		ok fixtures
	else
		bad fixtures "could not make $what"
		summary "$suite"
		exit 1
	fi
}

# asm NAME ADDR: assemble the standard input (kept in NAME.s) into the
# i386 ELF file NAME, its text at ADDR.
asm() {
	cat >"$1.s" &&
	gcc -m32 -c -o "$1.o" "$1.s" && ld -m elf_i386 -Ttext="$2" -e "$2" -o "$1" "$1.o"
}

# textof ELF: the address and the size of ELF's text, in hex, as
# readelf prints them ("c0100000 000070").
textof() {
	readelf -SW "$1" | sed -n 's/.* \.text  *PROGBITS  *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p'
}

# nopelf NAME ADDR SYM:BYTES...: the i386 ELF file NAME (and NAME.s),
# its text at ADDR all nops: for each argument a global function SYM of
# that many bytes, or with no SYM, bytes before any symbol (SYM may
# hold any character but a newline).  Fails unless the text is where,
# and as long as, the arguments say.
nopelf() {
	local name=$1 addr=$2 a sym size=0
	shift 2
	for a; do size=$((size + ${a##*:})); done
	{
		printf '\t.text\n'
		for a in "$@"; do
			sym=${a%:*}
			sym=${sym//\\/\\\\}
			sym=${sym//\"/\\\"}
			if [ -n "$sym" ]; then
				printf '\t.globl\t"%s"\n\t.type\t"%s",@function\n"%s":\n' "$sym" "$sym" "$sym"
			fi
			printf '\t.fill\t%d,1,0x90\n' "${a##*:}"
		done
	} | asm "$name" "$addr" && [ "$(textof "$name")" = "$(printf '%08x %06x' "$addr" "$size")" ]
}

# sk: the kernel sk of flame.sh and pprof.sh, its text at c0100000, 0x70
# bytes: 16 bytes before any symbol, then f, g and h, and a function
# whose name has what folded stacks and XML can't hold as it is; and
# s1, a kpstack of 28 ticks for it, leaf first, in every spelling that
# kprof takes.  A return address is named by the byte before it, so
# c0100030, g's first byte, is a call at the end of f.
sk() {
	nopelf sk 0xc0100000 :16 f:32 g:32 h:16 'a<b&c;d e:16' || return
	cat >s1 <<'EOF'
5 c0100012 c0100031 c0100052
3 0xc0100014 0xC0100030 c0100052
4	c0100013  c0100032	c0100053  
2 c0100004
1 c0100012 c0100005
0 c0100040
7 c0100061 c0100070 c0100051
6 c0100051
EOF
}

# dz: a kernel dz of one function f, its text at c0100000, whose DWARF
# names two source files that are not regular: /dev/zero, which never
# ends, for its first 8 bytes, and fifo (made here), whose open waits
# for a writer, for the nop after; and dz.kp, a tick in each bin.
dz() {
	mkfifo fifo &&
	printf '\t.file 1 "/dev/zero"\n\t.file 2 "fifo"\n\t.text\n\t.globl f\n\t.type f,@function\nf:\n\t.loc 1 1\n' >dz.s &&
	printf '\tnop\n%.0s' 1 2 3 4 5 6 7 8 >>dz.s &&
	printf '\t.loc 2 1\n\tnop\n' >>dz.s &&
	gcc -m32 -g -c -o dz.o dz.s && ld -m elf_i386 -Ttext=0xc0100000 -e 0xc0100000 -o dz dz.o &&
	mkdata dz.kp 2 2 2 0:1 1:1
}

# mkdata FILE TOTAL KERN NBINS [BIN:COUNT ...]: a kpdata of NBINS bins,
# TOTAL ticks, KERN of them in kernel text, the bins holding the counts.
mkdata() {
	python3 "$fixturespy" kpdata "$@"
}

# mkgmon FILE LOW HIGH NBINS HZ [BIN:COUNT ...]: a gmon.out as gmon.c
# writes it, its histogram of NBINS bins over LOW to HIGH at HZ.
mkgmon() {
	python3 "$fixturespy" gmon "$@"
}

# addarcs FILE FROM:SELF:COUNT ...: append call-graph arc records to
# the gmon.out FILE.
addarcs() {
	python3 "$fixturespy" arcs "$@"
}

# pp KIND PB: what go tool pprof says of PB, in ppread's form.
pp() {
	go tool pprof -symbolize=none -sample_index=samples -nodecount=1000000 \
		-nodefraction=0 -edgefraction=0 "-$1" "$2" >"$2.$1" 2>"$2.err" &&
		python3 "$ppread" "$1" "$2.$1"
}

# sym NAME: the address of the symbol NAME in $kernel, in hex.  nm is
# run once a script for each kernel: a tenth of a second each time, and
# flame.sh looks up 30 symbols.
sym() {
	local c=$T/nm.${kernel//\//_}
	[ -s "$c" ] || nm "$kernel" >"$c"
	awk -v n="$1" '$3 == n { print $1; exit }' "$c"
}

# at NAME OFFSET: OFFSET bytes into the symbol NAME in $kernel, as 8
# hex digits.
at() {
	printf '%08x' $((16#$(sym "$1") + $2))
}

# survives NAME ARGS...: run the sanitizer build of the last hostbuild
# with ARGS on each file named fuzz* here, an argument {} in ARGS
# standing for the file; the case passes if each run gives a result or
# an error (exit 0 or 1) and no sanitizer report.  A file that fails is
# kept in o/host, to be run again.  The runs are made by NAME-each
# (tools/test/each.c), which forks a run for each file where an exec of
# NAME-san was two thirds of the time of a run.  The leak check is
# left to expect's cases, which reach each way out: here, where the
# question is memory errors and undefined behaviour, it was two thirds
# of each run's time.
survives() {
	local name=$1 failed why=
	shift
	failed=$(ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 "$hosteach" got.err fuzz* -- "$@")
	case $?:$failed in
	0:) ;;
	1:fuzz*)
		set -- $failed
		why="$1: exit status $2: $(head -3 got.err | tr '\n' '|')"
		cp "$1" "${hostbins[1]%/*}/$name-$1"
		;;
	*) why="${hosteach##*/} could not run: $failed $(head -3 got.err | tr '\n' '|')" ;;
	esac
	if [ -z "$why" ]; then ok "$name"; else bad "$name" "$why"; fi
}
