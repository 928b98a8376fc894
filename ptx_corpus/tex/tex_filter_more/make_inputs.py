#!/usr/bin/env python3
"""Inputs of ptx_corpus/tex/tex_filter_more (deterministic; rerun to rewrite inputs/).

hTie.bin: the 2x2 rgba16f texels. Texels (0,0), (1,0), (0,1) hold values in [1, 2) with all 10 fraction bits
used; texel (1,1) is 1024 (x), -1024 (y), 0.5 (z, a control that never sets the exponent) and 512 (w). A sample
whose weight w11 rounds to 0 (ax * ay < 128) shows whether the (1,1) texel still sets the shared exponent: if it
does, the others lose their low bits (kept to 2^-4 instead of 2^-14).
a.bin: hTie's coordinates, 0.5 + ax/256 and 0.5 + ay/256 for 32 x 32 fractions (many with ax * ay < 128).
b.bin: x, y, z in the 5x4x3 textures (random, a quarter on quarter-texel steps), w in the 16-texel 1D texture.
Run from anywhere: python3 ptx_corpus/tex/tex_filter_more/make_inputs.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FRACS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 31, 32, 64, 100, 127, 128, 129, 150, 200, 224,
         240, 250, 253, 254, 255]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def main():
    d = os.path.join(HERE, "inputs")
    os.makedirs(d, exist_ok=True)
    rng = random.Random(71)
    texels = []
    for t in range(4):
        for c in range(4):
            if t == 3:
                texels.append([1024.0, -1024.0, 0.5, 512.0][c])
            else:
                v = 1.0 + (2 * rng.randrange(512) + 1) / 1024.0  # odd last bit: every fraction bit matters
                texels.append(-v if (t + c) % 3 == 1 else v)
    with open(os.path.join(d, "hTie.bin"), "wb") as f:
        f.write(struct.pack("<16e", *texels))
    with open(os.path.join(d, "a.bin"), "wb") as f:
        for ay in FRACS:
            for ax in FRACS:
                f.write(struct.pack("<2f", 0.5 + ax / 256.0, 0.5 + ay / 256.0))
    with open(os.path.join(d, "b.bin"), "wb") as f:
        for k in range(1024):
            if k % 4 == 3:
                p = [rng.randrange(-4, 4 * s + 4) / 4.0 for s in (5, 4, 3, 16)]
            else:
                p = [f32(rng.uniform(-0.7, s + 0.7)) for s in (5, 4, 3, 16)]
            f.write(struct.pack("<4f", *p))


if __name__ == "__main__":
    main()
