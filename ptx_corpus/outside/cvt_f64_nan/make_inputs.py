#!/usr/bin/env python3
"""Writes inputs/a32.bin and inputs/a64.bin of cvt_f64_nan: 4,096 f32 and f64 operands. The first 64 of each are
special values (NaNs quiet and signalling with small, large and all-ones payloads, both signs; infinities; zeros;
the smallest and largest denormals and normals; 0.5, 1.5, 2.5 for the integer roundings), the rest random NaNs
(one in two) and random bit patterns."""
import os
import random
import struct

N = 4096
HERE = os.path.dirname(os.path.abspath(__file__))
S32 = [0x7F800001, 0x7FBFFFFF, 0x7FC00000, 0x7FC00001, 0x7FFFFFFF, 0x7FA5A5A5, 0x7FD2D2D2, 0x7F800100,
       0x7F800000, 0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F000000, 0x3FC00000,
       0x40200000, 0x3F800000, 0x4B000001, 0x4EFFFFFF]
S64 = [0x7FF0000000000001, 0x7FF7FFFFFFFFFFFF, 0x7FF8000000000000, 0x7FF8000000000001, 0x7FFFFFFFFFFFFFFF,
       0x7FF0000020000000, 0x7FF800001FFFFFFF, 0x7FF4000000000000, 0x7FF0000000000000, 0x0000000000000000,
       0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0x3FE0000000000000,
       0x3FF8000000000000, 0x4004000000000000, 0x36A0000000000000, 0x47EFFFFFE0000000, 0x47EFFFFFF0000000]


def main():
    rnd = random.Random(20261201)
    a32 = [v | s for v in S32 for s in (0, 0x80000000)]
    a64 = [v | s for v in S64 for s in (0, 1 << 63)]
    while len(a32) < N:
        if rnd.random() < 0.5:
            a32.append(0x7F800000 | rnd.getrandbits(23) | (rnd.getrandbits(1) << 31) | 1)
            a64.append(0x7FF0000000000000 | rnd.getrandbits(52) | (rnd.getrandbits(1) << 63) | 1)
        else:
            a32.append(rnd.getrandbits(32))
            a64.append(rnd.getrandbits(64))
    a64 = a64[:N]
    os.makedirs(os.path.join(HERE, "inputs"), exist_ok=True)
    with open(os.path.join(HERE, "inputs", "a32.bin"), "wb") as f:
        f.write(struct.pack(f"<{N}I", *a32[:N]))
    with open(os.path.join(HERE, "inputs", "a64.bin"), "wb") as f:
        f.write(struct.pack(f"<{N}Q", *a64))


if __name__ == "__main__":
    main()
