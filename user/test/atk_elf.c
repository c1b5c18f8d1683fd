/*
 * atk_elf: exec malformed copies of /bin/echo, each in a child: entry
 * in the kernel, segments over the stack, at KZERO, wrapping round,
 * filesz over memsz, 65535 program headers, data beyond the file,
 * overlapping segments, and one that asks for all of memory.  Each
 * exec must fail with ENOEXEC/ENOMEM or the program must die with the
 * fault message; the kernel must survive and give back every page.
 * Two good ones with a page of bss far from the rest must run.
 * atk_elf hog: the one that asks for all of memory, exec'd again and
 * again beside forks, none of which may fail for want of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char orig[256*1024], elf[256*1024];
static long norig;

typedef struct {
	unsigned type, offset, vaddr, paddr, filesz, memsz, flags, align;
} Phdr;

static Phdr*
ph(int i)
{
	unsigned phoff;

	memmove(&phoff, elf + 28, 4);
	return (Phdr*)(elf + phoff + 32*i);
}

static void
sysstat(char *when)
{
	char buf[128];

	readwhole("/dev/sysstat", buf, sizeof buf);
	printf("atk_elf: %s: %s", when, buf);
}

static void
try(char *name, long n)
{
	static char *argv[] = { "bad", "ran", NULL };
	int fd, pid, st;

	if((fd = create("/tmp/bad", O_WRONLY|O_TRUNC, 0775)) < 0 && (fd = open("/tmp/bad", O_WRONLY|O_TRUNC)) < 0){
		printf("atk_elf: cannot create /tmp/bad\n");
		exit(1);
	}
	write(fd, elf, n);
	close(fd);
	fflush(stdout);
	if((pid = fork()) == 0){
		exec("/tmp/bad", argv);
		printf("atk_elf: %s: exec failed: ", name);
		perror("");
		exit(1);
	}
	wait(&st);
	printf("atk_elf: %s: status %d\n", name, st);
}

/*
 * The program that asks for all of memory, exec'd again and again by a
 * child while this process forks: an exec that mapped and zeroed every
 * free page before it failed made 146 of 1,626 forks fail meanwhile.
 */
static void
hog(void)
{
	static char *argv[] = { "bad", NULL };
	int pid, child, i, failed = 0, p[2];
	char c;

	if(pipe(p) < 0)
		return;
	if((pid = fork()) == 0)
		for(;;){
			exec("/tmp/bad", argv);
			write(p[1], "x", 1);	/* it has failed once: the forks start */
		}
	read(p[0], &c, 1);
	for(i = 0; i < 300; i++){
		if((child = fork()) == 0)
			_exit(0);
		if(child < 0)
			failed++;
		else
			wait(NULL);
	}
	kill(pid);
	wait(NULL);
	close(p[0]);
	close(p[1]);
	printf("atk_elf: all of memory, exec'd beside 300 forks: %d failed\n", failed);
}

int
main(int argc, char *argv[])
{
	unsigned short phnum;
	unsigned v;
	int fd;

	if((fd = open("/bin/echo", O_RDONLY)) < 0 || (norig = read(fd, orig, sizeof orig)) <= 0)
		return 1;
	close(fd);
	if(argc == 2 && strcmp(argv[1], "hog") == 0){
		memmove(elf, orig, norig);
		ph(0)->memsz = 0xBFF00000 - ph(0)->vaddr;
		try("all of memory", norig);
		hog();
		remove("/tmp/bad");
		return 0;
	}
	if(argc != 1){
		fprintf(stderr, "usage: atk_elf [hog]\n");
		return 1;
	}
	sysstat("before");
	memmove(&phnum, orig + 44, 2);

	memmove(elf, orig, norig);
	v = 0xC0100000;
	memmove(elf + 24, &v, 4);
	try("entry in kernel", norig);

	memmove(elf, orig, norig);
	ph(0)->vaddr = 0xBFFF8000; ph(0)->memsz = 0x10000;
	try("segment over the stack", norig);

	memmove(elf, orig, norig);
	ph(0)->vaddr = 0xC0000000;
	try("segment at KZERO", norig);

	memmove(elf, orig, norig);
	ph(0)->vaddr = 0xFFFFF000; ph(0)->memsz = 0x2000;
	try("segment wrapping", norig);

	memmove(elf, orig, norig);
	ph(0)->filesz = ph(0)->memsz + 4096;
	try("filesz over memsz", norig);

	memmove(elf, orig, norig);
	phnum = 65535;
	memmove(elf + 44, &phnum, 2);
	try("65535 headers", norig);

	memmove(elf, orig, norig);
	v = 0xFFFFFFF0;
	memmove(elf + 28, &v, 4);
	try("phoff wrapping", norig);

	memmove(elf, orig, norig);
	ph(0)->offset = 0x7FFFF000;
	try("data beyond the file", norig);

	memmove(elf, orig, norig);
	ph(0)->memsz = 0xBFF00000 - ph(0)->vaddr;
	try("all of memory", norig);

	memmove(elf, orig, norig);
	if(phnum > 1){
		ph(1)->vaddr = ph(0)->vaddr; ph(1)->flags = 4;
		try("overlapping, second read-only", norig);
	}

	/*
	 * Good programs with a third segment, one page of bss, where the
	 * kernel's page-table walks must find it: just under the stack, in
	 * the stack's page table, and far above the rest.  (The headers
	 * have room for it before the first segment's page.)
	 */
	memmove(elf, orig, norig);
	phnum = 3;
	memmove(elf + 44, &phnum, 2);
	*ph(2) = (Phdr){ 1, 0, 0xBFFEF000, 0, 0, 0x1000, 6, 0x1000 };
	try("bss under the stack", norig);
	*ph(2) = (Phdr){ 1, 0, 0x80000000, 0, 0, 0x1000, 6, 0x1000 };
	try("bss far up", norig);

	memmove(elf, orig, norig);
	try("truncated", 60);
	sysstat("after");
	return 0;
}
