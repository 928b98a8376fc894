"""Models for tests/tensor/check_tensor_cases.py: the case input generator (docs/CASE_INPUTS.md), the ldmatrix /
stmatrix / movmatrix layouts (PTX ISA), and the tensor-core arithmetic of docs/MMA.md (a Python transcription of
the GLSL p2g_mma_float, itself the C++ model runtime/cuda_ref/probes/mma/mma_model.h: f16, bf16, tf32, f32)."""
import struct

M64 = (1 << 64) - 1


def splitmix64(seed):
    state = seed & M64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]  # round to nearest even


def bf16_bits(x):
    """double -> bf16 bits, round to nearest even (finite x within range)."""
    if x == 0:
        return 0x8000 if str(x).startswith("-") else 0
    import math
    neg = x < 0
    m, e = math.frexp(abs(x))  # abs(x) = m 2^e, m in [0.5, 1)
    # bf16: 8 significant bits; exact scaled value s = m * 2^8 (an integer part and a remainder)
    from fractions import Fraction
    s = Fraction(abs(x)) / Fraction(2) ** (e - 8)
    q = s.numerator // s.denominator
    rem = s - q
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and q & 1):
        q += 1
    if q == 256:
        q, e = 128, e + 1
    be = e - 1 + 127  # value = q 2^(e-8), q in [128, 256)
    assert 0 < be < 255, x
    return (0x8000 if neg else 0) | (be << 7) | (q & 0x7F)


def fma(a, b, c):
    """a * b + c with one rounding (math.fma needs Python 3.13): exact in fractions, and int / int division in
    Fraction.__float__ is correctly rounded."""
    from fractions import Fraction
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def init_bytes(n, init):
    if "zero" in init:
        return bytes(n)
    if "random" in init:
        r = init["random"]
        g = splitmix64(r["seed"])
        t = r["type"]
        if t == "bits":
            out = bytearray()
            while len(out) < n:
                out += struct.pack("<Q", next(g))
            return bytes(out[:n])
        ints = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "u32": 4, "s32": 4, "u64": 8, "s64": 8}
        if t in ints:  # lo + floor(r span / 2^64), two's complement (docs/CASE_INPUTS.md)
            w = ints[t]
            lo = r.get("lo", -(1 << (8 * w - 1)) if t[0] == "s" else 0)
            hi = r.get("hi", (1 << (8 * w - 1)) - 1 if t[0] == "s" else (1 << (8 * w)) - 1)
            span = (hi - lo + 1) % (1 << 64)
            out = bytearray()
            for _ in range(n // w):
                x = next(g)
                v = lo + ((x * span) >> 64) if span else lo + x
                out += (v % (1 << (8 * w))).to_bytes(w, "little")
            return bytes(out) + bytes(n - len(out))
        lo, hi = float(r.get("lo", 0.0)), float(r.get("hi", 1.0))
        size = {"f16": 2, "bf16": 2, "f32": 4}[t]
        out = bytearray()
        import math
        for _ in range(n // size):
            u = (next(g) >> 11) * 2.0 ** -53
            x = fma(hi - lo, u, lo)
            if t == "f16":
                out += struct.pack("<H", f16_bits(x))
            elif t == "bf16":
                out += struct.pack("<H", bf16_bits(x))
            else:
                out += struct.pack("<f", x)
        return bytes(out) + bytes(n - len(out))
    raise ValueError(f"init {init} not modelled")


def ld_frag(m, lane, trans):
    """The register ldmatrix gives `lane` from the 8x8 matrix m (rows as read from memory)."""
    g, t = lane >> 2, lane & 3
    if trans:
        return m[2 * t][g] | (m[2 * t + 1][g] << 16)
    return m[g][2 * t] | (m[g][2 * t + 1] << 16)


def frag_matrix(regs):
    """The 8x8 matrix whose element (r, c) lane 4r + c/2 holds in regs[lane] (half c & 1)."""
    return [[(regs[4 * r + c // 2] >> (16 * (c & 1))) & 0xFFFF for c in range(8)] for r in range(8)]


# ---- tensor-core arithmetic (docs/MMA.md) ----

def dec(v, ty):
    """(kind, neg, sig, e, frac): kind 0 finite, 1 inf, 2 NaN; value sig 2^(e - frac). ty: f16, bf16, tf32, f32."""
    if ty == "tf32":  # an f32 register whose low 13 bits the tensor core ignores (docs/MMA.md)
        v, ty = v >> 13, "tf32bits"
    eb, mb = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "tf32bits": (8, 10)}[ty]
    neg = (v >> (eb + mb)) & 1
    E = (v >> mb) & ((1 << eb) - 1)
    m = v & ((1 << mb) - 1)
    bias = (1 << (eb - 1)) - 1
    kind = (2 if m else 1) if E == (1 << eb) - 1 else 0
    if E == 0:
        return kind, neg, m, 1 - bias, mb
    return kind, neg, m | (1 << mb), E - bias, mb


def round_bits(S, q, out16, rne):
    """S 2^q rounded to f32 or f16 bits (docs/MMA.md rule 5)."""
    if S == 0:
        return 0
    neg = S < 0
    U = -S if neg else S
    L = U.bit_length() - 1
    mb, bias, emaxb = (10, 15, 31) if out16 else (23, 127, 255)
    lsb = max(L + q - mb, 1 - bias - mb)
    drop = lsb - q
    r = U << -drop if drop <= 0 else U >> drop
    if rne and drop > 0:
        rem = U & ((1 << drop) - 1)
        h = 1 << (drop - 1)
        if rem > h or (rem == h and r & 1):
            r += 1
        if r >> (mb + 1):
            r >>= 1
            lsb += 1
    sign = (0x8000 if out16 else 0x80000000) if neg else 0
    if r >> mb == 0:
        return sign | r
    be = lsb + mb + bias
    if be >= emaxb:
        return sign | (0x7C00 if out16 else 0x7F800000)
    return sign | (be << mb) | (r & ((1 << mb) - 1))


def mma_elem(a, b, tab, c, tc, out16):
    """sum_k a[k] b[k] + c, one fused sum (F = 25 bits below the largest exponent, cut toward zero), rounded:
    f32 toward zero, f16 to nearest even."""
    terms = []
    nan = pinf = ninf = False
    for x, y in zip(a, b):
        ka, na, sa, ea, fa = dec(x, tab)
        kb, nb, sb, eb, fb = dec(y, tab)
        neg = na != nb
        if ka == 2 or kb == 2:
            nan = True
        elif ka == 1 or kb == 1:
            if (ka == 0 and sa == 0) or (kb == 0 and sb == 0):
                nan = True
            elif neg:
                ninf = True
            else:
                pinf = True
        elif sa and sb:
            terms.append((sa * sb, ea + eb, fa + fb, neg))
    kc, nc, sc, ec, fc = dec(c, tc)
    if kc == 2:
        nan = True
    elif kc == 1:
        ninf, pinf = (True, pinf) if nc else (ninf, True)
    elif sc:
        terms.append((sc, ec, fc, nc))
    if nan or (pinf and ninf):
        return 0x7FFF if out16 else 0x7FFFFFFF
    if pinf or ninf:
        return (0xFC00 if ninf else 0x7C00) if out16 else (0xFF800000 if ninf else 0x7F800000)
    if not terms:
        return 0
    emax = max(t[1] for t in terms)
    S = 0
    for sig, e, f, neg in terms:
        sh = e - f - emax + 25
        v = sig << sh if sh >= 0 else sig >> -sh
        S += -v if neg else v
    return round_bits(S, emax - 25, out16, out16)


def f32_to_f16(x):
    """cvt.rn.f16.f32 on bits."""
    s = x & 0x80000000
    E = (x >> 23) & 0xFF
    m = x & 0x7FFFFF
    if E == 0xFF:
        return 0x7FFF if m else (s >> 16) | 0x7C00
    if E == 0 and m == 0:
        return s >> 16
    S = m | 0x800000 if E else m
    q = (E if E else 1) - 150
    r = round_bits(-S if s else S, q, True, True)
    return r if r else s >> 16
