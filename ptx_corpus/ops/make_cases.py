#!/usr/bin/env python3
"""Writes the op conformance cases of ptx_corpus/ops/ (kernel.cu, case.json) from the table below, compiles each
kernel.cu with the command on its first line, and checks the PTX with ptxas.

usage: ptx_corpus/ops/make_cases.py [--no-compile] [NAME...]

Every case is one instruction x modifier family. Each variant is one PTX instruction written as CUDA inline asm
(so the PTX holds exactly that instruction) and writes its own output buffer, so `ptx2glsl run` reports
differing / total per instruction. Inputs are made in the kernel from the thread index and a `salt` parameter by
integer code (an integer hash choosing between edge values, denormals, values next to edges, short mantissas,
operands correlated with each other, and random bit patterns), so the same PTX covers 2^20+ values on the GPU
(ptx_corpus/ops/gpu_sweep.sh changes only the grid and the salt). 16-bit operands: the first operand runs
through all 65,536 patterns (x2 forms: lane 0 through the lower half, lane 1 through the upper half), the others
are sampled.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILE = "nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx"

# ---- the input generator (CUDA, pasted into every kernel.cu) ----
GEN = r"""
// ---- inputs: integer code only, so the inputs are the same bits on every device ----
__device__ __forceinline__ uint32_t mix(uint32_t x) {  // a 32-bit integer hash (lowbias32)
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__constant__ uint32_t kEdge32[32] = {
  0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00800000u, 0x80800000u,
  0x3F800000u, 0xBF800000u, 0x3F800001u, 0x3F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
  0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FBFFFFFu, 0xFFFFFFFFu, 0x7FC12345u, 0x3F000000u, 0x40000000u,
  0x40400000u, 0x4B000000u, 0x4B800000u, 0x4F000000u, 0x5F000000u, 0x33800000u, 0x00400000u, 0x3EFFFFFFu};
__constant__ uint32_t kEdge16[32] = {
  0x0000u, 0x8000u, 0x0001u, 0x8001u, 0x03FFu, 0x83FFu, 0x0400u, 0x8400u, 0x3C00u, 0xBC00u, 0x3C01u, 0x3BFFu,
  0x7BFFu, 0xFBFFu, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE00u, 0x7C01u, 0x7DFFu, 0xFFFFu, 0x7E55u, 0x3800u, 0x4000u,
  0x4200u, 0x6400u, 0x6800u, 0x1400u, 0x0200u, 0x37FFu, 0x7BFEu, 0x3555u};
__constant__ uint32_t kEdgeBf[32] = {
  0x0000u, 0x8000u, 0x0001u, 0x8001u, 0x007Fu, 0x807Fu, 0x0080u, 0x8080u, 0x3F80u, 0xBF80u, 0x3F81u, 0x3F7Fu,
  0x7F7Fu, 0xFF7Fu, 0x7F80u, 0xFF80u, 0x7FC0u, 0xFFC0u, 0x7F81u, 0x7FBFu, 0xFFFFu, 0x7FD5u, 0x3F00u, 0x4000u,
  0x4040u, 0x4B00u, 0x4B80u, 0x3380u, 0x0040u, 0x3EFFu, 0x7F7Eu, 0x3EABu};
__constant__ uint32_t kEdgeInt[16] = {
  0u, 1u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u, 2u, 31u, 32u, 33u, 63u, 64u, 0xFFFFFFFEu, 255u, 256u, 16u};

// f32 bit patterns: edge values, denormals, neighbours of edges, short mantissas (exact products, ties), random bits
__device__ uint32_t gen32(uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 7u;
  if (k <= 1u) return kEdge32[(h >> 3) & 31u];
  if (k == 2u) return r & 0x807FFFFFu;
  if (k == 3u) return kEdge32[(h >> 3) & 31u] ^ (r & 7u);
  if (k == 4u) return r & 0xFFFFF000u;
  return r;
}
// a second f32 operand related to a: same exponent (cancellation, ties), a with low bits and sign changed,
// exponent a few steps away (alignment, sticky bits), or independent
__device__ uint32_t near32(uint32_t a, uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x85EBCA6Bu + salt), r = mix(h + 0x27d4eb2fu);
  uint32_t k = h & 3u;
  if (k == 0u) return (a & 0x7F800000u) | (r & 0x807FFFFFu);
  if (k == 1u) return a ^ (r & 0x8000003Fu);
  if (k == 2u) {
    int e = int((a >> 23) & 255u) + int(r & 63u) - 32;
    e = e < 0 ? 0 : e > 254 ? 254 : e;
    return (r & 0x807FFFFFu) | (uint32_t(e) << 23);
  }
  return gen32(i, salt ^ 0x6A09E667u);
}
// a third operand for fma: often minus the (truncated) product a*b, so the sum cancels
__device__ uint32_t fmac32(uint32_t a, uint32_t b, uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0xC2B2AE35u + salt), r = mix(h + 0x165667b1u);
  uint32_t ea = (a >> 23) & 255u, eb = (b >> 23) & 255u;
  if ((h & 1u) || ea == 0u || eb == 0u || ea == 255u || eb == 255u) return near32(a, i, salt ^ 0xBB67AE85u);
  uint64_t p = uint64_t((a & 0x7FFFFFu) | 0x800000u) * uint64_t((b & 0x7FFFFFu) | 0x800000u);
  int e = int(ea) + int(eb) - 127;
  uint32_t m;
  if (p >> 47) { m = uint32_t(p >> 24); e += 1; } else { m = uint32_t(p >> 23); }
  if (e <= 0 || e >= 255) return gen32(i, salt ^ 0x3C6EF372u);
  m = (m & 0x7FFFFFu) ^ ((h & 2u) ? (r & 3u) : 0u);
  return ((a ^ b ^ ((h & 4u) ? 0x80000000u : 0u)) & 0x80000000u) | (uint32_t(e) << 23) | m;
}
// 16-bit patterns (f16 or bf16 table)
__device__ uint32_t gen16(uint32_t i, uint32_t salt, bool bf) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 7u;
  uint32_t e = bf ? kEdgeBf[(h >> 3) & 31u] : kEdge16[(h >> 3) & 31u];
  if (k <= 1u) return e;
  if (k == 2u) return r & (bf ? 0x807Fu : 0x83FFu);
  if (k == 3u) return e ^ (r & 3u);
  if (k == 4u) return (bf ? (r & 0xFFF8u) : (r & 0xFFE0u));
  return r & 0xFFFFu;
}
__device__ uint32_t near16(uint32_t a, uint32_t i, uint32_t salt, bool bf) {
  uint32_t h = mix(i * 0x85EBCA6Bu + salt), r = mix(h + 0x27d4eb2fu);
  uint32_t k = h & 3u;
  uint32_t em = bf ? 0x7F80u : 0x7C00u;
  if (k == 0u) return (a & em) | (r & ~em & 0xFFFFu);
  if (k == 1u) return (a ^ (r & 0x8007u)) & 0xFFFFu;
  if (k == 2u) {
    int sh = bf ? 7 : 10, emax = bf ? 254 : 30;
    int x = int((a & em) >> sh) + int(r & 15u) - 8;
    x = x < 0 ? 0 : x > emax ? emax : x;
    return (r & (0xFFFFu & ~em)) | (uint32_t(x) << sh);
  }
  return gen16(i, salt ^ 0x6A09E667u, bf);
}
// integers: edge values, small values (shift counts, bit positions), random
__device__ uint32_t genInt(uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 3u;
  if (k == 0u) return kEdgeInt[(h >> 2) & 15u];
  if (k == 1u) return r & 127u;
  if (k == 2u) return (h & 4u) ? (r & 0xFFFFu) : (0u - (r & 0xFFFFu));
  return r;
}
"""

# Operands whose exact product, fma or sum lies within a few ulps of +-2^-126 (f32 .ftz tininess, HAZARDS row 5),
# by lane kind i & 3: 0 = a*b near 2^-126 (c = +-0); 1, 2 = a*b near 2^(s-126), s in 1..3, and c = -(2^s - 1) *
# 2^-126, so that a*b + c is near 2^-126 with fine bits below 2^-149 from the product; 3 = a + b near 2^-126 or
# tiny. The significand product ma*mb is 2^47 + t*2^21 (t in [-40, 23]) less up to one ma, so the exact results
# step through the rn boundary 2^-126 - 2^-151 and the directed-mode boundaries 2^-126 - 2^-150, 2^-126 - 2^-149.
GEN_TINY = r"""
__constant__ uint32_t kTinyC[3] = {0x00800000u, 0x01400000u, 0x01E00000u};  // (2^s - 1) * 2^-126, s = 1..3
__device__ void tiny32(uint32_t i, uint32_t salt, uint32_t& a, uint32_t& b, uint32_t& c) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u), q = mix(r + 0x6A09E667u);
  uint32_t kind = i & 3u, neg = h & 0x80000000u;
  if (kind == 3u) {  // a in the lowest binades; b = -a moved by a few units of 2^-149, or from the binade below
    uint32_t ea = 1u + (h >> 8) % 3u;
    a = (ea << 23) | (r & 0x7FFFFFu);
    b = (h & 0x100u) ? a + (q & 15u) - 8u : ((ea > 1u ? ea - 1u : 1u) << 23) | ((q >> 9) & 0x7FFFFFu);
    a |= neg;
    b = (b & 0x7FFFFFFFu) | (neg ^ 0x80000000u);
    c = gen32(i, salt ^ 0x7654321u);
    return;
  }
  uint32_t s = kind == 0u ? 0u : 1u + (h >> 8) % 3u;
  uint32_t ma = 0x800000u | (r & 0x7FFFFFu);
  int64_t t = int64_t(q & 63u) - 40;
  uint64_t target = uint64_t(int64_t(1) << 47) + uint64_t(t * (int64_t(1) << 21));
  uint32_t mb = uint32_t(target / ma) + (q >> 6) % 3u - 1u;
  mb = mb < 0x800000u ? 0x800000u : mb > 0xFFFFFFu ? 0xFFFFFFu : mb;
  // a value is m * 2^(E - 150) for the biased exponent E: Ea + Eb = 127 + s puts the product near 2^(s - 126)
  uint32_t sum = 127u + s, ea = 1u + (h >> 10) % (sum - 1u), eb = sum - ea;
  a = neg | (ea << 23) | (ma & 0x7FFFFFu);
  b = ((h << 1) & 0x80000000u) | (eb << 23) | (mb & 0x7FFFFFu);
  c = s == 0u ? (q & 0x80000000u) : (((a ^ b) & 0x80000000u) ^ 0x80000000u) | kTinyC[s - 1u];
}
"""

# ---- input kinds: how a, b, c (u32 words) and the thread count come about ----
# f: f32 operands; h/bf: 16-bit scalars (a exhaustive over 65,536 threads); hx2/bfx2: packed pairs (a's lanes
# exhaustive over 32,768 threads); i: integers; x16: the 16-bit pattern itself (exhaustive).
INPUTS = {
    "f": ("uint32_t a = gen32(i, salt), b = near32(a, i, salt ^ 0x1234567u), c = fmac32(a, b, i, salt ^ 0x7654321u);", 16384),
    "h": ("uint32_t a = i & 0xFFFFu, b = near16(gen16(i, salt, false), i, salt ^ 0x1234567u, false), "
          "c = gen16(i, salt ^ 0x7654321u, false);", 65536),
    "bf": ("uint32_t a = i & 0xFFFFu, b = near16(gen16(i, salt, true), i, salt ^ 0x1234567u, true), "
           "c = gen16(i, salt ^ 0x7654321u, true);", 65536),
    "hx2": ("uint32_t a = (i & 0x7FFFu) | (((i + 0x8000u) & 0xFFFFu) << 16); "
            "uint32_t b = near16(a & 0xFFFFu, i, salt ^ 0x1234567u, false) | (near16(a >> 16, i, salt ^ 0x2345678u, false) << 16); "
            "uint32_t c = gen16(i, salt ^ 0x7654321u, false) | (gen16(i, salt ^ 0x8765432u, false) << 16);", 32768),
    "bfx2": ("uint32_t a = (i & 0x7FFFu) | (((i + 0x8000u) & 0xFFFFu) << 16); "
             "uint32_t b = near16(a & 0xFFFFu, i, salt ^ 0x1234567u, true) | (near16(a >> 16, i, salt ^ 0x2345678u, true) << 16); "
             "uint32_t c = gen16(i, salt ^ 0x7654321u, true) | (gen16(i, salt ^ 0x8765432u, true) << 16);", 32768),
    "x16": ("uint32_t a = i & 0xFFFFu, b = gen32(i, salt), c = 0u;", 65536),
    "i": ("uint32_t a = genInt(i, salt), b = genInt(i, salt ^ 0x1234567u), c = genInt(i, salt ^ 0x7654321u);", 16384),
    "d": ("uint32_t a = gen32(i, salt), b = near32(a, i, salt ^ 0x1234567u), c = fmac32(a, b, i, salt ^ 0x7654321u);", 16384),
    "ftiny": ("uint32_t a, b, c; tiny32(i, salt, a, b, c);", 65536),
}

# C declarations available to variants: fa fb fc (float), a b c (u32), ha hb hc (u16), A B C (u64 from two
# words), DA DB DC (double: the f32 pattern widened exactly in integer code, or raw 64-bit patterns)
DECLS = """
  float fa = __uint_as_float(a), fb = __uint_as_float(b), fc = __uint_as_float(c);
  unsigned short ha = (unsigned short)a, hb = (unsigned short)b, hc = (unsigned short)c;
  uint64_t A = (uint64_t(mix(a ^ 0x9E3779B9u)) << 32) | a, B = (uint64_t(b) << 32) | mix(b + 0x3C6EF372u);
  uint64_t C = (uint64_t(c) << 32) | mix(c ^ 0x7F4A7C15u);
  if ((i & 3u) == 0u) { A = uint64_t(int64_t(int32_t(a))); B = uint64_t(b); }
  double DA = __longlong_as_double((long long)A);
"""
DECLS_D = """
  uint64_t A = (uint64_t(a) << 32) | (mix(a ^ 0x9E3779B9u) & ((i & 1u) ? 0xFFFFFFFFu : 0xFFFF0000u));
  uint64_t B = (uint64_t(b) << 32) | (mix(b + 0x3C6EF372u) & ((i & 2u) ? 0xFFFFFFFFu : 0u));
  uint64_t C = (uint64_t(c) << 32) | mix(c ^ 0x7F4A7C15u);
  // f32 exponent range moved into f64 range for some lanes (denormals, overflow of f64)
  if ((mix(i + salt) & 7u) == 0u) A = (A & 0x800FFFFFFFFFFFFFull) | (uint64_t(mix(i) & 0x7FFu) << 52);
  double DA = __longlong_as_double((long long)A), DB = __longlong_as_double((long long)B), DC = __longlong_as_double((long long)C);
"""

CT = {"f": "float", "r": "uint32_t", "h": "unsigned short", "l": "uint64_t", "d": "double"}
OUT = {"f": ("u32", "__float_as_uint(d)", 4), "r": ("u32", "d", 4), "h": ("u16", "d", 2), "l": ("u64", "d", 8),
       "d": ("u64", "(uint64_t)__double_as_longlong(d)", 8)}
SRC = {"f": ["fa", "fb", "fc"], "r": ["a", "b", "c"], "h": ["ha", "hb", "hc"], "l": ["A", "B", "C"],
       "d": ["DA", "DB", "DC"]}


def V(name, ptx, dst, srcs, instr=None):
    """One variant: `ptx` uses %0 (destination) and %1.. (sources); dst and srcs are constraint letters."""
    return {"name": name, "ptx": ptx, "dst": dst, "srcs": srcs, "instr": instr or ptx.split()[0]}


def P(name, op, cmps, ty, src="f"):
    """A predicate-bits variant: bit k of the u32 result is `op.cmps[k].ty p, a, b`."""
    return {"name": name, "bits": [(c, f"{{ .reg .pred p; {op}.{c}.{ty} p, %1, %2; selp.u32 %0, 1, 0, p; }}") for c in cmps],
            "srcs": src * 2, "instr": f"{op}.<cmp>.{ty}"}


def T(name, tests, ty, src):
    return {"name": name, "bits": [(t, f"{{ .reg .pred p; testp.{t}.{ty} p, %1; selp.u32 %0, 1, 0, p; }}") for t in tests],
            "srcs": src, "unary": True, "instr": f"testp.<test>.{ty}"}


def bin_(op, ty, dst="f", suffix=False):
    name = op.replace(".", "_") + ("_" + ty if suffix else "")
    return V(name, f"{op}.{ty} %0, %1, %2;", dst, dst * 2, f"{op}.{ty}")


CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]

CASES = {}


def case(name, inputs, desc, variants):
    CASES[name] = {"inputs": inputs, "desc": desc, "variants": variants}


# ---- f32 arithmetic (HAZARDS rows 3, 5, 6, 7, 14) ----
case("f32_add", "f", "add.f32 in every rounding mode, .ftz, .sat",
     [bin_(m, "f32") for m in ["add", "add.rn", "add.rz", "add.rm", "add.rp", "add.ftz", "add.sat", "add.rm.ftz.sat"]])
case("f32_sub", "f", "sub.f32 in every rounding mode, .ftz, .sat",
     [bin_(m, "f32") for m in ["sub", "sub.rz", "sub.rm", "sub.rp", "sub.ftz", "sub.sat", "sub.rn.ftz"]])
case("f32_mul", "f", "mul.f32 in every rounding mode, .ftz, .sat",
     [bin_(m, "f32") for m in ["mul", "mul.rz", "mul.rm", "mul.rp", "mul.ftz", "mul.sat", "mul.rn.ftz.sat"]])
case("f32_fma", "f", "fma.f32 (single rounding) in every rounding mode, .ftz, .sat; mad.rn",
     [V(m.replace(".", "_"), f"{m}.f32 %0, %1, %2, %3;", "f", "fff", f"{m}.f32")
      for m in ["fma.rn", "fma.rz", "fma.rm", "fma.rp", "fma.rn.ftz", "fma.rn.sat", "fma.rz.ftz.sat", "mad.rn"]])
case("f32_ftz_boundary", "ftiny", "mul/fma/add.ftz.f32 in every rounding mode on results within a few ulps of +-2^-126 "
     "(tininess after rounding with an unbounded exponent decides the flush)",
     [V(m.replace(".", "_"), f"{m}.f32 %0, %1, %2, %3;" if m.startswith("fma") else f"{m}.f32 %0, %1, %2;", "f",
        "fff" if m.startswith("fma") else "ff", f"{m}.f32")
      for op in ["mul", "fma", "add"] for m in [f"{op}.rn.ftz", f"{op}.rz.ftz", f"{op}.rm.ftz", f"{op}.rp.ftz"]]
     + [V("mul_rn_ftz_sat", "mul.rn.ftz.sat.f32 %0, %1, %2;", "f", "ff", "mul.rn.ftz.sat.f32"),
        V("fma_rn_ftz_sat", "fma.rn.ftz.sat.f32 %0, %1, %2, %3;", "f", "fff", "fma.rn.ftz.sat.f32")])
case("f32_div", "f", "div.f32: .rn/.rz/.rm/.rp (correctly rounded), .ftz, div.full, div.approx (and their .ftz)",
     [bin_(m, "f32") for m in ["div.rn", "div.rz", "div.rm", "div.rp", "div.rn.ftz", "div.full", "div.approx",
                               "div.full.ftz", "div.approx.ftz"]])
case("f32_sqrt", "f", "sqrt.f32 .rn/.rz/.rm/.rp (correctly rounded), .ftz",
     [V(m.replace(".", "_"), f"{m}.f32 %0, %1;", "f", "f", f"{m}.f32")
      for m in ["sqrt.rn", "sqrt.rz", "sqrt.rm", "sqrt.rp", "sqrt.rn.ftz"]])
case("f32_rcp", "f", "rcp.f32 .rn/.rz/.rm/.rp (correctly rounded), .ftz",
     [V(m.replace(".", "_"), f"{m}.f32 %0, %1;", "f", "f", f"{m}.f32")
      for m in ["rcp.rn", "rcp.rz", "rcp.rm", "rcp.rp", "rcp.rn.ftz"]])
case("f32_minmax", "f", "min/max.f32: NaN operand ignored, .NaN propagates (canonical), .ftz, -0 < +0, .xorsign.abs",
     [bin_(m, "f32") for m in ["min", "max", "min.NaN", "max.NaN", "min.ftz", "max.ftz.NaN", "min.xorsign.abs",
                               "max.xorsign.abs"]])
case("f32_sign", "f", "neg/abs.f32 (NaN canonicalised, measured), .ftz; copysign.f32",
     [V("neg", "neg.f32 %0, %1;", "f", "f"), V("abs", "abs.f32 %0, %1;", "f", "f"),
      V("neg_ftz", "neg.ftz.f32 %0, %1;", "f", "f", "neg.ftz.f32"), V("abs_ftz", "abs.ftz.f32 %0, %1;", "f", "f", "abs.ftz.f32"),
      V("copysign", "copysign.f32 %0, %1, %2;", "f", "ff", "copysign.f32")])
case("f32_setp", "f", "setp.f32: 14 comparisons (ordered, unordered, num, nan), with and without .ftz (bit k = comparison k)",
     [P("setp", "setp", CMPS, "f32"), P("setp_ftz", "setp", CMPS, "ftz.f32"),
      V("set_ltu", "set.ltu.u32.f32 %0, %1, %2;", "r", "ff", "set.ltu.u32.f32"),
      V("set_ge_f", "set.ge.f32.f32 %0, %1, %2;", "f", "ff", "set.ge.f32.f32")])
case("f32_testp", "f", "testp.f32 and testp.f64 (bit k = test k)",
     [T("testp_f32", ["finite", "infinite", "number", "notanumber", "normal", "subnormal"], "f32", "f"),
      T("testp_f64", ["finite", "infinite", "number", "notanumber", "normal", "subnormal"], "f64", "d")])

# ---- conversions (rows 1, 2, 5, 6, 13) ----
case("cvt_f32_int", "f", "cvt float->int: .rni/.rzi/.rmi/.rpi, saturation, NaN, .ftz, 8 to 64 bits",
     [V("rni_s32", "cvt.rni.s32.f32 %0, %1;", "r", "f"), V("rzi_ftz_s32", "cvt.rzi.ftz.s32.f32 %0, %1;", "r", "f"),
      V("rmi_u32", "cvt.rmi.u32.f32 %0, %1;", "r", "f"), V("rpi_u32", "cvt.rpi.u32.f32 %0, %1;", "r", "f"),
      V("rni_s64", "cvt.rni.s64.f32 %0, %1;", "l", "f"), V("rzi_u64", "cvt.rzi.u64.f32 %0, %1;", "l", "f"),
      V("rni_s16", "cvt.rni.s16.f32 %0, %1;", "h", "f"), V("rzi_u16", "cvt.rzi.u16.f32 %0, %1;", "h", "f")])
case("cvt_int_f32", "i", "cvt int->f32: .rn/.rz/.rm/.rp from s32/u32/s64/u64",
     [V("rn_s32", "cvt.rn.f32.s32 %0, %1;", "f", "r"), V("rz_s32", "cvt.rz.f32.s32 %0, %1;", "f", "r"),
      V("rm_u32", "cvt.rm.f32.u32 %0, %1;", "f", "r"), V("rp_u32", "cvt.rp.f32.u32 %0, %1;", "f", "r"),
      V("rn_s64", "cvt.rn.f32.s64 %0, %1;", "f", "l"), V("rz_u64", "cvt.rz.f32.u64 %0, %1;", "f", "l"),
      V("rm_s64", "cvt.rm.f32.s64 %0, %1;", "f", "l"), V("rp_u64", "cvt.rp.f32.u64 %0, %1;", "f", "l")])
case("cvt_f32_f32", "f", "cvt.f32.f32: round to integral (.rni/.rzi/.rmi/.rpi), .ftz, .sat",
     [V("rni", "cvt.rni.f32.f32 %0, %1;", "f", "f"), V("rzi", "cvt.rzi.f32.f32 %0, %1;", "f", "f"),
      V("rmi", "cvt.rmi.f32.f32 %0, %1;", "f", "f"), V("rpi", "cvt.rpi.f32.f32 %0, %1;", "f", "f"),
      V("rni_ftz", "cvt.rni.ftz.f32.f32 %0, %1;", "f", "f"), V("ftz", "cvt.ftz.f32.f32 %0, %1;", "f", "f"),
      V("sat", "cvt.sat.f32.f32 %0, %1;", "f", "f"), V("rzi_ftz_sat", "cvt.rzi.ftz.sat.f32.f32 %0, %1;", "f", "f")])
case("cvt_f32_f16", "f", "cvt f32->f16 in every rounding mode, .relu, .sat, f16x2 packing",
     [V("rn", "cvt.rn.f16.f32 %0, %1;", "h", "f"), V("rz", "cvt.rz.f16.f32 %0, %1;", "h", "f"),
      V("rm", "cvt.rm.f16.f32 %0, %1;", "h", "f"), V("rp", "cvt.rp.f16.f32 %0, %1;", "h", "f"),
      V("rn_relu", "cvt.rn.relu.f16.f32 %0, %1;", "h", "f"), V("rn_sat", "cvt.rn.sat.f16.f32 %0, %1;", "h", "f"),
      V("x2", "cvt.rn.f16x2.f32 %0, %1, %2;", "r", "ff"), V("x2_relu", "cvt.rn.relu.f16x2.f32 %0, %1, %2;", "r", "ff")])
case("cvt_f32_bf16", "f", "cvt f32->bf16 in every rounding mode, .relu, bf16x2 packing",
     [V("rn", "cvt.rn.bf16.f32 %0, %1;", "h", "f"), V("rz", "cvt.rz.bf16.f32 %0, %1;", "h", "f"),
      V("rm", "cvt.rm.bf16.f32 %0, %1;", "h", "f"), V("rp", "cvt.rp.bf16.f32 %0, %1;", "h", "f"),
      V("rn_relu", "cvt.rn.relu.bf16.f32 %0, %1;", "h", "f"),
      V("x2", "cvt.rn.bf16x2.f32 %0, %1, %2;", "r", "ff"), V("x2_relu", "cvt.rn.relu.bf16x2.f32 %0, %1, %2;", "r", "ff")])
case("cvt_f16_wide", "x16", "cvt from every f16 and bf16 pattern to f32 (exhaustive)",
     [V("f32_f16", "cvt.f32.f16 %0, %1;", "f", "h"), V("f32_bf16", "cvt.f32.bf16 %0, %1;", "f", "h")])
case("cvt_f16_int", "x16", "cvt from every f16 pattern to integers (.rni/.rzi, saturation, NaN)",
     [V("rni_s16", "cvt.rni.s16.f16 %0, %1;", "h", "h"), V("rzi_u16", "cvt.rzi.u16.f16 %0, %1;", "h", "h"),
      V("rmi_s32", "cvt.rmi.s32.f16 %0, %1;", "r", "h")])
case("cvt_fp8_from_f32", "f", "cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2.f32 (HAZARDS row 13)",
     [V("e4m3", "cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;", "h", "ff"),
      V("e4m3_relu", "cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;", "h", "ff"),
      V("e5m2", "cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;", "h", "ff"),
      V("e5m2_relu", "cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;", "h", "ff")])
case("cvt_fp8_from_f16x2", "hx2", "cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2.f16x2 (every f16 in each lane)",
     [V("e4m3", "cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;", "h", "r"),
      V("e4m3_relu", "cvt.rn.satfinite.relu.e4m3x2.f16x2 %0, %1;", "h", "r"),
      V("e5m2", "cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;", "h", "r"),
      V("e5m2_relu", "cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;", "h", "r")])
case("cvt_fp8_to_f16x2", "x16", "cvt.rn.f16x2.e4m3x2 and cvt.rn.relu.f16x2.e5m2x2 from every 16-bit pattern",
     [V("e4m3", "cvt.rn.f16x2.e4m3x2 %0, %1;", "r", "h"), V("e5m2_relu", "cvt.rn.relu.f16x2.e5m2x2 %0, %1;", "r", "h")])

# ---- half precision arithmetic (rows 1, 2, 4, 14) ----
case("f16_addsub", "h", "add/sub.f16: .rn, .sat, .ftz (every f16 as the first operand)",
     [bin_(m, "f16", "h") for m in ["add", "add.rn", "add.sat", "add.ftz", "sub.rn", "sub.rn.ftz.sat"]])
case("f16_mul_fma", "h", "mul.f16 and fma.rn.f16: .sat, .ftz, .relu",
     [bin_(m, "f16", "h") for m in ["mul.rn", "mul.sat", "mul.ftz"]] +
     [V(m.replace(".", "_"), f"{m}.f16 %0, %1, %2, %3;", "h", "hhh", f"{m}.f16")
      for m in ["fma.rn", "fma.rn.sat", "fma.rn.ftz", "fma.rn.relu"]])
case("f16x2_arith", "hx2", "f16x2 add/sub/mul/fma with .sat/.ftz/.relu (every f16 in each lane)",
     [bin_(m, "f16x2", "r") for m in ["add.rn", "sub.sat", "mul.ftz"]] +
     [V(m.replace(".", "_"), f"{m}.f16x2 %0, %1, %2, %3;", "r", "rrr", f"{m}.f16x2")
      for m in ["fma.rn", "fma.rn.relu", "fma.rn.ftz.sat"]])
case("bf16_arith", "bf", "bf16 add/sub/mul/fma (.rn, .relu)",
     [bin_(m, "bf16", "h") for m in ["add.rn", "sub.rn", "mul.rn"]] +
     [V(m.replace(".", "_"), f"{m}.bf16 %0, %1, %2, %3;", "h", "hhh", f"{m}.bf16") for m in ["fma.rn", "fma.rn.relu"]])
case("bf16x2_arith", "bfx2", "bf16x2 add/mul/fma (.rn, .relu)",
     [bin_(m, "bf16x2", "r") for m in ["add.rn", "mul.rn"]] +
     [V(m.replace(".", "_"), f"{m}.bf16x2 %0, %1, %2, %3;", "r", "rrr", f"{m}.bf16x2") for m in ["fma.rn", "fma.rn.relu"]])
case("f16_minmax", "h", "min/max on f16, f16x2, bf16: NaN rules, .NaN, .ftz, .xorsign.abs",
     [bin_(m, "f16", "h", True) for m in ["min", "max", "min.NaN", "max.ftz.NaN"]] +
     [bin_(m, "bf16", "h", True) for m in ["min", "max.NaN", "min.xorsign.abs"]] +
     [bin_(m, "f16x2", "r", True) for m in ["min", "max.NaN"]])
case("f16_sign", "x16", "neg/abs on every f16/bf16 pattern (.ftz), and x2 forms",
     [V(m.replace(".", "_") + "_" + t, f"{m}.{t} %0, %1;", "h", "h", f"{m}.{t}")
      for m, t in [("neg", "f16"), ("abs", "f16"), ("neg.ftz", "f16"), ("abs.ftz", "f16"), ("neg", "bf16"), ("abs", "bf16")]])
case("f16_setp", "h", "setp on f16 and bf16 (14 comparisons, .ftz; bit k = comparison k); set.f16x2",
     [P("setp_f16", "setp", CMPS, "f16", "h"), P("setp_ftz_f16", "setp", CMPS, "ftz.f16", "h"),
      P("setp_bf16", "setp", CMPS, "bf16", "h"),
      V("set_ltu_f16x2", "set.ltu.f16x2.f16x2 %0, %1, %2;", "r", "rr", "set.ltu.f16x2.f16x2")])

# ---- f64 (row 6: directed rounding; row 3: fma) ----
case("f64_arith", "d", "f64 add/mul/fma/div/sqrt/rcp, .rn and directed rounding",
     [bin_(m, "f64", "d") for m in ["add.rn", "add.rz", "mul.rm", "div.rn", "div.rp"]] +
     [V("fma_rn", "fma.rn.f64 %0, %1, %2, %3;", "d", "ddd", "fma.rn.f64"),
      V("fma_rz", "fma.rz.f64 %0, %1, %2, %3;", "d", "ddd", "fma.rz.f64"),
      V("sqrt_rn", "sqrt.rn.f64 %0, %1;", "d", "d", "sqrt.rn.f64")])
case("f64_misc", "d", "f64 min/max/neg/abs, setp bits, cvt f64<->f32/int",
     [bin_(m, "f64", "d") for m in ["min", "max"]] +
     [V("neg", "neg.f64 %0, %1;", "d", "d", "neg.f64"), P("setp", "setp", CMPS, "f64", "d"),
      V("cvt_rn_f32", "cvt.rn.f32.f64 %0, %1;", "f", "d"), V("cvt_rz_ftz_f32", "cvt.rz.ftz.f32.f64 %0, %1;", "f", "d"),
      V("cvt_rni_s64", "cvt.rni.s64.f64 %0, %1;", "l", "d"), V("cvt_rm_f64_s64", "cvt.rm.f64.s64 %0, %1;", "d", "l")])

# ---- issue 3, third round: the forms the first cases did not measure ----
case("f64_round", "d", "f64 add/sub/mul/fma in the directed modes f64_arith does not cover",
     [bin_(m, "f64", "d") for m in ["add.rm", "add.rp", "sub.rz", "sub.rm", "mul.rz", "mul.rp"]] +
     [V(m.replace(".", "_"), f"{m}.f64 %0, %1, %2, %3;", "d", "ddd", f"{m}.f64") for m in ["fma.rm", "fma.rp"]])
case("f64_divsqrt", "d", "f64 div/sqrt/rcp in the rounding modes f64_arith does not cover",
     [bin_(m, "f64", "d") for m in ["div.rz", "div.rm"]] +
     [V(m.replace(".", "_"), f"{m}.f64 %0, %1;", "d", "d", f"{m}.f64")
      for m in ["sqrt.rz", "sqrt.rm", "sqrt.rp", "rcp.rn", "rcp.rz", "rcp.rp"]])
case("f64_cvt_int", "i", "cvt.f64.s64 and cvt.f64.u64 in every rounding mode",
     [V(f"{r}_{t}", f"cvt.{r}.f64.{t} %0, %1;", "d", "l", f"cvt.{r}.f64.{t}")
      for t in ["s64", "u64"] for r in ["rn", "rz", "rm", "rp"]])


def PAIR(name, cmp_ty):
    """setp with a predicate pair: bit 0 = the low lane's predicate p, bit 1 = the high lane's q."""
    return V(name, f"{{ .reg .pred p, q; setp.{cmp_ty} p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }}",
             "r", "rr", f"setp.{cmp_ty}")


case("f16_cmp_x2", "hx2", "set/setp on f16x2 and bf16x2 (u32, s32 and packed destinations; predicate pairs, bit 0 = "
     "low lane, bit 1 = high lane); min/max.xorsign.abs on x2",
     [V("set_eq_u32_f16x2", "set.eq.u32.f16x2 %0, %1, %2;", "r", "rr"),
      V("set_ltu_s32_f16x2", "set.ltu.s32.f16x2 %0, %1, %2;", "r", "rr"),
      V("set_gt_ftz_f16x2", "set.gt.ftz.f16x2.f16x2 %0, %1, %2;", "r", "rr"),
      V("set_le_bf16x2", "set.le.bf16x2.bf16x2 %0, %1, %2;", "r", "rr"),
      PAIR("setp_ltu_f16x2", "ltu.f16x2"), PAIR("setp_ge_ftz_f16x2", "ge.ftz.f16x2"), PAIR("setp_nan_bf16x2", "nan.bf16x2"),
      V("min_xorsign_abs_f16x2", "min.xorsign.abs.f16x2 %0, %1, %2;", "r", "rr"),
      V("max_NaN_xorsign_abs_bf16x2", "max.NaN.xorsign.abs.bf16x2 %0, %1, %2;", "r", "rr")])
case("f16_set_xorsign", "h", "set on f16/bf16 scalars (half and u32 destinations); min/max.xorsign.abs on f16 and bf16",
     [V("set_lt_f16", "set.lt.f16.f16 %0, %1, %2;", "h", "hh"),
      V("set_neu_u32_f16", "set.neu.u32.f16 %0, %1, %2;", "r", "hh"),
      V("set_ge_bf16", "set.ge.bf16.bf16 %0, %1, %2;", "h", "hh"),
      V("min_xorsign_abs_f16", "min.xorsign.abs.f16 %0, %1, %2;", "h", "hh"),
      V("max_xorsign_abs_f16", "max.xorsign.abs.f16 %0, %1, %2;", "h", "hh"),
      V("min_ftz_NaN_xorsign_abs_f16", "min.ftz.NaN.xorsign.abs.f16 %0, %1, %2;", "h", "hh"),
      V("max_NaN_xorsign_abs_bf16", "max.NaN.xorsign.abs.bf16 %0, %1, %2;", "h", "hh")])

# ---- integers (issue 3: shift counts, overflow, division by zero, bfe/bfi out of range) ----
case("int_shift_bits", "i", "shl/shr with counts >= width, shf, bfe/bfi out of range, bfind",
     [V("shl_b32", "shl.b32 %0, %1, %2;", "r", "rr"), V("shr_s32", "shr.s32 %0, %1, %2;", "r", "rr"),
      V("shr_u64", "shr.u64 %0, %1, %2;", "l", "lr"), V("shf_r_clamp", "shf.r.clamp.b32 %0, %1, %2, %3;", "r", "rrr"),
      V("bfe_s32", "bfe.s32 %0, %1, %2, %3;", "r", "rrr"), V("bfe_u64", "bfe.u64 %0, %1, %2, %3;", "l", "lrr"),
      V("bfi_b32", "bfi.b32 %0, %1, %2, %3, %3;", "r", "rrr"), V("bfind_shiftamt_s32", "bfind.shiftamt.s32 %0, %1;", "r", "r")])
case("int_arith", "i", "integer overflow and edge cases: .sat, mul.hi, div/rem by zero and INT_MIN/-1, abs, min.relu",
     [V("add_sat_s32", "add.sat.s32 %0, %1, %2;", "r", "rr"), V("sub_sat_s32", "sub.sat.s32 %0, %1, %2;", "r", "rr"),
      V("mul_hi_s32", "mul.hi.s32 %0, %1, %2;", "r", "rr"), V("mad_hi_sat_s32", "mad.hi.sat.s32 %0, %1, %2, %3;", "r", "rrr"),
      V("div_s32", "div.s32 %0, %1, %2;", "r", "rr"), V("rem_s64", "rem.s64 %0, %1, %2;", "l", "ll"),
      V("abs_s32", "abs.s32 %0, %1;", "r", "r"), V("min_relu_s32", "min.relu.s32 %0, %1, %2;", "r", "rr")])
case("int_cvt", "i", "integer cvt: truncation, sign extension, .sat clamping",
     [V("s8_s32", "cvt.s8.s32 %0, %1;", "h", "r"), V("sat_s8_s32", "cvt.sat.s8.s32 %0, %1;", "h", "r"),
      V("sat_u16_s32", "cvt.sat.u16.s32 %0, %1;", "h", "r"), V("sat_s32_u32", "cvt.sat.s32.u32 %0, %1;", "r", "r"),
      V("sat_u32_s64", "cvt.sat.u32.s64 %0, %1;", "r", "l"), V("s64_s16", "cvt.s64.s16 %0, %1;", "l", "h"),
      V("sat_s16_u64", "cvt.sat.s16.u64 %0, %1;", "h", "l")])


def kernel_cu(name, spec):
    gen, _ = INPUTS[spec["inputs"]]
    vs = spec["variants"]
    params = ", ".join(f"{ctype_of(v)}* __restrict__ o_{v['name']}" for v in vs)
    body = []
    for v in vs:
        srcs = v["srcs"]
        names = [SRC[s][k] for k, s in enumerate(srcs)]
        ins = ", ".join(f'"{s}"({x})' for s, x in zip(srcs, names))
        if "bits" in v:
            body.append(f"  {{ uint32_t bits = 0u, d;")
            for k, (c, ptx) in enumerate(v["bits"]):
                body.append(f'    asm("{ptx}" : "=r"(d) : {ins}); bits |= d << {k};  // {c}')
            body.append(f"    o_{v['name']}[i] = bits; }}")
            continue
        d = v["dst"]
        body.append(f'  {{ {CT[d]} d; asm("{v["ptx"]}" : "={d}"(d) : {ins}); o_{v["name"]}[i] = {OUT[d][1]}; }}')
    decls = DECLS_D if spec["inputs"] == "d" else DECLS
    instrs = "; ".join(f"{v['name']}: {v['instr']}" for v in vs)
    return (f"// {COMPILE}\n"
            f"// ptx_corpus/ops/{name}: {spec['desc']}.\n"
            f"// Written by ptx_corpus/ops/make_cases.py (edit the table there, not this file). One output per variant:\n"
            f"// {instrs}.\n"
            "#include <stdint.h>\n" + GEN + (GEN_TINY if spec["inputs"] == "ftiny" else "") + "\n"
            f'extern "C" __global__ void {name}({params}, uint32_t salt) {{\n'
            "  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"  {gen}\n" + decls + "\n".join(body) + "\n}\n")


def ctype_of(v):
    if "bits" in v:
        return "uint32_t"
    return {"u32": "uint32_t", "u16": "unsigned short", "u64": "uint64_t"}[OUT[v["dst"]][0]]


def out_type(v):
    return "u32" if "bits" in v else OUT[v["dst"]][0]


def out_bytes(v):
    return 4 if "bits" in v else OUT[v["dst"]][2]


def threads(spec):
    """32-bit inputs: about 65,536 values per case (CI size); 16-bit inputs: what exhaustive coverage needs."""
    _, n = INPUTS[spec["inputs"]]
    if spec["inputs"] in ("f", "i", "d") and len(spec["variants"]) > 4:
        n //= 2
    return n


def case_json(name, spec, salt=0x0B5C0DE):
    n = threads(spec)
    vs = spec["variants"]
    buffers = {v["name"]: {"bytes": n * out_bytes(v), "init": {"zero": True}} for v in vs}
    return {"kernel": name, "ptx": "kernel.ptx", "grid": [n // 256, 1, 1], "block": [256, 1, 1],
            "dynamic_shared_bytes": 0, "buffers": buffers,
            "params": [{"buffer": v["name"]} for v in vs] + [{"u32": salt}],
            "outputs": [{"buffer": v["name"], "type": out_type(v)} for v in vs],
            "ops": {v["name"]: v["instr"] for v in vs}}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    compile_ = "--no-compile" not in sys.argv
    names = args or list(CASES)
    # the same generator for host-side checks (tests/ops/host_ref.cpp)
    with open(os.path.join(HERE, "ops_inputs.h"), "w") as f:
        f.write("// Written by make_cases.py: the input generator of the ops kernels, compilable on the host too.\n"
                "#pragma once\n#include <stdint.h>\n#ifndef __CUDACC__\n#define __device__\n#define __forceinline__ inline\n"
                "#define __constant__ static const\n#endif\n" + GEN + GEN_TINY)
    total = 0
    bad = 0
    for name in names:
        spec = CASES[name]
        d = os.path.join(HERE, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "kernel.cu"), "w") as f:
            f.write(kernel_cu(name, spec))
        cj = case_json(name, spec)
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(cj, f, indent=1)
            f.write("\n")
        size = sum(b["bytes"] for b in cj["buffers"].values())
        total += size
        if compile_:
            env = dict(os.environ, PATH="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
            r = subprocess.run(COMPILE, shell=True, cwd=d, capture_output=True, text=True, env=env)
            if r.returncode == 0:
                r = subprocess.run("ptxas -arch=sm_90 kernel.ptx -o /dev/null", shell=True, cwd=d, capture_output=True,
                                   text=True, env=env)
            if r.returncode != 0:
                bad += 1
                print(f"{name}: FAILED\n{r.stdout}{r.stderr}")
                continue
        print(f"{name}: {len(spec['variants'])} variants, outputs {size // 1024} KiB")
    print(f"total outputs {total / 1e6:.2f} MB in {len(names)} cases")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
