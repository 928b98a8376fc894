#!/usr/bin/env python3
"""A host model of the ptx_corpus/warp cases for redux.sync, match.sync, bar.red, bar.warp.sync, vector registers,
elect.sync, dp4a/dp2a, bmsk, the scalar video instructions and a .const table of .global addresses: each CUDA source executed SIMT style (warp_model.py's rules: a
warp instruction sees the lanes that execute it together, restricted to its member mask; lanes past the end of a
partial warp do not exist), and the integer instructions from the PTX ISA's pseudocode. It checks the lavapipe
emulation before the H200's expected/ exist; the H200 confirms or corrects the reading of the ISA.
  usage: warp_forms_model.py OUT_DIR [CASE...]   (OUT_DIR/<case>/out.bin from `ptx2glsl run --out OUT_DIR`)
Exit status 1 when a value differs (each listed), 0 otherwise."""
import os
import struct
import sys

from warp_model import FILL, M32, M64, rand_s32, splitmix


def rand_bits_u32(seed, n):
    g = splitmix(seed)
    out = []
    while len(out) < n:
        r = next(g)
        out += [r & M32, r >> 32]
    return out[:n]


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def redux_match():
    n, grid = 48, 2
    v = rand_s32(1404, n * grid, -1000, 1000)
    out = [FILL] * (n * grid * 16)
    for b in range(grid):
        for w in range((n + 31) // 32):
            lanes = [l for l in range(32) if w * 32 + l < n]
            val = lambda l: v[b * n + w * 32 + l]
            u = lambda l: val(l) & M32

            def red(op, ls, f):
                xs = [f(l) for l in ls]
                r = xs[0]
                for x in xs[1:]:
                    r = op(r, x)
                return r & M32

            def match_any(ls, f, l):
                return sum(1 << k for k in ls if f(k) == f(l))

            def match_all(ls, f):
                same = all(f(k) == f(ls[0]) for k in ls)
                return (sum(1 << k for k in ls) if same else 0), int(same)
            odd = [l for l in lanes if val(l) & 1]
            low = [l for l in lanes if l < 16]
            for l in lanes:
                o = (b * n + w * 32 + l) * 16
                out[o + 0] = red(lambda x, y: x + y, lanes, u)
                out[o + 1] = red(min, lanes, val)
                out[o + 2] = red(max, lanes, val)
                out[o + 3] = red(min, lanes, u)
                out[o + 4] = red(max, lanes, u)
                out[o + 5] = red(lambda x, y: x & y, lanes, lambda k: u(k) | 0x10000000)
                out[o + 6] = red(lambda x, y: x | y, lanes, lambda k: u(k) & 0xF0F0)
                out[o + 7] = red(lambda x, y: x ^ y, lanes, u)
                out[o + 8] = match_any(lanes, lambda k: u(k) & 7, l)
                out[o + 9], out[o + 10] = match_all(lanes, lambda k: int(val(k) > 900))
                if val(l) & 1:
                    out[o + 11] = red(lambda x, y: x + y, odd, u)
                    out[o + 12] = match_any(odd, lambda k: ((u(k) & 3) << 40) | (k >> 3), l)
                if l < 16:
                    out[o + 13] = red(max, low, val)
                    out[o + 14], out[o + 15] = match_all(low, lambda k: int(val(k) < 990) << 33)
    return out


def bar_red():
    n, grid = 96, 3
    v = rand_s32(1402, n * grid, -100, 100)
    out = [FILL] * (n * grid * 8)
    for b in range(grid):
        val = lambda t: v[b * n + t]
        cnt = sum(1 for t in range(n) if val(t) > 0)
        a = int(all(val(t) > -95 + 2 * b for t in range(n)))
        o_ = int(any(val(t) > 97 - b for t in range(n)))
        c6 = sum(1 for t in range(n) if t < 40 or val(t) == 7)
        for t in range(n):
            o = (b * n + t) * 8
            out[o:o + 8] = [cnt, a, o_, val(t ^ 1) & M32, (val(((t + 5) & 31) | (t & ~31)) * 3 + (((t + 5) & 31) | (t & ~31))) & M32,
                            (val(95 - t) * 3 + 95 - t) & M32, c6, 0]
    return out


def vector_regs():
    n = 64
    x = rand_bits_u32(1403, 4 * n)
    out = [FILL] * (8 * n)
    for g in range(n):
        vx, vy, vz, vw = x[4 * g:4 * g + 4]
        hx, hy = vw, 32
        a = (vy + hx) & M32
        b = (vz * vx) & M32
        c = (vz - hy) & M32
        d = hy ^ vx
        w = hx | (hy << 32)
        out[8 * g:8 * g + 8] = [a, b, c, d, w & M32, w >> 32, a ^ b, (c + d) & M32]
    return out


def sel(x, part, sgn):  # byte/half/word of x, sign- or zero-extended
    if part is None:
        return s32(x) if sgn else x & M32
    bits, i = (8, part) if part < 4 else (16, part - 4)
    y = (x >> (bits * i)) & ((1 << bits) - 1)
    return y - (1 << bits) if sgn and y >> (bits - 1) else y


def video(op, dt, at, bt, a, b, c=None, asel=None, bsel=None, dsel=None, sat=False, secop=None, mode=None, cmp=None):
    ta, tb = sel(a, asel, at == "s"), sel(b, bsel, bt == "s")
    if op == "add": t = ta + tb
    elif op == "sub": t = ta - tb
    elif op == "absdiff": t = abs(ta - tb)
    elif op == "min": t = min(ta, tb)
    elif op == "max": t = max(ta, tb)
    elif op in ("shl", "shr"):
        tb = tb & 31 if mode == "wrap" else min(tb, 32)
        if op == "shl":
            t = (ta << tb) & ((1 << 34) - 1)
            t = t - (1 << 34) if t >> 33 else t
        else:
            t = ta >> tb
    elif op == "set":
        t = int({"lt": ta < tb, "le": ta <= tb, "gt": ta > tb, "ge": ta >= tb, "eq": ta == tb, "ne": ta != tb}[cmp])
    if sat:
        bits = 32 if dsel is None else 8 if dsel < 4 else 16
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dt == "s" else (0, (1 << bits) - 1)
        if dt == "u" and bits == 32 and at == bt == "s" and t > 0x7FFFFFFF:
            t = hi  # measured on the H200 (video_dp slot 9): above INT32_MAX saturates to 0xFFFFFFFF
        t = max(lo, min(hi, t))
    if secop:
        cx = s32(c) if dt == "s" else c & M32
        t = {"add": t + cx, "min": min(t, cx), "max": max(t, cx)}[secop]
    elif dsel is not None:
        bits, sh = (8, 8 * dsel) if dsel < 4 else (16, 16 * (dsel - 4))
        m = ((1 << bits) - 1) << sh
        t = ((t << sh) & m) | (c & ~m)
    return t & M32


def dp4a(a, b, c, sa, sb):
    return (c + sum(sel(a, i, sa) * sel(b, i, sb) for i in range(4))) & M32


def dp2a(a, b, c, sa, sb, hi):
    k = 2 if hi else 0
    return (c + sum(sel(a, 4 + i, sa) * sel(b, k + i, sb) for i in range(2))) & M32


def bmsk(a, b, clamp):
    a1, b1 = a & 31, b & 31
    s = a1 + b1
    m0 = (M32 << a1) & M32
    if clamp and a >= 32:
        m0 = 0
    if s >= 32 or (clamp and (a >= 32 or b >= 32)):
        m1 = 0
    elif b1 == 0:
        m1 = M32
    else:
        m1 = (M32 << s) & M32
    return m0 & ~m1 & M32


def video_dp():
    n = 128
    x = rand_bits_u32(1401, 3 * n)
    out = []
    for g in range(n):
        a, b, c = x[3 * g:3 * g + 3]
        out += [dp4a(a, b, c, True, True), dp4a(a, b, c, False, False), dp4a(a, b, c, False, True),
                dp2a(a, b, c, True, True, False), dp2a(a, b, c, False, False, True), dp2a(a, b, c, True, False, True),
                bmsk(a & 63, b & 63, True), bmsk(a, b, False),
                video("add", "s", "u", "s", a, b, asel=0, bsel=5, sat=True),
                video("sub", "u", "s", "s", a, b, c, sat=True, secop="min"),
                video("absdiff", "s", "s", "s", a, b, c, asel=0, bsel=2, dsel=4, sat=True),
                video("shr", "u", "u", "u", a, b & 63, c, mode="clamp", secop="add"),
                video("shl", "s", "s", "u", a, b, mode="wrap"),
                video("set", "u", "u", "s", a, b, c & 3, bsel=4, cmp="lt", secop="max"),
                video("min", "s", "s", "s", a, b, asel=5),
                video("max", "u", "u", "s", a, b, c, bsel=3, sat=True, secop="add")]
    return out


def const_addr_init():
    ga = [1.5, -2.0, 3.25, 4.0]
    gb = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
    tbl = [(ga, 0), (gb, 2), (gb, 0)]  # {generic(ga), generic(gb)+8, generic(gb)}
    f32 = lambda x: struct.unpack("<I", struct.pack("<f", x))[0]
    out = []
    for s in rand_bits_u32(1405, 64):
        a, o = tbl[s % 3]
        out.append(f32(a[o + ((s >> 4) & 3)]))
        a, o = tbl[(s >> 8) % 3]
        out.append(f32(a[o + 1]))
    return out


def syncwarp_divergent():
    n, grid = 128, 2
    v = rand_s32(1406, n * grid, -5000, 5000)
    out = [FILL] * (n * grid * 4)
    for b in range(grid):
        val = lambda t: v[b * n + t]
        for t in range(n):
            o = (b * n + t) * 4
            if t & 31 < 16:
                j = ((t + 1) & 15) | (t & ~31)
                low = [k for k in range(t & ~31, (t & ~31) + 16)]
                out[o + 0] = val(t ^ 3) & M32
                out[o + 1] = (val(j) + 1000) & M32
                out[o + 3] = sum(val(k) for k in low) & M32
            else:
                out[o + 2] = (val(t) * 7) & M32
    return out


def bar_arrive():
    n, grid = 128, 2
    v = rand_s32(1407, n * grid, -5000, 5000)
    out = [FILL] * (n * grid * 2)
    for b in range(grid):
        for t in range(n):
            o = (b * n + t) * 2
            if t < 64:
                out[o] = v[b * n + t] & M32
            else:
                out[o + 1] = (v[b * n + t - 64] * 7 + 1) & M32
    return out


def elect_sync():  # the leader: the lowest lane that executes elect.sync among those of its mask
    n, grid = 48, 2
    v = rand_s32(1408, n * grid, -1000, 1000)
    out = [FILL] * (n * grid * 4)
    for b in range(grid):
        for w in range((n + 31) // 32):
            lanes = [l for l in range(32) if w * 32 + l < n]
            val = lambda l: v[b * n + w * 32 + l]
            odd = [l for l in lanes if val(l) & 1]
            mid = [l for l in lanes if 4 <= l < 12]
            for l in lanes:
                o = (b * n + w * 32 + l) * 4
                out[o] = lanes[0] | (int(l == lanes[0]) << 8)
                if val(l) & 1:
                    out[o + 1] = odd[0] | (int(l == odd[0]) << 8)
                if 4 <= l < 12:
                    out[o + 2] = mid[0] | (int(l == mid[0]) << 8)
    return out


CASES = {"redux_match": (redux_match, 16), "bar_red": (bar_red, 8), "vector_regs": (vector_regs, 8),
         "video_dp": (video_dp, 16), "const_addr_init": (const_addr_init, 2),
         "syncwarp_divergent": (syncwarp_divergent, 4), "bar_arrive": (bar_arrive, 2),
         "elect_sync": (elect_sync, 4)}


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    d = argv[1]
    bad = 0
    for name, (fn, per) in CASES.items():
        if len(argv) > 2 and name not in argv[2:]:
            continue
        want = fn()
        with open(os.path.join(d, name, "out.bin"), "rb") as f:
            data = f.read()
        got = struct.unpack("<%dI" % (len(data) // 4), data)
        diff = [(i, got[i], want[i]) for i in range(len(want)) if got[i] != want[i] & M32]
        print(f"{name}: {len(diff)} of {len(want)} values differ from the model")
        for i, g, w in diff[:12]:
            print(f"  thread {i // per} slot {i % per}: got {g:#010x}, model {w & M32:#010x}")
        bad += len(diff)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
