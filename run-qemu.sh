#!/usr/bin/env bash
# Build the kernel and boot it under QEMU, the serial console on this
# terminal.  Installs any missing Debian package first.  See -h.
set -euo pipefail
cd "$(dirname "$0")"

usage() {
	cat <<'EOT'
usage: ./run-qemu.sh [-k] [-T] [-d [-i SHIFT]] [-g] [-p CPUS] [-c 'COMMANDS'] [-o FILE] [-a 'ARGS'] [-t SECONDS] [-x DIR]
  -k           boot the kernel ELF directly (qemu -kernel), not the GRUB ISO
  -T           boot the test kernel, o/kerneltest (#S, locktest=, arcprobes=,
               kpring=), not o/kernel
  -c COMMANDS  run COMMANDS through the shell, then power off; exit with their status
  -o FILE      connect the second serial port (/dev/eia1) to FILE on the host
  -d           deterministic run: -icount shift=0,sleep=off -rtc clock=vm
  -i SHIFT     with -d, a slower processor: an instruction is 2^SHIFT virtual ns
               (-icount shift=SHIFT, 1 to 10), so a tick is fewer instructions; the
               time-stamp counter is then no count of instructions (kprof's clock: host)
  -p CPUS      the number of processors, 1 to 8 (default 2)
  -g           wait for gdb on localhost:1234 (or port $GDBPORT)
  -a ARGS      kernel command line: hz=N, the clock rate, 50 to 10000 (default 100)
  -t SECONDS   kill a guest still running after SECONDS (with -c, default 120;
               with -g, none: a person at gdb takes the time they take)
  -x DIR       with -d, count every instruction at every pc (the plugin o/host/kpexact.so)
               while kprof counts, in its scope, into DIR/kpdata, kpctl and kpcpu (tools/profile -x)
Exit status with -c: the commands' status (126 for any over 126); 124 if the
guest hung and was killed; 1 also if QEMU itself failed.
EOT
}

kernel=o/kernel root=o/root.tar direct=0 cmds= out= det=0 gdb=0 args= timeout= havecmds=0 cpus=2 exact= islow=
while getopts "kTc:o:dgp:a:t:x:i:h" opt; do
	case $opt in
	k) direct=1 ;;
	T) kernel=o/kerneltest root=o/roottest.tar ;;
	c) cmds=$OPTARG; havecmds=1 ;;
	o) out=$OPTARG ;;
	d) det=1 ;;
	g) gdb=1 ;;
	p) cpus=$OPTARG ;;
	a) args=$OPTARG ;;
	t) timeout=$OPTARG ;;
	x) exact=$OPTARG ;;
	i) islow=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# != 0 ]; then
	echo "run-qemu.sh: unexpected argument '$1' (commands go in -c 'COMMANDS')" >&2
	exit 2
fi

case $cpus in
[1-8]) ;;
*) echo "run-qemu.sh: -p wants a number of processors from 1 to 8, not '$cpus'" >&2; exit 2 ;;
esac
# Refuse a bad clock rate here, before a boot that would only warn.
read -ra words <<<"$args"
for w in "${words[@]}"; do
	case $w in
	hz=*)
		n=${w#hz=}
		if ! [[ $n =~ ^[0-9]{1,5}$ ]] || [ $((10#$n)) -lt 50 ] || [ $((10#$n)) -gt 10000 ]; then
			echo "run-qemu.sh: -a $w: hz must be a number from 50 to 10000" >&2
			exit 2
		fi ;;
	esac
done
# QEMU splits a plugin's arguments at commas.
if [[ $exact == *,* ]] || { [ -n "$exact" ] && [ ! -d "$exact" ]; }; then
	echo "run-qemu.sh: -x $exact: want a directory, with no comma in its name" >&2
	exit 2
fi
# The plugin's counts are exact only with the processors run in turn.
if [ -n "$exact" ] && [ $det = 0 ]; then
	echo "run-qemu.sh: -x needs -d" >&2
	exit 2
fi
if [ -n "$islow" ] && { ! [[ $islow =~ ^([1-9]|10)$ ]] || [ $det = 0 ]; }; then
	echo "run-qemu.sh: -i $islow: want -d and a shift from 1 to 10" >&2
	exit 2
fi
if [ -n "$timeout" ] && ! [[ $timeout =~ ^[1-9][0-9]{0,5}$ ]]; then
	echo "run-qemu.sh: -t $timeout: want a whole number of seconds, 1 or more" >&2
	exit 2
fi

# Also makes sure QEMU is 10 or later (QEMU 7.2's -icount gives the
# processors unequal turns), or fails saying so: one run of
# qemu-system-i386 --version a boot is enough.
tools/install-deps

if ! log=$(tools/build 2>&1); then
	echo "$log" >&2
	echo "run-qemu.sh: build failed" >&2
	exit 1
fi

# No audio: the PC speaker is never sounded, and the host sound driver
# QEMU would load for it costs some 0.04 s of CPU a boot.
qemu=(qemu-system-i386 -m 128 -smp "$cpus" -display none -audio none -no-reboot
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
[ $det = 1 ] && qemu+=(-icount shift=${islow:-0},sleep=off -rtc clock=vm)
if [ -n "$exact" ]; then
	# The plugin's bins are those of the kernel's .text section, as kprof's.
	read -r ktext ksize < <(readelf -SW $kernel |
		sed -nE 's/.* \.text +PROGBITS +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+) .*/\1 \2/p')
	qemu+=(-plugin "o/host/kpexact.so,out=$exact,text=0x$ktext,size=0x$ksize")
fi
if [ $gdb = 1 ]; then
	port=${GDBPORT:-1234}
	qemu+=(-gdb "tcp:localhost:$port" -S)
	attach="gdb -x tools/gdbinit"
	[ "$port" = 1234 ] || attach="gdb -ex 'set \$gdbport = $port' -x tools/gdbinit"
	cat >&2 <<EOT
run-qemu.sh: the guest is stopped, waiting for gdb on localhost:$port.
  In another terminal, in this directory:  $attach
  (it attaches and loads o/kernel's symbols; after -T, type: file o/kerneltest;
  see README.md, Debugging)
EOT
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mods=$root
if [ $havecmds = 1 ]; then
	printf '%s\n' "$cmds" > "$tmp/rc"
	mods="$root,$tmp/rc"
fi

if [ $direct = 1 ]; then
	# qboot loads -kernel in milliseconds, where SeaBIOS, which the ISO's
	# CD boot needs, takes about 0.4 s of the host's time: much of a
	# short run, and the suite boots a few hundred.
	qemu+=(-bios qboot.rom -kernel "$kernel" -initrd "$mods")
	[ -n "$args" ] && qemu+=(-append "$args")
else
	# The ISO's GRUB menu gets the command line and the extra module.
	mkdir -p "$tmp/iso/boot/grub"
	cp "$kernel" "$tmp/iso/boot/kernel"
	cp "$root" "$tmp/iso/boot/root.tar"
	sed "s|^multiboot /boot/kernel.*|multiboot /boot/kernel $args|" boot/grub.cfg > "$tmp/iso/boot/grub/grub.cfg"
	if [ $havecmds = 1 ]; then
		cp "$tmp/rc" "$tmp/iso/boot/rc"
		sed -i 's|^boot$|module /boot/rc rc\nboot|' "$tmp/iso/boot/grub/grub.cfg"
	fi
	grub-mkrescue -o "$tmp/boot.iso" "$tmp/iso" >/dev/null 2>&1
	qemu+=(-cdrom "$tmp/boot.iso" -boot d)
fi

if [ -n "$out" ]; then
	qemu+=(-serial mon:stdio -serial "file:$out")
else
	qemu+=(-serial mon:stdio)
fi

# The kernel powers off through isa-debug-exit, which makes QEMU exit
# with 2*status+3; timeout's 124 is even, so never one of those.
status() {
	local s=$1
	if [ "$s" -eq 124 ]; then
		echo "run-qemu.sh: guest still running after ${timeout}s: killed" >&2
		return 124
	fi
	if [ "$s" -ge 3 ] && [ $((s % 2)) -eq 1 ]; then
		return $(((s - 3) / 2))
	fi
	echo "run-qemu.sh: QEMU exited with status $s" >&2
	return 1
}

# With -c, QEMU never waits for a person, and nothing waits forever;
# but under -g a person at gdb does, for as long as they debug.
if [ $havecmds = 1 ]; then
	exec </dev/null
	[ $gdb = 1 ] || timeout=${timeout:-120}
fi
set +e
if [ -n "$timeout" ]; then
	timeout "$timeout" "${qemu[@]}"
else
	"${qemu[@]}"
fi
s=$?
set -e
[ $s = 0 ] && exit 0	# QEMU quit by hand, Ctrl-A X
status $s
