#!/usr/bin/env python3
"""Coordinate inputs of the texture cases (ptx_corpus/tex/*/inputs/*.bin), deterministic.

Each file holds n float2 pairs: a quarter random values over and beyond the texture, a quarter quarter-texel
steps, and half values at and one ulp around texel edges (where the rounding of coordinates into the texture
unit's fixed point shows). `xy` pairs are unnormalized (texels), `uv` pairs normalized (texels / size).
Run from anywhere: python3 ptx_corpus/tex/make_inputs.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def next_f32(v, up):
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    if v == 0.0:
        b = 1 if up else 0x80000001
    elif (v > 0) == up:
        b += 1
    else:
        b -= 1
    return struct.unpack("<f", struct.pack("<I", b))[0]


def coords(n, size, normalized, seed):
    rng = random.Random(seed)
    out = []
    q = n // 4
    for _ in range(q):  # random, also outside the texture
        out.append(tuple(f32(rng.uniform(-1.5, 2.5)) if normalized else f32(rng.uniform(-4.0, s + 4.0)) for s in size))
    for k in range(q):  # quarter-texel steps
        t = [((k * (3 + 2 * a)) % (4 * (s + 6))) / 4.0 - 3.0 for a, s in enumerate(size)]
        out.append(tuple(f32(t[a] / s) if normalized else f32(t[a]) for a, s in enumerate(size)))
    while len(out) < n:  # texel edges and their neighbours, one ulp away
        k = len(out)
        pair = []
        for a, s in enumerate(size):
            e = (k * (5 + a)) % (s + 3) - 1  # edge index -1 .. s+1
            c = f32(e / s) if normalized else f32(float(e))
            if normalized and (k >> 1) % 2:  # half-texel centres: linear filtering's edges
                c = f32((e + 0.5) / s)
            elif not normalized and (k >> 1) % 2:
                c = f32(e + 0.5)
            m = k % 3
            pair.append(c if m == 0 else next_f32(c, m == 1))
        out.append(tuple(pair))
    return out


def write(case, name, pairs):
    d = os.path.join(HERE, case, "inputs")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        for p in pairs:
            f.write(struct.pack("<2f", *p))


def main():
    write("tex2d_point", "xy.bin", coords(2048, (13, 7), False, 1))
    write("tex2d_point", "uv.bin", coords(2048, (13, 7), True, 2))
    write("tex2d_linear", "xy.bin", coords(2048, (11, 6), False, 3))
    write("tex2d_linear", "uv.bin", coords(2048, (11, 6), True, 4))
    write("tld4_gather", "xy.bin", coords(1024, (9, 5), False, 5))
    write("tld4_gather", "uv.bin", coords(1024, (9, 5), True, 6))


if __name__ == "__main__":
    main()
