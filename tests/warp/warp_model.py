#!/usr/bin/env python3
"""A host model of the warp cases of ptx_corpus/outside (warp_*), for checking the lavapipe emulation before the H200's
expected/ exist: the CUDA source of each case executed SIMT style (the lanes of a warp that take a branch run it
together; a vote sees the lanes that execute it, restricted to its member mask; lanes that returned or do not exist
take no part) -- the model docs/WARP.md describes and the H200's measurements will confirm or correct.
  usage: warp_model.py OUT_DIR [CASE...]   (OUT_DIR/<case>/out.bin from `ptx2glsl run --out OUT_DIR`)
Exit status 1 when a value differs (each listed), 0 otherwise. The cases whose results the ISA leaves undefined
(warp_ub_*) are not modelled. Slot 10 of warp_vote_divergent follows the PTX, not the source: nvcc unrolled the
loop by 4 (a loop of q = n / 4 rounds of four votes, then one of n % 4), and __activemask() is inline PTX, so each
vote sees the lanes still in the unrolled or the remainder loop."""
import os
import struct
import sys

M64 = (1 << 64) - 1
FILL = 0xEEEEEEEE


def splitmix(seed):
    s = seed
    while True:
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def rand_s32(seed, n, lo, hi):
    g = splitmix(seed)
    span = hi - lo + 1
    return [lo + ((next(g) * span) >> 64) for _ in range(n)]


def ballot(lanes, pred):
    return sum(1 << l for l in lanes if pred(l))


def vote(kind, mask, lanes, pred):
    part = [l for l in lanes if (mask >> l) & 1]
    p = [l for l in part if pred(l)]
    if kind == "all":
        return int(len(p) == len(part))
    if kind == "any":
        return int(len(p) > 0)
    if kind == "uni":
        return int(len(p) == 0 or len(p) == len(part))
    return sum(1 << l for l in p)


def warp_one_thread():
    v = rand_s32(1102, 4, -100, 100)
    out = []
    for b in range(4):
        x = v[b]
        L = [0]
        o = [1, ballot(L, lambda l: x & 1), vote("all", M32, L, lambda l: x > 0), vote("any", M32, L, lambda l: x > 0),
             vote("uni", M32, L, lambda l: x > 0), 1, 1 if x & 2 else (1 | 0x100), 0]
        out += o
    return out


M32 = 0xFFFFFFFF


def warp_partial(block, seed, grid):
    bx, by = block
    n = bx * by
    v = rand_s32(seed, n * grid, -100, 100)
    out = [FILL] * (n * grid * 8)
    for b in range(grid):
        for w in range((n + 31) // 32):
            lanes = [l for l in range(32) if w * 32 + l < n]
            val = lambda l: v[b * n + w * 32 + l]
            am = sum(1 << l for l in lanes)
            for l in lanes:
                o = (b * n + w * 32 + l) * 8
                out[o + 0] = am
                out[o + 1] = vote("ballot", M32, lanes, lambda k: val(k) & 1)
                out[o + 2] = vote("all", M32, lanes, lambda k: val(k) > -90)
                out[o + 3] = vote("any", M32, lanes, lambda k: val(k) > 95)
                out[o + 4] = vote("uni", M32, lanes, lambda k: val(k) > -99)
                hi = [k for k in lanes if k >= 8]
                if l >= 8:
                    out[o + 5] = sum(1 << k for k in hi)
                    out[o + 6] = vote("ballot", 0xFFFFFF00, hi, lambda k: val(k) > 0)
                out[o + 7] = vote("ballot", M32, lanes, lambda k: k < 12)
    return out


def warp_vote_divergent():
    n, grid = 64, 2
    v = rand_s32(1101, n * grid, -1000, 1000)
    out = [FILL] * (n * grid * 16)
    skip = set()
    for b in range(grid):
        for w in range(2):
            base = b * n + w * 32
            val = lambda l: v[base + l]
            slot = lambda l, k: (base + l) * 16 + k
            L = list(range(32))
            S = [l for l in L if l != 0]
            for l in S:
                out[slot(l, 0)] = vote("all", 0xFFFFFFFE, S, lambda k: val(k) > -100000)
                out[slot(l, 1)] = vote("any", 0xFFFFFFFE, S, lambda k: val(k) > 900)
                out[slot(l, 2)] = vote("ballot", 0xFFFFFFFE, S, lambda k: val(k) & 1)
                out[slot(l, 3)] = vote("uni", 0xFFFFFFFE, S, lambda k: val(k) > 0)
            A = [l for l in L if val(l) & 2]
            B = [l for l in L if not val(l) & 2]
            ma, mb = sum(1 << l for l in A), sum(1 << l for l in B)
            for l in A:
                out[slot(l, 4)] = ma
                out[slot(l, 5)] = vote("ballot", ma, A, lambda k: val(k) & 4)
                out[slot(l, 6)] = vote("all", ma, A, lambda k: val(k) & 8)
            for l in B:
                out[slot(l, 7)] = mb
                out[slot(l, 8)] = vote("ballot", mb, B, lambda k: val(k) & 4)
                out[slot(l, 9)] = vote("any", mb, B, lambda k: val(k) & 8)
            odd = [l for l in L if l < 20 and l & 1]
            even = [l for l in L if l < 20 and not l & 1]
            for l in odd:
                out[slot(l, 11)] = sum(1 << k for k in odd)
            for l in even:
                out[slot(l, 11)] = vote("ballot", sum(1 << k for k in even), even, lambda k: val(k) > 0) ^ 0x80000000
            n10 = [(l % 5) + (val(l) & 1) for l in L]
            acc, k = [0] * 32, [0] * 32
            def step(act):
                m = sum(1 << l for l in act)
                b = sum(1 << l for l in act if (val(l) >> k[l]) & 1)
                for l in act:
                    acc[l] = (acc[l] * 33 + m + b) & M32
                    k[l] += 1
            for j in range(max(x // 4 for x in n10)):
                for _ in range(4):
                    step([l for l in L if n10[l] // 4 > j])
            for j in range(max(x % 4 for x in n10)):
                step([l for l in L if n10[l] % 4 > j])
            for l in L:
                out[slot(l, 10)] = acc[l]
            R = [l for l in L if not val(l) < -500]
            for l in R:
                out[slot(l, 12)] = sum(1 << k for k in R)
                out[slot(l, 13)] = vote("all", M32, R, lambda k: val(k) < 2000)
                out[slot(l, 14)] = vote("ballot", M32, R, lambda k: val(k) & 1)
                out[slot(l, 15)] = vote("any", M32, R, lambda k: val(k) > 990)
    return out, skip


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    d = argv[1]
    cases = {"warp_one_thread": (warp_one_thread(), set(), 8),
             "warp_partial": (warp_partial((48, 1), 1103, 3), set(), 8),
             "warp_partial_2d": (warp_partial((8, 10), 1104, 2), set(), 8)}
    vd, skip = warp_vote_divergent()
    cases["warp_vote_divergent"] = (vd, skip, 16)
    bad = 0
    for name, (want, skip, per) in cases.items():
        if len(argv) > 2 and name not in argv[2:]:
            continue
        with open(os.path.join(d, name, "out.bin"), "rb") as f:
            data = f.read()
        got = struct.unpack("<%dI" % (len(data) // 4), data)
        diff = [(i, got[i], want[i]) for i in range(len(want)) if i % per not in skip and got[i] != want[i] & M32]
        print(f"{name}: {len(diff)} of {len(want)} values differ from the model")
        for i, g, w in diff[:12]:
            print(f"  thread {i // per} slot {i % per}: got {g:#010x}, model {w & M32:#010x}")
        bad += len(diff)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
