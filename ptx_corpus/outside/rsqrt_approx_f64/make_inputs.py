#!/usr/bin/env python3
"""Writes inputs/in.bin of rsqrt_approx_f64: 65,536 doubles (u64 bits). The first 64 are special values (zeros,
infinities, NaNs of both signs with payloads, -1, the smallest/largest subnormals and normals, 1, 2, values next to
powers of two); then, in turn by index mod 8: exponents 1022/1023 with a random mantissa and low word (two
classes), the extreme exponents 1, 2, 2045, 2046, subnormals of both signs, the boundary high words
0x000fffff/0x00100000 with random low words, positive normals in [2^-64, 2^64), and whole random patterns
(two classes). Random values: splitmix64 of a fixed seed."""
import os
import struct

M = (1 << 64) - 1
SPECIAL = [0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
           0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF0000000000001,
           0x7FF4000000000000, 0x7FF80000DEADBEEF, 0xFFF8000012345678, 0x7FFFFFFFFFFFFFFF,
           0xBFF0000000000000, 0x8000000000000001, 0x800FFFFFFFFFFFFF, 0x8010000000000000,
           0x0000000000000001, 0x0000000000000002, 0x0000000000000003, 0x00000000FFFFFFFF,
           0x0000000100000000, 0x0000000FFFFFFFFF, 0x0008000000000000, 0x000FFFFFFFFFFFFF,
           0x0010000000000000, 0x0010000000000001, 0x001FFFFFFFFFFFFF, 0x0020000000000000,
           0x7FE0000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FDFFFFFFFFFFFFF, 0x3FF0000000000000,
           0x3FEFFFFFFFFFFFFF, 0x3FF0000000000001, 0x4000000000000000, 0x3FFFFFFFFFFFFFFF,
           0x3FF00000FFFFFFFF, 0x3FF0000100000000, 0x3FE0000000000000, 0x3FD0000000000000,
           0x4010000000000000, 0x4330000000000000, 0x43F0000000000000, 0x3C90000000000000,
           0x3FF6A09E667F3BCD, 0x3FE6A09E667F3BCC, 0x5FE0000000000000, 0x2000000000000000,
           0x3FF8000000000000, 0x3FFC000000000000, 0x3FFE000000000000, 0x3FF4000000000000,
           0x3FFFFFF800000000, 0x3FFFFFF000000000, 0x3FEFFFFF00000000, 0x3FE00000FFFFFFFF,
           0x0000000080000000, 0x000FFFFF00000000, 0x0010000100000000, 0x7FEFFFFF00000000,
           0x7FEFFFFFFFFFFFFE, 0x00000000000000FF, 0x4024000000000000, 0x408F400000000000]
assert len(SPECIAL) == 64
state = 0x52A7F64
def rnd():
    global state
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
vals = list(SPECIAL)
EXT = [1, 2, 2045, 2046]
i = 0
while len(vals) < 65536:
    r = rnd()
    lo, m20 = r & 0xFFFFFFFF, (r >> 32) & 0xFFFFF
    k = i % 8
    if k < 2:
        v = (((1022 + k) << 20 | m20) << 32) | lo
    elif k == 2:
        v = ((EXT[(i >> 3) & 3] << 20 | m20) << 32) | lo
    elif k == 3:
        v = (r & 0x000FFFFFFFFFFFFF) | (((i >> 3) & 1) << 63)
    elif k == 4:
        v = ((0x00100000 if (i >> 3) & 1 else 0x000FFFFF) << 32) | lo
    elif k == 5:
        v = (((959 + (r >> 52) % 128) << 52) | (r & 0x000FFFFFFFFFFFFF))
    else:
        v = r
    vals.append(v)
    i += 1
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "inputs"), exist_ok=True)
with open(os.path.join(here, "inputs", "in.bin"), "wb") as f:
    f.write(struct.pack("<%dQ" % len(vals), *vals))
