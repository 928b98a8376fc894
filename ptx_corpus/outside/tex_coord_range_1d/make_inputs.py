#!/usr/bin/env python3
"""Writes the coordinate files of tex_coord_range_1d and tex_coord_range_2d (one script for both): f32 coordinates
chosen to expose how NVIDIA's texture unit turns an out-of-range, infinite or NaN coordinate into its fixed-point
position (saturation? wrap modulo 2^k? NaN as 0?). docs/TEXTURES.md has the in-range rule: 20 fractional bits,
rounded down, before normalized coordinates are scaled.
  ../tex_coord_range_1d/inputs/u.bin: 1,024 f32 (the list below)
  ../tex_coord_range_2d/inputs/uv.bin: 2,048 (u, v) pairs: (c, 0.3) then (0.3, c) for each c of the same list
The list: zeros, NaNs (quiet, signalling, negative, payloads) and infinities; denormals and the smallest normals;
for k = -5..127: +-2^k and its two neighbours; +-(2^k + 1/4), +-(2^k + 1/2) and +-1.5 * 2^k for k = 0..30; +-a random
24-bit significand at each exponent 2^16..2^40 (where a wrap of a 20-fractional-bit position would show); and
moderate values (1.5, -0.75, 100.3...) that the in-range rules already cover, for the sake of the address modes."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def up(b):
    return b + 1 if b & 0x7FFFFFFF else b


vals = [0x00000000, 0x80000000, 0x7FC00000, 0x7F800001, 0x7FFFFFFF, 0xFFC00000, 0xFF800001, 0x7FA00000, 0x7F800000,
        0xFF800000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x00400000]
for k in range(-5, 128):
    b = (k + 127) << 23
    for v in (b, b - 1, b + 1):
        vals += [v, v | 0x80000000]
for k in range(0, 31):
    for x in (2.0 ** k + 0.25, 2.0 ** k + 0.5, 1.5 * 2.0 ** k):
        vals += [f32(x), f32(-x)]
state = 0x7E47
for e in range(16, 41):
    state = (state * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
    m = (state >> 40) & 0x7FFFFF
    b = ((e + 127) << 23) | m
    vals += [b, b | 0x80000000]
for x in (0.3, 1.5, 2.5, 3.25, -0.75, -1.5, 100.3, -100.3, 0.999999, 1.0, -1.0, 0.5, 4095.5, 4096.0, 64.0, 63.75):
    vals.append(f32(x))
seen, out = set(), []
for v in vals:
    if v not in seen:
        seen.add(v)
        out.append(v)
assert len(out) <= 1024, len(out)
while len(out) < 1024:  # pad with in-range values
    out.append(f32((len(out) % 97) / 97.0))
with open(os.path.join(HERE, "inputs", "u.bin"), "wb") as f:
    f.write(struct.pack("<1024I", *out))
pairs = [(c, f32(0.3)) for c in out] + [(f32(0.3), c) for c in out]
os.makedirs(os.path.join(HERE, "..", "tex_coord_range_2d", "inputs"), exist_ok=True)
with open(os.path.join(HERE, "..", "tex_coord_range_2d", "inputs", "uv.bin"), "wb") as f:
    for u, v in pairs:
        f.write(struct.pack("<2I", u, v))
print(len(set(vals)), "distinct coordinates")
