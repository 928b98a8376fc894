#!/usr/bin/env python3
"""Malformed binaries: every one must be refused by `ptx2glsl extract` (and --list) with exit status 1, a message
naming the file, the byte offset and what was expected there, and nothing written. The variants are made here
from the good binaries of tests/fatbin/data; where they were damaged is found by this script's own walk of the
container (16-byte header; entries: u32 header size at +4, u64 payload size at +8, u32 compressed size at +16,
u64 flags at +40), so the offsets the tool reports are checked against an independent reading.
Also `ptx2glsl batch` on a folder holding a malformed binary next to a good PTX file: the binary is reported,
the kernel still translated, exit status 1.
usage: malformed_check.py PTX2GLSL DATA_DIR"""
import os
import re
import struct
import subprocess
import sys
import tempfile

exe, data = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def entries(buf, start=0):
    """(header offset, header size, payload size, compressed size, flags) of each entry of the container at start."""
    magic, version, hsize, fsize = struct.unpack_from("<IHHQ", buf, start)
    assert magic == 0xBA55ED50
    p, end, out = start + hsize, start + hsize + fsize, []
    while p < end:
        eh, = struct.unpack_from("<I", buf, p + 4)
        ps, = struct.unpack_from("<Q", buf, p + 8)
        cs, = struct.unpack_from("<I", buf, p + 16)
        fl, = struct.unpack_from("<Q", buf, p + 40)
        out.append((p, eh, ps, cs, fl))
        p += eh + ps
    return out


def elf_section(buf, name):
    shoff, = struct.unpack_from("<Q", buf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", buf, 0x3A)
    stroff, = struct.unpack_from("<Q", buf, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        h = shoff + i * shentsize
        n, = struct.unpack_from("<I", buf, h)
        if buf[stroff + n:stroff + n + len(name) + 1] == name.encode() + b"\0":
            off, size = struct.unpack_from("<QQ", buf, h + 0x18)
            return off, size
    raise SystemExit(f"no section {name}")


def read(name):
    return bytearray(open(os.path.join(data, name), "rb").read())


cases = []  # (file name, bytes, expected offset or None, words the message must hold)
good = read("reduce_default.fatbin")
es = entries(good)
ptx0 = next(e for e in es if struct.unpack_from("<H", good, e[0])[0] == 1 and e[4] & 0x8000)

cases.append(("truncated_header.fatbin", good[:10], 0, ["expected a 16-byte fatbin header"]))
b = bytearray(good); b[0] ^= 0xFF
cases.append(("bad_magic.fatbin", b, 0, ["expected the fatbin magic"]))
b = bytearray(good); struct.pack_into("<Q", b, es[0][0] + 8, 0x7FFFFFFF)
cases.append(("entry_past_end.fatbin", b, es[0][0] + 8, ["expected an entry payload size of at most"]))
b = bytearray(good); struct.pack_into("<Q", b, es[1][0] + 8, 0)
cases.append(("zero_size_entry.fatbin", b, es[1][0] + 8, ["expected a non-zero entry payload size"]))
cases.append(("truncated_container.fatbin", good[:len(good) // 2], 8, ["expected a fatbin size of at most"]))
b = bytearray(good); data0 = ptx0[0] + ptx0[1]; b[data0:data0 + 4] = b"\0\0\0\0"
cases.append(("corrupt_zstd_magic.fatbin", b, data0, ["expected a zstd frame"]))
b = bytearray(good); b[data0 + 16:data0 + 48] = b"\xA5" * 32
cases.append(("corrupt_zstd_data.fatbin", b, data0, ["zstd"]))
speed = read("reduce_speed.fatbin")
lz = next(e for e in entries(speed) if e[4] & 0x2000)
b = bytearray(speed); d = lz[0] + lz[1]; b[d:d + lz[3]] = b"\xFF" * lz[3]
cases.append(("corrupt_lz4.fatbin", b, d, ["expected LZ4 block data"]))
b = bytearray(speed); struct.pack_into("<Q", b, lz[0] + 40, lz[4] | 0x8000)
cases.append(("two_compressions.fatbin", b, lz[0] + 40, ["expected at most one compression flag"]))
lib = read("libk.so")
off, size = elf_section(lib, ".nv_fatbin")
first = entries(lib, off)
second = off + 16 + struct.unpack_from("<Q", lib, off + 8)[0]
b = bytearray(lib); b[second:second + 4] = b"\x11\x22\x33\x44"
cases.append(("libk_bad_second_container.so", b, second, ["expected the fatbin magic", "section .nv_fatbin"]))
b = bytearray(lib); struct.pack_into("<Q", b, first[0][0] + 8, 1 << 40)
cases.append(("libk_entry_past_end.so", b, first[0][0] + 8, ["expected an entry payload size of at most"]))
dll = read("reduce.dll")
fat = dll.find(struct.pack("<I", 0xBA55ED50))
b = bytearray(dll); struct.pack_into("<Q", b, fat + 16 + 8, 0)
cases.append(("reduce_zero_size_entry.dll", b, fat + 16 + 8, ["expected a non-zero entry payload size"]))
cases.append(("not_a_binary.bin", bytearray(b"hello, world\n" * 10), 0, ["expected an ELF or PE binary"]))

with tempfile.TemporaryDirectory() as tmp:
    for name, body, offset, words in cases:
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(body)
        out = os.path.join(tmp, "out_" + name)
        for args in (["extract", path, "-o", out], ["extract", "--list", path]):
            p = subprocess.run([exe, *args], capture_output=True, text=True)
            msg = p.stderr
            what = f"{name} ({' '.join(args[:2])})"
            check(p.returncode == 1, f"{what}: exit {p.returncode}, 1 expected; stderr: {msg}")
            check(path in msg, f"{what}: the message does not name the file: {msg}")
            if offset is not None:
                check(f"at byte offset {offset} (0x{offset:x})" in msg, f"{what}: offset {offset} not reported: {msg}")
            for w in words:
                check(w in msg, f"{what}: '{w}' not in the message: {msg}")
            check("internal error" not in msg.lower(), f"{what}: internal error")
        check(not os.path.exists(out), f"{name}: extract wrote {out} although it failed")
        print(f"{name}: {msg.strip().splitlines()[0] if msg.strip() else '(no message)'}")

    # One bad file among good ones: nothing at all is written.
    out = os.path.join(tmp, "mixed")
    p = subprocess.run([exe, "extract", os.path.join(data, "reduce_default.fatbin"), os.path.join(tmp, "bad_magic.fatbin"),
                        "-o", out], capture_output=True, text=True)
    check(p.returncode == 1 and not os.path.exists(out), f"a good and a bad file: exit {p.returncode}, wrote {out}")

    # batch: the malformed binary is reported, the good PTX next to it translated.
    folder = os.path.join(tmp, "build")
    os.mkdir(folder)
    os.replace(os.path.join(tmp, "bad_magic.fatbin"), os.path.join(folder, "bad_magic.fatbin"))
    ptx = subprocess.run([exe, "extract", os.path.join(data, "reduce_none.fatbin"), "-o", os.path.join(folder, "x")],
                         capture_output=True, text=True)
    check(ptx.returncode == 0, "extract reduce_none.fatbin into the batch folder")
    out = os.path.join(tmp, "batch")
    p = subprocess.run([exe, "batch", folder, "-o", out, "-j", "2"], capture_output=True, text=True)
    check(p.returncode == 1, f"batch with a malformed binary: exit {p.returncode}, 1 expected")
    report = open(os.path.join(out, "REPORT.md")).read() if os.path.exists(out) else ""
    check("## Inputs not read" in report and "bad_magic.fatbin" in report and "expected the fatbin magic" in report,
          "batch REPORT.md lists the malformed binary")
    check(report.count("| translated |") == 2, "batch translated the two good kernels next to it")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"malformed: {len(cases)} variants refused with their offsets, nothing written")
