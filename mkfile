# Build everything: the kernel ELF, the user programs, the boot archive,
# the GRUB ISO, and the host tools.  `mk` builds all; `mk test` runs the
# test suite; `mk clean` removes what mk made.

MKSHELL=/bin/sh
INC=`gcc -m32 -print-file-name=include`
LIBGCC=`gcc -m32 -print-libgcc-file-name`
LDFLAGS=-m elf_i386 -z noexecstack
CFLAGS=-m32 -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -fno-omit-frame-pointer -nostdinc -isystem $INC -Wall -Wextra -Werror
KHDR=`ls kern/*.h`
DHDR=`ls dev/*.h`
UHDR=`ls kern/sys.h kern/lib.h kern/kprof.h kern/gmon.h user/include/*.h`
# The kernel uses no FPU or SSE register: they hold the user's (kern/fpu.c).
# Every kernel function starts with a 5-byte nop, which kern/arcs.c
# patches into a call of its arc recorder while the call graph is
# counted, and __mcount_loc lists where they are (-pg -mfentry
# -mrecord-mcount -mnop-mcount); functions marked NOPROF have none.
KBASEFLAGS=$CFLAGS -mgeneral-regs-only -Ikern
KCFLAGS=$KBASEFLAGS -pg -mfentry -mrecord-mcount -mnop-mcount
# The C library's headers include the kernel's ABI as "kern/sys.h".
# kprof walks the user stack by its frame pointers (kern/kpwalk.c), so
# every function must make a frame and return to its caller: at -O2 gcc
# gives a static function only called in its file an ABI of its own,
# with no frame, unless it is compiled in the order of the file
# (-fno-toplevel-reorder); and a call in tail position jumps, leaving
# its caller out of the chain (-fno-optimize-sibling-calls).
UCFLAGS=$CFLAGS -fno-toplevel-reorder -fno-optimize-sibling-calls -Iuser/include -I.
# Host builds find the shared headers (elfsym.h, gmon.h, and the
# kernel's kern/kprof.h) by "", not the user library's stdio.h and the
# like, which are <>.
HOSTCFLAGS=-O2 -g -Wall -Wextra -Werror -iquote user/include -iquote .
SANCFLAGS=-O1 -g -Wall -Wextra -Werror -iquote user/include -iquote . -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Everything mk makes goes in o/: o/kern, o/dev and o/boot hold the
# kernel's objects, o/conf its configurations', o/lib the C library's,
# o/u the programs'.  A kernel is every file of kern/ and what its
# configuration names: conf/kernel for o/kernel, what users boot, and
# conf/kerneltest for o/kerneltest, what the tests boot where they need
# its test devices (run-qemu.sh -T).
KSRC=`ls kern/*.c`
KOBJ=o/boot/entry.o o/boot/apboot.o o/kern/trapasm.o o/kern/swtch.o ${KSRC:%.c=o/%.o}
KDEV=`tools/mkconf o conf/kernel`
KTESTDEV=`tools/mkconf o conf/kerneltest`

# The C library: user/lib, and the kernel's string and format code
# (kern/lib.h), compiled again without the kernel's entry nops (o/kl/).
SHARED=o/kl/string.o o/kl/fmt.o o/kl/strerror.o
LSRC=`ls user/lib/*.c`
LOBJ=o/lib/crt0.o o/lib/syscall.o o/lib/mcount.o ${LSRC:user/lib/%.c=o/lib/%.o} $SHARED

# Every user/NAME.c is a program /bin/NAME; every user/test/NAME.c a
# test program, also /bin/NAME, built in o/test/ (o/t/ its object),
# with what the tests share, user/test/lib, as o/lib/libtest.a.
PROGS=`ls user/*.c | sed 's,user/\(.*\)\.c,o/bin/\1,'`
TESTS=`ls user/test/*.c | sed 's,user/test/\(.*\)\.c,o/test/\1,'`
TLSRC=`ls user/test/lib/*.c`
TLOBJ=${TLSRC:user/test/lib/%.c=o/tl/%.o}

# These are also built to profile themselves, as /bin/NAME.prof:
# compiled with -pg, so that each function calls mcount (the call
# graph's arcs; mcount finds the caller through the frame pointer, which
# CFLAGS keeps and gcc requires with -pg), and started by gcrt0.o, which
# writes gmon.out at exit.
# The C library is not: it is shared with the other programs, and
# mcount must not call itself.  PROFTESTS are test programs built so
# too, as o/test/NAME.prof (o/pt/ their objects; o/pg/ the programs').
PROFILED=runtest profdemo
PROFPROGS=${PROFILED:%=o/bin/%.prof}
PROFTESTS=arctest
PROFTESTPROGS=${PROFTESTS:%=o/test/%.prof}
PGCFLAGS=$UCFLAGS -pg

all:V: o/kernel o/kerneltest o/root.tar o/roottest.tar o/kprof.iso tools

o/kernel: $KOBJ $KDEV o/conf/kernel.o boot/kernel.ld
	ld $LDFLAGS -T boot/kernel.ld -o $target $KOBJ $KDEV o/conf/kernel.o $LIBGCC

o/kerneltest: $KOBJ $KTESTDEV o/conf/kerneltest.o boot/kernel.ld
	ld $LDFLAGS -T boot/kernel.ld -o $target $KOBJ $KTESTDEV o/conf/kerneltest.o $LIBGCC

o/conf/%.c: conf/% tools/mkconf
	mkdir -p o/conf
	tools/mkconf c conf/$stem >$target

o/conf/%.o: o/conf/%.c $KHDR
	gcc $KCFLAGS -c -o $target o/conf/$stem.c

o/kern/%.o: kern/%.c $KHDR
	mkdir -p o/kern
	gcc $KCFLAGS -c -o $target kern/$stem.c

o/kl/%.o: kern/%.c $KHDR
	mkdir -p o/kl
	gcc $KBASEFLAGS -c -o $target kern/$stem.c

o/dev/%.o: dev/%.c $KHDR $DHDR
	mkdir -p o/dev
	gcc $KCFLAGS -c -o $target dev/$stem.c

# kprof's NMI (dev/kpnmi.c, kern/kpwalk.c), all NOPROF: no entry nops
# and no frames of its own, as it is on no stack that its walks follow
# and takes every tick, and no stack aligned beyond the ABI's 4 bytes,
# which the kernel, using no SSE, does not need.
NMICFLAGS=$KBASEFLAGS -fomit-frame-pointer -mpreferred-stack-boundary=2
o/dev/kpnmi.o: dev/kpnmi.c $KHDR $DHDR
	mkdir -p o/dev
	gcc $NMICFLAGS -c -o $target dev/kpnmi.c

o/kern/kpwalk.o: kern/kpwalk.c $KHDR
	mkdir -p o/kern
	gcc $NMICFLAGS -c -o $target kern/kpwalk.c

# Assembly: a rule each, as mk cannot choose between %.c and %.asm.
o/boot/entry.o: boot/entry.asm
	mkdir -p o/boot
	nasm -f elf32 -o $target boot/entry.asm

o/boot/apboot.o: boot/apboot.asm
	mkdir -p o/boot
	nasm -f elf32 -o $target boot/apboot.asm

o/kern/trapasm.o: kern/trapasm.asm
	mkdir -p o/kern
	nasm -f elf32 -o $target kern/trapasm.asm

o/kern/swtch.o: kern/swtch.asm
	mkdir -p o/kern
	nasm -f elf32 -o $target kern/swtch.asm

o/lib/crt0.o: user/lib/crt0.asm
	mkdir -p o/lib
	nasm -f elf32 -o $target user/lib/crt0.asm

o/lib/gcrt0.o: user/lib/gcrt0.asm user/lib/crt0.asm
	mkdir -p o/lib
	nasm -f elf32 -o $target user/lib/gcrt0.asm

o/lib/mcount.o: user/lib/mcount.asm
	mkdir -p o/lib
	nasm -f elf32 -o $target user/lib/mcount.asm

# The system-call numbers, for the assembler, from the C header.
o/sys.inc: kern/sys.h
	mkdir -p o
	sed -n 's/^#define[ 	]*\(SYS_[a-z0-9]*\|T_SYSCALL\)[ 	]*\([0-9][0-9a-fx]*\).*/%define \1 \2/p' kern/sys.h >$target

o/lib/syscall.o: user/lib/syscall.asm o/sys.inc
	mkdir -p o/lib
	nasm -f elf32 -I o/ -o $target user/lib/syscall.asm

o/lib/%.o: user/lib/%.c $UHDR
	mkdir -p o/lib
	gcc $UCFLAGS -c -o $target user/lib/$stem.c

o/lib/libc.a: $LOBJ
	rm -f $target
	ar rcs $target $LOBJ

o/u/%.o: user/%.c $UHDR
	mkdir -p o/u
	gcc $UCFLAGS -c -o $target user/$stem.c

# & matches no dot, so that this is not a way to make o/bin/NAME.prof.
o/bin/&: o/u/&.o o/lib/libc.a user/user.ld
	mkdir -p o/bin
	ld $LDFLAGS -T user/user.ld -o $target o/lib/crt0.o o/u/$stem.o o/lib/libc.a $LIBGCC

# sh is split by subsystem: user/sh.c and user/sh/*.c.
SHSRC=`ls user/sh/*.c`
SHOBJ=${SHSRC:user/sh/%.c=o/sh/%.o}

o/sh/%.o: user/sh/%.c user/sh/sh.h $UHDR
	mkdir -p o/sh
	gcc $UCFLAGS -c -o $target user/sh/$stem.c

o/u/sh.o: user/sh.c user/sh/sh.h $UHDR
	mkdir -p o/u
	gcc $UCFLAGS -c -o $target user/sh.c

o/bin/sh: o/u/sh.o $SHOBJ o/lib/libc.a user/user.ld
	mkdir -p o/bin
	ld $LDFLAGS -T user/user.ld -o $target o/lib/crt0.o o/u/sh.o $SHOBJ o/lib/libc.a $LIBGCC

o/t/%.o: user/test/%.c $UHDR
	mkdir -p o/t
	gcc $UCFLAGS -c -o $target user/test/$stem.c

o/tl/%.o: user/test/lib/%.c user/test/lib/check.h $UHDR
	mkdir -p o/tl
	gcc $UCFLAGS -c -o $target user/test/lib/$stem.c

o/lib/libtest.a: $TLOBJ
	rm -f $target
	ar rcs $target $TLOBJ

o/test/&: o/t/&.o o/lib/libtest.a o/lib/libc.a user/user.ld
	mkdir -p o/test
	ld $LDFLAGS -T user/user.ld -o $target o/lib/crt0.o o/t/$stem.o o/lib/libtest.a o/lib/libc.a $LIBGCC

o/pg/%.o: user/%.c $UHDR
	mkdir -p o/pg
	gcc $PGCFLAGS -c -o $target user/$stem.c

o/bin/%.prof: o/pg/%.o o/lib/gcrt0.o o/lib/libc.a user/user.ld
	mkdir -p o/bin
	ld $LDFLAGS -T user/user.ld -o $target o/lib/gcrt0.o o/pg/$stem.o o/lib/libc.a $LIBGCC

o/pt/%.o: user/test/%.c $UHDR
	mkdir -p o/pt
	gcc $PGCFLAGS -c -o $target user/test/$stem.c

o/test/%.prof: o/pt/%.o o/lib/gcrt0.o o/lib/libc.a user/user.ld
	mkdir -p o/test
	ld $LDFLAGS -T user/user.ld -o $target o/lib/gcrt0.o o/pt/$stem.o o/lib/libc.a $LIBGCC

# The man pages, doc/man/NAME.SECTION, go in /man for man(1).
MANPAGES=`ls doc/man/*.[1-9]`

# The boot archive: /bin, /kernel (the booted ELF, symbols and all),
# /man, /tmp.  o/roottest.tar is o/kerneltest's.
ROOTFILES=$PROGS $TESTS $PROFPROGS $PROFTESTPROGS $MANPAGES

o/root.tar: o/kernel $ROOTFILES
	rm -rf o/root
	mkdir -p o/root/bin o/root/tmp o/root/dev o/root/boot o/root/man
	cp $PROGS $TESTS $PROFPROGS $PROFTESTPROGS o/root/bin/
	cp $MANPAGES o/root/man/
	cp o/kernel o/root/kernel
	tar --format=ustar --owner=0 --group=0 --numeric-owner -cf $target -C o/root .

o/roottest.tar: o/root.tar o/kerneltest
	rm -rf o/roottest
	cp -a o/root o/roottest
	cp o/kerneltest o/roottest/kernel
	tar --format=ustar --owner=0 --group=0 --numeric-owner -cf $target -C o/roottest .

o/kprof.iso: o/kernel o/root.tar boot/grub.cfg
	rm -rf o/iso
	mkdir -p o/iso/boot/grub
	cp o/kernel o/root.tar o/iso/boot/
	cp boot/grub.cfg o/iso/boot/grub/
	grub-mkrescue -o $target o/iso 2>/dev/null

# Host builds of the pure-logic code, for the formatters and the unit
# tests: o/host/NAME, and o/host/NAME-san with the address and
# undefined-behaviour sanitizers.
# The unit tests' builds are made here too, once, so that the tests,
# which may run side by side, find them made.
HOSTTESTS=kprof srcline prof tartest fmttest stringtest regexptest mcounttest
# The tools whose tests run them on hundreds of damaged files have a
# third build, o/host/NAME-each: the sanitizer build with the main of
# tools/test/each.c, which runs the tool's main on each file in a child
# forked from it, saving each run an exec and the sanitizers' set-up;
# bound at once (-z now), not in each child as it first calls a function.
EACHTOOLS=kprof srcline prof
tools:V: o/host/kprof o/host/srcline o/host/prof o/host/kpexact.so ${HOSTTESTS:%=o/host/%} ${HOSTTESTS:%=o/host/%-san} ${EACHTOOLS:%=o/host/%-each} o/host/stringtest32 o/host/mcounttest-tsan

# The formatters' library, user/lib, is compiled for the host from the
# same files as for the guest.  srcline, the profile by source line,
# is the host's only: it needs elfutils' libdw.
KPLIB=user/lib/elfsym.c user/lib/kpdata.c user/lib/kpcmp.c user/lib/kpstack.c user/lib/kpcum.c user/lib/flame.c user/lib/kpproc.c user/lib/gmonread.c user/lib/callgraph.c
# The host's kprof also has -p, pprof's format, through protobuf-c's
# code for pprof's profile.proto, which is generated here (never kept
# in the tree), -a, annotated instructions, and -D, differences.
PPROFPROTO=/usr/share/gocode/src/github.com/google/pprof/proto
PPROFSRC=tools/pprof.c o/proto/profile.pb-c.c
PPROFHDR=tools/pprof.h o/proto/profile.pb-c.h
PPROFLIBS=-lprotobuf-c -lz -ldw -lm
HOSTINC=-iquote tools -iquote o/proto
KPROFSRC=user/kprof.c $KPLIB tools/kpprof.c tools/annotate.c tools/source.c tools/kpdiff.c $PPROFSRC
KPROFHDR=user/include/elfsym.h user/include/kpstack.h user/include/kpdata.h user/include/kpproc.h user/include/gmon.h kern/kprof.h kern/gmon.h tools/source.h $PPROFHDR
SRCLINESRC=tools/srcline.c tools/source.c $KPLIB
PROFSRC=user/prof.c user/lib/elfsym.c user/lib/gmonread.c $PPROFSRC
TARTESTSRC=tools/test/tartest.c kern/tar.c
FMTTESTSRC=tools/test/fmttest.c kern/fmt.c
STRINGTESTSRC=tools/test/stringtest.c kern/string.c
REGEXPTESTSRC=tools/test/regexptest.c user/lib/regexp.c
MCOUNTTESTSRC=tools/test/mcounttest.c user/lib/arcs.c

o/proto/profile.pb-c.c o/proto/profile.pb-c.h: $PPROFPROTO/profile.proto
	mkdir -p o/proto
	protoc-c --proto_path=$PPROFPROTO --c_out=o/proto $PPROFPROTO/profile.proto

o/host/kprof: $KPROFSRC $KPROFHDR
	mkdir -p o/host
	gcc $HOSTCFLAGS $HOSTINC -o $target $KPROFSRC $PPROFLIBS

o/host/kprof-san: $KPROFSRC $KPROFHDR
	mkdir -p o/host
	gcc $SANCFLAGS $HOSTINC -o $target $KPROFSRC $PPROFLIBS

o/host/kprof-each: $KPROFSRC $KPROFHDR tools/test/each.c
	mkdir -p o/host
	gcc $SANCFLAGS $HOSTINC -Wl,--wrap=main -Wl,-z,now -o $target $KPROFSRC tools/test/each.c $PPROFLIBS

o/host/srcline: $SRCLINESRC $KPROFHDR
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target $SRCLINESRC -ldw

o/host/srcline-san: $SRCLINESRC $KPROFHDR
	mkdir -p o/host
	gcc $SANCFLAGS -o $target $SRCLINESRC -ldw

o/host/srcline-each: $SRCLINESRC $KPROFHDR tools/test/each.c
	mkdir -p o/host
	gcc $SANCFLAGS -Wl,--wrap=main -Wl,-z,now -o $target $SRCLINESRC tools/test/each.c -ldw

# The QEMU plugin that counts every instruction, for tools/profile -x:
# a shared object QEMU loads, exporting only the plugin's symbols.
o/host/kpexact.so: tools/kpexact.c kern/kprof.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -shared -fPIC -fvisibility=hidden -o $target tools/kpexact.c

o/host/prof: $PROFSRC user/include/elfsym.h user/include/gmon.h kern/gmon.h $PPROFHDR
	mkdir -p o/host
	gcc $HOSTCFLAGS $HOSTINC -o $target $PROFSRC $PPROFLIBS

o/host/prof-san: $PROFSRC user/include/elfsym.h user/include/gmon.h kern/gmon.h $PPROFHDR
	mkdir -p o/host
	gcc $SANCFLAGS $HOSTINC -o $target $PROFSRC $PPROFLIBS

o/host/prof-each: $PROFSRC user/include/elfsym.h user/include/gmon.h kern/gmon.h $PPROFHDR tools/test/each.c
	mkdir -p o/host
	gcc $SANCFLAGS $HOSTINC -Wl,--wrap=main -Wl,-z,now -o $target $PROFSRC tools/test/each.c $PPROFLIBS

o/host/tartest: $TARTESTSRC kern/tar.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target $TARTESTSRC

o/host/tartest-san: $TARTESTSRC kern/tar.h
	mkdir -p o/host
	gcc $SANCFLAGS -o $target $TARTESTSRC

# fmttest includes kern/fmt.c itself, to compare it with the host's printf.
o/host/fmttest: $FMTTESTSRC kern/lib.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target tools/test/fmttest.c

o/host/fmttest-san: $FMTTESTSRC kern/lib.h
	mkdir -p o/host
	gcc $SANCFLAGS -o $target tools/test/fmttest.c

# stringtest includes kern/string.c itself, its names prefixed; the
# kernel's is 32-bit, so it is tested as that too.
o/host/stringtest: $STRINGTESTSRC kern/lib.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target tools/test/stringtest.c

o/host/stringtest-san: $STRINGTESTSRC kern/lib.h
	mkdir -p o/host
	gcc $SANCFLAGS -o $target tools/test/stringtest.c

o/host/stringtest32: $STRINGTESTSRC kern/lib.h
	mkdir -p o/host
	gcc -m32 $HOSTCFLAGS -o $target tools/test/stringtest.c

o/host/regexptest: $REGEXPTESTSRC user/include/regexp.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target $REGEXPTESTSRC

o/host/regexptest-san: $REGEXPTESTSRC user/include/regexp.h
	mkdir -p o/host
	gcc $SANCFLAGS -o $target $REGEXPTESTSRC

# mcounttest includes user/lib/arcs.c itself, and runs it in threads;
# -tsan is its build with the thread sanitizer.
o/host/mcounttest: $MCOUNTTESTSRC user/include/gmon.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -pthread -o $target tools/test/mcounttest.c

o/host/mcounttest-san: $MCOUNTTESTSRC user/include/gmon.h
	mkdir -p o/host
	gcc $SANCFLAGS -pthread -o $target tools/test/mcounttest.c

o/host/mcounttest-tsan: $MCOUNTTESTSRC user/include/gmon.h
	mkdir -p o/host
	gcc -O1 -g -Wall -Wextra -Werror -iquote user/include -iquote . -fsanitize=thread -pthread -o $target tools/test/mcounttest.c

test:V: all
	tools/runtests

clean:V:
	rm -rf o
