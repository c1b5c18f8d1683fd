"""Test inputs made to order, for the host tests of kprof and prof, and
the pixels of a PNG a test's browser drew: one writer for each format,
so that a change to one is made here once.

As a module (tools/test/host.bash puts this folder on PYTHONPATH):
elf, kpdata, gmon, arcs and pngrows.  As a command, for the shell:

    fixtures.py kpdata FILE TOTAL KERN NBINS [BIN:COUNT ...]
    fixtures.py gmon FILE LOW HIGH NBINS HZ [BIN:COUNT ...]
    fixtures.py arcs FILE FROM:SELF:COUNT ...

(numbers in Python's notation: 0x1000, 12).
"""
import itertools
import operator
import struct
import sys
import zlib


def elf(path, textsize, syms, strtab, symsize=0, nextra=0, extraname=0, longsecname=False):
    """An i386 ELF file: .text (textsize bytes of nops at c0100000),
    .symtab of syms [(name offset, value)], all global functions in
    .text of symsize bytes, .strtab, .shstrtab, then nextra empty
    sections named at extraname in .shstrtab.  With longsecname, 2 MB
    of name follow ".x"."""
    shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0.x\0'
    if longsecname:
        shstr += b'y' * 2000000 + b'\0'
    symtab = bytes(16) + b''.join(struct.pack('<IIIBBH', n, v, symsize, 0x12, 0, 1) for n, v in syms)
    body = bytearray(52)

    def add(b):
        off = len(body)
        body.extend(b)
        body.extend(bytes(-len(body) % 4))
        return off
    offs = [add(b'\x90' * textsize), add(symtab), add(strtab), add(shstr)]

    def sh(name, typ, addr, off, size, link=0, entsize=0):
        return struct.pack('<IIIIIIIIII', name, typ, 6 if typ == 1 else 0, addr, off, size, link, 1, 4, entsize)
    shdrs = [bytes(40), sh(1, 1, 0xc0100000, offs[0], textsize),
             sh(7, 2, 0, offs[1], len(symtab), link=3, entsize=16),
             sh(15, 3, 0, offs[2], len(strtab)), sh(23, 3, 0, offs[3], len(shstr))]
    shdrs += [sh(extraname, 1, 0, 0, 0)] * nextra
    shoff = len(body)
    body.extend(b''.join(shdrs))
    body[0:52] = b'\x7fELF\1\1\1' + bytes(9) + struct.pack('<HHIIIIIHHHHHH',
        2, 3, 1, 0xc0100000, 0, shoff, 0, 52, 32, 0, 40, len(shdrs), 4)
    open(path, 'wb').write(body)


def kpdata(path, nbins, bins, total=None, kern=None):
    """A /dev/kpdata of nbins bins, holding bins {bin: count}; its
    kernel ticks (cell 1) are the bins' sum unless kern says, its ticks
    (cell 0) the kernel's unless total says."""
    c = [0] * nbins
    for i, n in bins.items():
        c[i] += n
    k = sum(c) if kern is None else kern
    open(path, 'wb').write(struct.pack('>%dI' % (nbins + 2), k if total is None else total, k, *c))


def gmon(path, low, high, n, counts, hz=100):
    """A gmon.out as user/lib/gmon.c writes it: the histogram of n bins
    over [low, high) at hz, holding counts {bin: count}."""
    c = [0] * n
    for i, v in counts.items():
        c[i] += v
    b = b'gmon' + struct.pack('<I', 1) + bytes(12)
    b += bytes([0]) + struct.pack('<IIII', low, high, n, hz) + b'seconds'.ljust(15, b'\0') + b's'
    open(path, 'wb').write(b + b''.join(struct.pack('<H', v) for v in c))


def arcs(path, records):
    """Append call-graph arc records [(from, self, count)] to a gmon.out."""
    open(path, 'ab').write(b''.join(bytes([1]) + struct.pack('<III', *r) for r in records))


def pngrows(png):
    """A PNG's size and pixels, (width, height, bytes a pixel, rows),
    each row a bytearray; 8-bit RGB or RGBA only."""
    assert png[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    i, idat = 8, b''
    while i < len(png):
        n, t = struct.unpack('>I4s', png[i:i + 8])
        if t == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', png[i + 8:i + 18])
        elif t == b'IDAT':
            idat += png[i + 8:i + 8 + n]
        i += 12 + n
    assert depth == 8 and ctype in (2, 6), 'colour type %d' % ctype
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    # A loop of Python for each byte was a second a screenshot: Sub and
    # Up, most of a browser's rows, are undone by running sums and sums
    # in map and accumulate; Average and Paeth, which need each byte's
    # left neighbour undone first, byte by byte.
    low = (255).__and__
    prev, rows = bytearray(stride), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for c in range(bpp):
                line[c::bpp] = bytes(map(low, itertools.accumulate(line[c::bpp])))
        elif f == 2:
            line = bytearray(map(low, map(operator.add, line, prev)))
        elif f == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def counts(words):
    # BIN:COUNT words as {bin: count}, a bin named twice adding up.
    d = {}
    for a in words:
        i, n = a.split(':')
        d[int(i)] = d.get(int(i), 0) + int(n, 0)
    return d


def main(argv):
    what, path, args = argv[1], argv[2], argv[3:]
    if what == 'kpdata':
        total, kern, nbins = (int(a, 0) for a in args[:3])
        kpdata(path, nbins, counts(args[3:]), total=total, kern=kern)
    elif what == 'gmon':
        low, high, n, hz = (int(a, 0) for a in args[:4])
        gmon(path, low, high, n, counts(args[4:]), hz=hz)
    elif what == 'arcs':
        arcs(path, [tuple(int(x, 0) for x in a.split(':')) for a in args])
    else:
        sys.exit('usage: fixtures.py kpdata|gmon|arcs FILE ...')


if __name__ == '__main__':
    main(sys.argv)
