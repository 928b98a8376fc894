#!/usr/bin/env python3
"""Writes inputs/{a,b,c}.bin of cvt_pack: 4,096 (a, b, c). Pairs 0..2303 are the cross product of 48 s32 values at
every saturation edge of u16/s16/u8/s8/u4/s4/u2/s2; the rest random s32 (splitmix64, fixed seed), half of them
small (|v| < 2^17). c is random bits, c[0] = 0xF839B0ED; pair 0 is (a, b) = (-257, 257), the H200's example."""
import os
import struct

M = (1 << 64) - 1
EDGE = [-257, 257, -2**31, 2**31 - 1, -1, 0, 1, 2, -2, -3, 3, 4, 7, 8, -8, -9, 15, 16, 127, 128, -128, -129, 255,
        256, 32767, 32768, -32768, -32769, 65535, 65536, -65536, 2**24, -2**24, 0x7FFF0000, -0x7FFF0000, 100000,
        -100000, 5, -5, 63, 64, -64, -65, 0x12345678, -0x12345678, 511, -511, 1023]
assert len(EDGE) == 48 and len(set(EDGE)) == 48
state = 0xC0FFEE
def rnd():
    global state
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v
a, b = [], []
for x in EDGE:
    for y in EDGE:
        a.append(x); b.append(y)
k = 0
while len(a) < 4096:
    va, vb = s32(rnd()), s32(rnd())
    if k % 2:
        va, vb = va >> 14, vb >> 14
    a.append(va)
    b.append(vb)
    k += 1
c = [rnd() & 0xFFFFFFFF for _ in range(4096)]
c[0] = 0xF839B0ED
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "inputs"), exist_ok=True)
for name, v, f in (("a", a, "<%di"), ("b", b, "<%di"), ("c", c, "<%dI")):
    with open(os.path.join(here, "inputs", name + ".bin"), "wb") as fh:
        fh.write(struct.pack(f % len(v), *v))
