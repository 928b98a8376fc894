#!/usr/bin/env python3
"""Writes inputs/{a,b,c}.bin of carry_chains: 1,024 u64 triples. Pairs 0..255: the cross product of 16 edge values
(0, 1, all ones, the sign bits and their neighbours of both widths, equal operands...), c = the edge values in turn;
the rest random (splitmix64, fixed seed), every 4th pair with a = b so sub.cc's flag sees equality."""
import os
import struct

M = (1 << 64) - 1
EDGE = [0, 1, 2, M, M - 1, 0xFFFFFFFF, 0x100000000, 0x80000000, 0x7FFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF,
        0xFFFFFFFF00000000, 0x00000000FFFFFFFE, 0x123456789ABCDEF0, 0xFEDCBA9876543210, 0x8000000080000000]
state = 0xCA881
def rnd():
    global state
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
a, b, c = [], [], []
for i, x in enumerate(EDGE):
    for j, y in enumerate(EDGE):
        a.append(x); b.append(y); c.append(EDGE[(i + 3 * j) % 16])
k = 0
while len(a) < 1024:
    x, y = rnd(), rnd()
    if k % 4 == 3:
        y = x
    a.append(x); b.append(y); c.append(rnd())
    k += 1
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "inputs"), exist_ok=True)
for name, v in (("a", a), ("b", b), ("c", c)):
    with open(os.path.join(here, "inputs", name + ".bin"), "wb") as f:
        f.write(struct.pack("<%dQ" % len(v), *v))
