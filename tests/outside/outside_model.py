#!/usr/bin/env python3
"""Host models of the integer cases of ptx_corpus/outside, for checking lavapipe before the H200's expected/ exist:
  cvt_pack        the PTX ISA's cvt.pack semantics (the H200's example: 0xB0ED00FF / 0xB0ED807F)
  mulhi_extremes  exact mul.hi/mad.hi/mul.wide/mad.wide of every signedness and width (Python integers)
  int64_sext_ops  the 64-bit integer instructions on sign-extended 32-bit operands
  carry_chains    the carry flag as NVIDIA's hardware keeps it: the carry out of a + b, a + ~b + 1 (sub.cc) or
                  a + ~b + CF (subc); the H200 measurement of this case confirms or corrects it
  call_scoping    the kernel's PTX evaluated by hand (each callee with its own names)
  usage: outside_model.py OUT_DIR [CASE...]   (OUT_DIR/<case>/<output>.bin from `ptx2glsl run --out OUT_DIR`)
Exit status 1 when a value differs (the first ones listed), 0 otherwise."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "ptx_corpus", "outside")
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def words(path, fmt):
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), data[:n * struct.calcsize(fmt)]))


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def cvt_pack():
    a = words(os.path.join(CORPUS, "cvt_pack", "inputs", "a.bin"), "i")
    b = words(os.path.join(CORPUS, "cvt_pack", "inputs", "b.bin"), "i")
    c = words(os.path.join(CORPUS, "cvt_pack", "inputs", "c.bin"), "I")
    out = []
    for x, y, z in zip(a, b, c):
        for ty in ("u16", "s16", "u8", "s8", "u4", "s4", "u2", "s2"):
            n = int(ty[1:])
            lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if ty[0] == "s" else (0, (1 << n) - 1)
            m = (1 << n) - 1
            d = ((min(max(x, lo), hi) & m) << n) | (min(max(y, lo), hi) & m)
            if n < 16:
                d |= z << (2 * n)
            out.append(d & M32)
    return {"out": (out, "I")}


def mulhi_extremes(case="mulhi_extremes"):
    a, b, c = (words(os.path.join(CORPUS, case, "inputs", n + ".bin"), "Q") for n in "abc")
    out = []
    for x, y, z in zip(a, b, c):
        x32, y32, z32, x16, y16, z16 = x & M32, y & M32, z & M32, x & 0xFFFF, y & 0xFFFF, z & 0xFFFF
        hs64 = (sx(x, 64) * sx(y, 64)) >> 64
        hu64 = (x * y) >> 64
        hs32 = (sx(x32, 32) * sx(y32, 32)) >> 32
        hu32 = (x32 * y32) >> 32
        hs16 = (sx(x16, 16) * sx(y16, 16)) >> 16
        out += [hs64 & M64, hu64 & M64, (hs64 + z) & M64, (hu64 + z) & M64, (x * y) & M64,
                hs32 & M32, hu32 & M32, (hs32 + z32) & M32, (hu32 + z32) & M32,
                # column 9: mul.lo.s32 here; mad.hi.sat.s32 (the PTX ISA's clamp) in mad_hi_sat_context
                (x32 * y32) & M32 if case == "mulhi_extremes" else
                min(max(hs32 + sx(z32, 32), -(1 << 31)), (1 << 31) - 1) & M32,
                (sx(x32, 32) * sx(y32, 32)) & M64, (x32 * y32) & M64, (sx(x32, 32) * sx(y32, 32) + z) & M64,
                (x32 * y32 + z) & M64,
                hs16 & 0xFFFF, ((x16 * y16) >> 16) & 0xFFFF, (hs16 + z16) & 0xFFFF,
                (sx(x16, 16) * sx(y16, 16)) & M32, (x16 * y16) & M32, (sx(x16, 16) * sx(y16, 16) + z32) & M32]
    return {"out": (out, "Q")}


def carry_chains():
    a, b, c = (words(os.path.join(CORPUS, "carry_chains", "inputs", n + ".bin"), "Q") for n in "abc")
    o32, o64 = [], []

    def add(p, q, cin, n):  # (sum, carry out) of p + q + cin in n bits
        s = (p & ((1 << n) - 1)) + (q & ((1 << n) - 1)) + cin
        return s & ((1 << n) - 1), s >> n

    def chains(x, y, z, n, out, prods, cons):
        m = (1 << n) - 1
        for pre, prod in prods:
            cf = 0
            if pre == "add zz":
                _, cf = add(z, z, 0, n)
            elif pre == "sub zx":
                _, cf = add(z, ~x, 1, n)
            for con in cons:
                r1, cf1 = prod(x, y, z, cf, n)
                r2, _ = con(y, x, z, cf1, n)
                out += [r1 & m, r2 & m]

    def hi(p, q, n, signed):
        if signed:
            return (sx(p, n) * sx(q, n)) >> n
        return ((p & ((1 << n) - 1)) * (q & ((1 << n) - 1))) >> n

    addcc = lambda x, y, z, cf, n: add(x, y, 0, n)
    subcc = lambda x, y, z, cf, n: add(x, ~y, 1, n)
    madlo = lambda x, y, z, cf, n: add(x * y, z, 0, n)
    madhi_u = lambda x, y, z, cf, n: add(hi(x, y, n, False), z, 0, n)
    madhi_s = lambda x, y, z, cf, n: add(hi(x, y, n, True), z, 0, n)
    addc = lambda x, y, z, cf, n: add(x, y, cf, n)
    subc = lambda x, y, z, cf, n: add(x, ~y, cf, n)
    madclo = lambda x, y, z, cf, n: add(x * y, z, cf, n)
    madchi = lambda x, y, z, cf, n: add(hi(x, y, n, False), z, cf, n)
    readout = lambda x, y, z, cf, n: add(0, 0, cf, n)
    swapped_madhi = lambda x, y, z, cf, n: add(hi(y, x, n, False), z, 0, n)
    for x, y, z in zip(a, b, c):
        chains(x & M32, y & M32, z & M32, 32, o32,
               [("", addcc), ("", subcc), ("", madlo), ("", madhi_u), ("", madhi_s), ("add zz", addc),
                ("add zz", subc), ("sub zx", subc)], [addc, subc, madclo, madchi, readout])
        chains(x, y, z, 64, o64,
               [("", addcc), ("", subcc), ("", madlo), ("", madhi_u), ("", madhi_s), ("add zz", addc),
                ("add zz", subc), ("sub zx", subc), ("", addcc), ("", subcc), ("", madlo), ("", swapped_madhi)],
               [addc, subc, madclo, readout])
    return {"out32": (o32, "I"), "out64": (o64, "Q")}


def rand_bits(seed, nbytes):
    s, out = seed, b""
    while len(out) < nbytes:
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        out += struct.pack("<Q", z ^ (z >> 31))
    return out[:nbytes]


def int64_sext_ops():
    """NVIDIA's rules for the undefined cases are the measured ones (docs/HAZARDS_IMPLEMENTED.md): div.s64 by 0 and
    rem.s64 by 0 give -1, div.u64 by 0 all ones, rem.u64 by 0 the dividend, INT64_MIN / -1 INT64_MIN."""
    A = struct.unpack("<4096i", rand_bits(701, 16384))
    B = struct.unpack("<4096i", rand_bits(702, 16384))
    out = []

    def tdiv(x, y):
        q = abs(x) // abs(y)
        return q if (x < 0) == (y < 0) else -q

    for p, q in zip(A, B):
        s1, s2 = p, q
        w = sx(((p & M32) << 32) | (q & M32), 64)
        z2 = q & M32
        hi = lambda x, y: (x * y) >> 64
        u = lambda v: v & M64
        d_s = lambda x, y: -1 if y == 0 else tdiv(x, y)
        r_s = lambda x, y: -1 if y == 0 else x - tdiv(x, y) * y
        d_u = lambda x, y: M64 if y == 0 else u(x) // u(y)
        r_u = lambda x, y: u(x) if y == 0 else u(x) % u(y)
        c = q & 63
        pos = z2 & 63
        field = [(s1 >> min(pos + k, 63)) & 1 for k in range(12)]
        bfe = sum(bit << k for k, bit in enumerate(field)) | ((-1 << 12) if field[11] else 0)
        out += [u(hi(s1, s2)), u(hi(u(s1), u(s2))), u(hi(w, s2)), u(hi(s1, z2)), u(hi(s1, s2) + w), u(s1 * s2),
                u(d_s(w, s2)), u(r_s(w, s2)), d_u(w, s2), r_u(w, s2), u(d_s(s1, s2)), u(r_s(s1, s2)),
                u(min(s1, s2)), u(max(w, s1)), min(u(s1), z2), u(abs(s1)), u(w >> c),
                int(s1 < s2), int(u(s1) < u(s2)), int(w > s1),
                struct.unpack("<Q", struct.pack("<d", float(s1 * 1000003)))[0], u(abs(s1 - s2) + w), u(s1 & w),
                u(bfe), (s1 if s1 >= 0 else ~s1).bit_length() - 1 & M32, u(-s1)]
    return {"out": (out, "Q")}


def call_scoping():

    def f(t1, t2):
        r1, r2 = 0, t2
        for _ in range(4):
            r1 = (r1 * 31 + r2) & M32
            r2 = (r2 + t1) & M32
        return r1 ^ 0x5A5A

    def g(t):
        return (f((t + 1000) & M32, t) + t) & M32

    vals = rand_u32(4242, 256, 0, 1000000)
    out = []
    for t in range(128):
        t1, t2 = vals[2 * t], vals[2 * t + 1]
        temp2 = f(t1, t2)
        o1 = f(temp2, t1)
        temp1 = g(temp2)
        o4 = (temp1 * 1000 + t) & M32
        r5, r6 = 0, 0
        while True:
            r6 = (r6 + f(r5, t)) & M32
            r6 ^= g(r6)
            r5 += 1
            if r5 >= 3:
                break
        out += [temp2, o1, 33, temp1, o4, r6]
    return {"out": (out, "I")}


def rand_u32(seed, n, lo, hi):
    s, r = seed, []
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        r.append(lo + ((z * (hi - lo + 1)) >> 64))
    return r


MODELS = {"cvt_pack": cvt_pack, "mulhi_extremes": mulhi_extremes,
          "mad_hi_sat_context": lambda: mulhi_extremes("mad_hi_sat_context"), "int64_sext_ops": int64_sext_ops,
          "carry_chains": carry_chains, "call_scoping": call_scoping}


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    bad = 0
    for name in argv[2:] or MODELS:
        for out, (want, fmt) in MODELS[name]().items():
            got = words(os.path.join(argv[1], name, out + ".bin"), fmt)
            diff = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
            print(f"{name} {out}: {len(diff)} of {len(want)} values differ from the model")
            for i in diff[:8]:
                print(f"  value {i}: got {got[i] if i < len(got) else None:#x}, model {want[i]:#x}")
            bad += len(diff)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
