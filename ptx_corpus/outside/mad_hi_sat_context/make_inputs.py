#!/usr/bin/env python3
"""Writes inputs/{a,b,c}.bin of mulhi_extremes: 4,096 u64 operand triples. The first 1,024 pairs (a, b) are the
cross product of 32 special values (for 64-bit: INT64_MIN/MAX, -1, 0, 1, 2^32 +- 1, 2^31, ... and values whose low
32 and 16 bits are the 32- and 16-bit extremes); the next 3,072 are random (splitmix64 of a fixed seed) with the sign
pairs (-,-), (-,+), (+,-) in turn, so every sign pair of each width appears ~1,000 times. c (the mad addend) is
random with every 8th value an extreme."""
import os
import struct

M = (1 << 64) - 1
SPECIAL = [0x8000000000000000, 0x7FFFFFFFFFFFFFFF, M, 0, 1, 2, (1 << 32) - 1, 1 << 32, (1 << 32) + 1,
           (-(1 << 32)) & M, (-(1 << 32) - 1) & M, (-(1 << 32) + 1) & M, 1 << 31, (-(1 << 31)) & M,
           (1 << 63) | 1, 0x8000000080000000, 0x7FFFFFFF7FFFFFFF, 0xFFFFFFFF80000000, 0x00000000FFFF8000,
           0xFFFFFFFFFFFF7FFF, 0x0000000000007FFF, 0xFFFFFFFFFFFF8000, 0x000000000000FFFF, 0x0000000000010001,
           0x8000800080008000, 0x7FFF7FFF7FFF7FFF, 0xDEADBEEFCAFEBABE, 0x0123456789ABCDEF, 0xFFFFFFFF00000000,
           0x00000001FFFFFFFF, 0xC000000000000000, 0x4000000000000000]
assert len(SPECIAL) == 32
state = 0x5EED11
def rnd():
    global state
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
def signed(v, neg):
    # the sign bit of every width (64, 32, 16) set or cleared together
    mask = 0x8000000080008000
    return (v | mask) if neg else (v & ~mask & M)
a, b, c = [], [], []
for x in SPECIAL:
    for y in SPECIAL:
        a.append(x); b.append(y)
pairs = [(True, True), (True, False), (False, True)]
for k in range(3072):
    na, nb = pairs[k % 3]
    a.append(signed(rnd(), na)); b.append(signed(rnd(), nb))
for k in range(4096):
    c.append(SPECIAL[(k // 8) % 32] if k % 8 == 7 else rnd())
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "inputs"), exist_ok=True)
for name, v in (("a", a), ("b", b), ("c", c)):
    with open(os.path.join(here, "inputs", name + ".bin"), "wb") as f:
        f.write(struct.pack("<%dQ" % len(v), *v))
