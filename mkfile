# Build everything: the kernel ELF, the user programs, the boot archive,
# the GRUB ISO, and the host tools.  `mk` builds all; `mk test` runs the
# test suite; `mk clean` removes what mk made.

MKSHELL=/bin/sh
INC=`gcc -m32 -print-file-name=include`
LIBGCC=`gcc -m32 -print-libgcc-file-name`
LDFLAGS=-m elf_i386 -z noexecstack
CFLAGS=-m32 -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -fno-omit-frame-pointer -nostdinc -isystem $INC -Wall -Wextra -Werror
KHDR=`ls kern/*.h user/include/*.h`
UHDR=`ls user/include/*.h`
KCFLAGS=$CFLAGS -DKERNEL -Ikern -Iuser/include
UCFLAGS=$CFLAGS -Iuser/include
# Host builds find the shared headers (elfsym.h, gmon.h) by "", not
# the user library's stdio.h and the like, which are <>.
HOSTCFLAGS=-O2 -g -Wall -Wextra -Werror -iquote user/include

# Kernel sources: the core, the drivers, and the two library files it
# shares with user space.
KSRC=`ls kern/*.c dev/*.c`
KOBJ=boot/entry.o kern/trapasm.o kern/swtch.o ${KSRC:%.c=%.o} o/k/string.o o/k/fmt.o o/k/strerror.o

LSRC=`ls user/lib/*.c`
LOBJ=user/lib/crt0.o user/lib/syscall.o ${LSRC:%.c=%.o}

# Every user/NAME.c is a program /bin/NAME.
PROGS=`ls user/*.c | sed 's,user/\(.*\)\.c,o/bin/\1,'`

# These are also built to profile themselves, as /bin/NAME.prof: the
# same objects started by gcrt0.o, which writes gmon.out at exit.
PROFILED=runtest profdemo
PROFPROGS=${PROFILED:%=o/bin/%.prof}

all:V: o/kernel o/root.tar o/kprof.iso tools

o/kernel: $KOBJ boot/kernel.ld
	mkdir -p o
	ld $LDFLAGS -T boot/kernel.ld -o $target $KOBJ $LIBGCC

kern/%.o: kern/%.c $KHDR
	gcc $KCFLAGS -c -o $target kern/$stem.c

dev/%.o: dev/%.c $KHDR
	gcc $KCFLAGS -c -o $target dev/$stem.c

o/k/%.o: user/lib/%.c $UHDR
	mkdir -p o/k
	gcc $KCFLAGS -c -o $target user/lib/$stem.c

# Assembly: a rule each, as mk cannot choose between %.c and %.asm.
boot/entry.o: boot/entry.asm
	nasm -f elf32 -o $target boot/entry.asm

kern/trapasm.o: kern/trapasm.asm
	nasm -f elf32 -o $target kern/trapasm.asm

kern/swtch.o: kern/swtch.asm
	nasm -f elf32 -o $target kern/swtch.asm

user/lib/crt0.o: user/lib/crt0.asm
	nasm -f elf32 -o $target user/lib/crt0.asm

user/lib/gcrt0.o: user/lib/gcrt0.asm
	nasm -f elf32 -o $target user/lib/gcrt0.asm

# The system-call numbers, for the assembler, from the C header.
o/sys.inc: user/include/sys.h
	mkdir -p o
	sed -n 's/^#define[ 	]*\(SYS_[a-z0-9]*\|T_SYSCALL\)[ 	]*\([0-9][0-9a-fx]*\).*/%define \1 \2/p' user/include/sys.h >$target

user/lib/syscall.o: user/lib/syscall.asm o/sys.inc
	nasm -f elf32 -I o/ -o $target user/lib/syscall.asm

user/lib/%.o: user/lib/%.c $UHDR
	gcc $UCFLAGS -c -o $target user/lib/$stem.c

user/lib/libc.a: $LOBJ
	rm -f $target
	ar rcs $target $LOBJ

o/u/%.o: user/%.c $UHDR
	mkdir -p o/u
	gcc $UCFLAGS -c -o $target user/$stem.c

# & matches no dot, so that this is not a way to make o/bin/NAME.prof.
o/bin/&: o/u/&.o user/lib/libc.a user/user.ld
	mkdir -p o/bin
	ld $LDFLAGS -T user/user.ld -o $target user/lib/crt0.o o/u/$stem.o user/lib/libc.a $LIBGCC

o/bin/%.prof: o/u/%.o user/lib/gcrt0.o user/lib/libc.a user/user.ld
	mkdir -p o/bin
	ld $LDFLAGS -T user/user.ld -o $target user/lib/gcrt0.o o/u/$stem.o user/lib/libc.a $LIBGCC

# The man pages, doc/man/NAME.SECTION, go in /man for man(1).
MANPAGES=`ls doc/man/*.[1-9]`

# The boot archive: /bin, /kernel (the booted ELF, symbols and all),
# /man, /tmp.
o/root.tar: o/kernel $PROGS $PROFPROGS $MANPAGES
	rm -rf o/root
	mkdir -p o/root/bin o/root/tmp o/root/dev o/root/boot o/root/man
	cp $PROGS $PROFPROGS o/root/bin/
	cp $MANPAGES o/root/man/
	cp o/kernel o/root/kernel
	tar --format=ustar --owner=0 --group=0 --numeric-owner -cf $target -C o/root .

o/kprof.iso: o/kernel o/root.tar boot/grub.cfg
	rm -rf o/iso
	mkdir -p o/iso/boot/grub
	cp o/kernel o/root.tar o/iso/boot/
	cp boot/grub.cfg o/iso/boot/grub/
	grub-mkrescue -o $target o/iso 2>/dev/null

# Host builds of the pure-logic code, for the formatter and unit tests.
tools:V: o/host/kprof o/host/prof

o/host/kprof: user/kprof.c user/lib/elfsym.c user/include/elfsym.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target user/kprof.c user/lib/elfsym.c

o/host/prof: user/prof.c user/lib/elfsym.c user/include/elfsym.h user/include/gmon.h
	mkdir -p o/host
	gcc $HOSTCFLAGS -o $target user/prof.c user/lib/elfsym.c

test:V: all
	tools/runtests

clean:V:
	rm -rf o kern/*.o dev/*.o boot/*.o user/*.o user/lib/*.o user/lib/libc.a
