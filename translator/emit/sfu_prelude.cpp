// GLSL transcription of the SFU models (sfu_models.h): what exact mode emits for NVIDIA's approximate
// instructions (HAZARDS.md #8, issue 4); lg2/sin/cos/tanh (sfu_models2.h) are in sfu_prelude2.cpp. The steps are the C++ reference's, one for one, so the exhaustive H200
// verification of sfu_models.h (docs/SFU.md: 0 of 2^32 differing per instruction) carries over as long as the
// transcription is faithful; ptx_corpus/sfu_sweep checks the emitted GLSL itself against the hardware.
//
// The reduced functions are tables (128-segment quadratics in double + sorted exception lists, 3.7 MB in all),
// far too large for GLSL constant arrays. They live in the module-globals buffer (docs/ABI.md): the translator
// reserves a directory of one uint per table after the module's .global variables (`P2G_SFU_DIR`, a byte offset),
// names the tables in the manifest ("sfuTables", in slot order), and the runtime appends the tables from
// translator/sfu/tables/*.bin and writes each table's byte offset into its directory slot. A table in the buffer
// is the blob's record without its name: int32 k, scale, nexc, pad; 3 << k coefficients (double bits); nexc
// exceptions (mantissa << 8 | int8 correction), sorted.
//
// Determinism: no floating-point arithmetic at all. The quadratic c0 + t*(c1 + t*c2) the tables were fitted with is
// binary64 arithmetic (sfu_models.h: two multiplies and two adds, each rounded to nearest even, no fma); it is
// evaluated here with 64-bit integers that reproduce those four roundings bit for bit (p2g_sfu_dmul_t,
// p2g_sfu_dadd; C++ twin: sfu_quad_int.h, compared with the double evaluation over every input of every table by
// tests/sfu/test_quad_int.cpp), so a kernel whose PTX has no f64 instruction needs no f64 on the device (no
// shaderFloat64, no slow f64 unit).
#include "emitter.h"

namespace p2g {

std::vector<PreludeHelper> sfuHelpers2();  // sfu_prelude2.cpp

// The exception search of p2g_sfu_core: lower_bound of m over the exceptions of m's bucket (the 2^12 buckets of the
// 23-bit input, m >> 11), whose range [lo, hi) the runtime's bucket index gives (runtime/common/sfu_tables.h: at
// most 511 exceptions a bucket, checked when the tables are laid out), unrolled in 9 halving steps: 9 dependent
// loads instead of the 18-19 of a search over all of a table's 39,163-203,043 exceptions.
static std::string lowerBoundSteps() {
  std::string t;
  for (int st = 256; st > 0; st >>= 1)
    t += "  if (lo + " + std::to_string(st) + " <= hi && (e.v[lo + " + std::to_string(st - 1) + "] >> 8) < m) lo += " +
         std::to_string(st) + ";\n";
  return t;
}

std::vector<PreludeHelper> sfuHelpers() {
  std::vector<PreludeHelper> h;
  h.push_back({"p2g_sfu_core", {}, {}, R"(// ---- SFU models (sfu_prelude.cpp; C++ reference: sfu_models.h; tables: docs/SFU.md) ----
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer P2GSfuW { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer P2GSfuD { uint64_t v[]; };
int p2g_sfu_msb64(uint64_t v) { uint h = uint(v >> 32); return h != 0u ? 32 + findMSB(h) : findMSB(uint(v)); }
// ---- binary64 round-to-nearest-even arithmetic on bit patterns, in integers (C++ twin: sfu_quad_int.h, checked
// against the floating-point evaluation for every input of every table by tests/sfu/test_quad_int.cpp). Only what
// the quadratics meet: operands and results normal or zero (exponents 2^-55 .. 2^24), t = low * 2^-s, low < 2^s,
// s <= 23.
// q + (rem / 2^sh) rounded to nearest, ties to even (IEEE 754 roundTiesToEven), 1 <= sh <= 63.
uint64_t p2g_sfu_rne(uint64_t q, uint64_t rem, int sh) {
  uint64_t hw = 1ul << uint(sh - 1);  // the halfway point ("half" is a reserved word in GLSL)
  return (rem > hw || (rem == hw && (q & 1ul) != 0ul)) ? q + 1ul : q;
}
// a * (low * 2^-s): the significand times low (at most 76 bits, as hi * 2^32 + lo: two partial products below 2^64)
// rounded once to 53 bits; a zero factor gives a zero with a's sign. Adding q (in [2^52, 2^53]) to the exponent
// field minus one lets a rounding carry go into the exponent. (sfu_i_mul_t)
uint64_t p2g_sfu_dmul_t(uint64_t a, uint low, int s) {
  uint64_t sign = a & 0x8000000000000000ul;
  int E = int(uint(a >> 52) & 0x7FFu);
  if (E == 0 || low == 0u) return sign;
  uint64_t m = (a & 0xFFFFFFFFFFFFFul) | 0x10000000000000ul;
  uint64_t pl = (m & 0xFFFFFFFFul) * uint64_t(low);
  uint64_t H = (m >> 32) * uint64_t(low) + (pl >> 32), L = pl & 0xFFFFFFFFul;
  int top = H != 0ul ? 32 + p2g_sfu_msb64(H) : p2g_sfu_msb64(L);
  int sh = top - 52;
  uint64_t q = sh == 0 ? ((H << 32) | L) : ((H << uint(32 - sh)) | (L >> uint(sh)));
  if (sh > 0) q = p2g_sfu_rne(q, L & ((1ul << uint(sh)) - 1ul), sh);
  return sign | ((uint64_t(E - s + sh - 1) << 52) + q);
}
// a + b: significands aligned with 10 guard bits, the bits shifted out of the smaller one collapsed into a sticky
// bit (Goldberg 1991, sec. 1.4: guard and sticky digits make the one rounding exact); an exact zero sum is +0.
// (sfu_i_add)
uint64_t p2g_sfu_dadd(uint64_t a, uint64_t b) {
  if ((a & 0x7FFFFFFFFFFFFFFFul) < (b & 0x7FFFFFFFFFFFFFFFul)) { uint64_t x = a; a = b; b = x; }
  int Ea = int(uint(a >> 52) & 0x7FFu), Eb = int(uint(b >> 52) & 0x7FFu);
  if (Eb == 0) return Ea == 0 ? (a & b) : a;
  uint64_t ma = ((a & 0xFFFFFFFFFFFFFul) | 0x10000000000000ul) << 10;
  uint64_t mb = ((b & 0xFFFFFFFFFFFFFul) | 0x10000000000000ul) << 10;
  int d = Ea - Eb;
  if (d >= 64) mb = 1ul;
  else if (d > 0) mb = (mb >> uint(d)) | ((mb & ((1ul << uint(d)) - 1ul)) != 0ul ? 1ul : 0ul);
  uint64_t r = ((a ^ b) >> 63) != 0ul ? ma - mb : ma + mb;
  if (r == 0ul) return 0ul;
  int sh = p2g_sfu_msb64(r) - 52;
  uint64_t q = sh > 0 ? p2g_sfu_rne(r >> uint(sh), r & ((1ul << uint(sh)) - 1ul), sh) : r << uint(-sh);
  return (a & 0x8000000000000000ul) | ((uint64_t(Ea - 11 + sh) << 52) + q);
}
// c0 + t*(c1 + t*c2), t = low * 2^-s (sfu_quad's order and roundings). (sfu_i_quad)
uint64_t p2g_sfu_dquad(uint64_t c0, uint64_t c1, uint64_t c2, uint low, int s) {
  return p2g_sfu_dadd(c0, p2g_sfu_dmul_t(p2g_sfu_dadd(c1, p2g_sfu_dmul_t(c2, low, s)), low, s));
}
// floor of a binary64 (|value| < 2^63) as int64. (sfu_i_floor)
int64_t p2g_sfu_dfloor(uint64_t a) {
  int E = int(uint(a >> 52) & 0x7FFu);
  bool neg = (a >> 63) != 0ul;
  if (E < 1023) return (neg && (a << 1) != 0ul) ? -1l : 0l;
  uint64_t m = (a & 0xFFFFFFFFFFFFFul) | 0x10000000000000ul;
  int e = E - 1023;
  uint64_t ip = e >= 52 ? m << uint(e - 52) : m >> uint(52 - e);
  bool frac = e < 52 && (m & ((1ul << uint(52 - e)) - 1ul)) != 0ul;
  return neg ? -int64_t(ip) - (frac ? 1l : 0l) : int64_t(ip);
}
// Reduced function `tab` at 23-bit input m: floor(c0 + t*(c1 + t*c2)) over the segment of m, t the low bits as a
// fraction (binary64 arithmetic in integers, above), then the exception list's int8 correction (binary search).
// `scale`: the result is Y * 2^scale.
int64_t p2g_sfu_core(uint tab, uint m, out int scale) {
  uint off = P2GSfuW(pc.globals + uint64_t(P2G_SFU_DIR)).v[tab];
  P2GSfuW hd = P2GSfuW(pc.globals + uint64_t(off));
  uint k = hd.v[0];
  scale = int(hd.v[1]);
  int nexc = int(hd.v[2]);
  uint segBits = 23u - k;
  uint g = m >> segBits, low = m & ((1u << segBits) - 1u);
  P2GSfuD c = P2GSfuD(pc.globals + uint64_t(off) + 16ul + uint64_t(g) * 24ul);
  int64_t Y = p2g_sfu_dfloor(p2g_sfu_dquad(c.v[0], c.v[1], c.v[2], low, int(segBits)));
  P2GSfuW e = P2GSfuW(pc.globals + uint64_t(off) + 16ul + (uint64_t(3u << k) << 3));
  P2GSfuW bi = P2GSfuW(pc.globals + uint64_t(off) + 16ul + (uint64_t(3u << k) << 3) + uint64_t((nexc + 1) & ~1) * 4ul);
  // lower_bound of m among the exceptions of its bucket, unrolled (no loop: lavapipe ends every loop of an invocation
  // after 65,535 iterations in all, HAZARDS_IMPLEMENTED.md, so a kernel calling this in a long loop would stop).
  int lo = int(bi.v[m >> 11u]), hi = int(bi.v[(m >> 11u) + 1u]);
)" + lowerBoundSteps() + R"(  if (lo < hi && (e.v[lo] >> 8) == m) Y += int64_t(bitfieldExtract(int(e.v[lo]), 0, 8));
  return Y;
}
// Y * 2^e2 as f32 bits with `sign`: normal results exact; below the normal range flushed (ftz) or rounded to
// nearest even into a denormal (the non-ftz forms, measured); above, infinity. (sfu_make)
uint p2g_sfu_make(uint64_t Y, int e2, uint sign, bool ftz) {
  if (Y == 0ul) return sign;
  int top = p2g_sfu_msb64(Y);
  if (top > 23) { Y >>= uint(top - 23); e2 += top - 23; }  // only values with trailing zeros get here
  else if (top < 23) { Y <<= uint(23 - top); e2 -= 23 - top; }
  int be = e2 + 150;
  if (be > 254) return sign | 0x7F800000u;
  if (be >= 1) return sign | (uint(be) << 23) | (uint(Y) & 0x7FFFFFu);
  if (ftz) return sign;
  int sh = 1 - be;
  if (sh > 25) return sign;
  uint64_t q = Y >> uint(sh), rem = Y & ((1ul << uint(sh)) - 1ul), hw = 1ul << uint(sh - 1);
  if (rem > hw || (rem == hw && (q & 1ul) != 0ul)) q++;
  return sign | uint(q);
}
// Normal or denormal x -> significand M in [2^23, 2^24) and exponent e (x = M * 2^(e-23)). (sfu_split)
void p2g_sfu_split(uint x, out uint M, out int e) {
  uint E = (x >> 23) & 0xFFu, m = x & 0x7FFFFFu;
  if (E != 0u) { M = m | 0x800000u; e = int(E) - 127; return; }
  int s = 23 - findMSB(m);
  M = m << uint(s);
  e = -126 - s;
}
// RN-even of Y * 2^e2 (Y < 2^63, one rounding, also into the denormal range): an f32 multiply's result. (sfu_round)
uint p2g_sfu_round(uint64_t Y, int e2, uint sign) {
  if (Y == 0ul) return sign;
  int top = p2g_sfu_msb64(Y);
  int be = top + e2 + 127;
  int sh = top - 23;
  if (be < 1) sh += 1 - be;
  uint64_t q = sh > 0 ? (sh > 63 ? 0ul : Y >> uint(sh)) : Y << uint(-sh);
  if (sh > 0 && sh <= 64) {
    uint64_t rem = sh == 64 ? Y : Y & ((1ul << uint(sh)) - 1ul), hw = 1ul << uint(sh - 1);
    if (rem > hw || (rem == hw && (q & 1ul) != 0ul)) q++;
  }
  uint64_t r = uint64_t(be < 1 ? 0u : uint(be - 1) << 23) + q;
  if (r >= 0x7F800000ul) return sign | 0x7F800000u;
  return sign | uint(r);
}
)"});
  h.push_back({"p2g_sfu_dev", {"p2g_sfu_core"}, {}, R"(// Device fact (specialization constant 13, runtime/vulkan/facts.h, docs/DEVICE_FACTS.md): the device's own
// 1.0 / x, inversesqrt, sqrt, exp2, log2, sin and cos give the bits of rcp/rsqrt/sqrt/ex2/lg2/sin/cos.approx.ftz.f32
// for every input (NVIDIA's driver compiles them to the MUFU instructions ptxas gives the PTX forms). Each model
// below then starts with the device's function, for every input of a .ftz form and for the inputs of a non-ftz
// form where it equals the .ftz form (normal operands and results). The other inputs of a non-ftz form take the
// device's function of a reduced operand, as ptxas's non-ftz sequences do around the MUFU instruction (a
// subnormal x scaled into the normal range), and the result's exponent moved back in integers (p2g_sfu_scaled),
// rounding into the subnormal range: the models' own reduction (sfu_models.h), so with this fact the tables and
// the models are dead code (tests/sfu: each device path equals its model on every input of the exponents where
// the two forms differ, with the .ftz model standing for the device). Without the fact it is false and the driver
// drops the device's branches.
layout(constant_id = 13) const bool P2G_SFU_NATIVE = false;
// the operand as a .ftz form reads it (a subnormal is a zero of its sign), xor a zero no compiler can see
// (gl_NumWorkGroups.x < 2^31), so that no compiler evaluates the function of a constant operand its own way
float p2g_sfu_arg(uint x) {
  return uintBitsToFloat(((x & 0x7F800000u) == 0u ? x & 0x80000000u : x) ^ (gl_NumWorkGroups.x >> 31u));
}
// the device's result as the .ftz form gives it: a NaN is 0x7FFFFFFF, a subnormal a zero of its sign
uint p2g_sfu_res(float r) {
  uint u = floatBitsToUint(r), q = 0x7FFFFFFFu;
  u = (u & 0x7F800000u) == 0u ? u & 0x80000000u : u;
  bool n = isnan(r);
  return n ? q : u;
}
// r (the device's result, normal) times 2^k with `sign`, rounded to nearest even into the subnormal range (an f32
// multiply's rounding, as sfu_make for a non-ftz form)
uint p2g_sfu_scaled(uint r, int k, uint sign) {
  return p2g_sfu_round(uint64_t((r & 0x7FFFFFu) | 0x800000u), int((r >> 23) & 0xFFu) - 150 + k, sign);
}
// rsqrt/sqrt of a non-ftz subnormal x: the operand for the device, its significand times 2^p (p the exponent's
// parity), and h = (e - p) / 2, the halved exponent the result moves by; a negative subnormal becomes a NaN operand
// (the non-ftz result is NaN). False, with a = x, where the form takes x itself.
bool p2g_sfu_root_arg(uint x, bool ftz, out uint a, out int h) {
  a = x;
  h = 0;
  if (ftz || (x & 0x7FFFFFFFu) - 1u >= 0x7FFFFFu) return false;
  if ((x >> 31) != 0u) {
    a = 0x7FFFFFFFu;
    return false;
  }
  uint M; int e;
  p2g_sfu_split(x, M, e);
  int p = e & 1;
  a = (uint(127 + p) << 23) | (M & 0x7FFFFFu);
  h = (e - p) / 2;
  return true;
}
)"});
  h.push_back({"p2g_sfu_rcp", {"p2g_sfu_core", "p2g_sfu_dev"}, {}, R"(// rcp.approx{.ftz}.f32: rcp(m * 2^e) = rcp(m) * 2^-e for every normal input (exhaustive on the H200).
uint p2g_sfu_rcp(uint x, bool ftz) {
  // the device's 1.0 / x: non-ftz where x and its reciprocal are normal (biased exponent 1..251; the guards of
  // the non-ftz forms: tests/sfu/test_sfu.cpp "the device's path"); a non-ftz subnormal x or one of biased
  // exponent 252..254: the reciprocal of its significand, the exponent moved back
  if (P2G_SFU_NATIVE) {
    uint ax = x & 0x7FFFFFFFu, a = x;
    bool big = !ftz && (ax - 1u < 0x7FFFFFu || (ax >> 23) - 252u < 3u);
    uint M; int e = 0;
    if (big) {
      p2g_sfu_split(ax, M, e);
      a = (x & 0x80000000u) | 0x3F800000u | (M & 0x7FFFFFu);
    }
    precise float r = 1.0 / p2g_sfu_arg(a);
    uint b = p2g_sfu_res(r);
    return big ? p2g_sfu_scaled(b, -e, x & 0x80000000u) : b;
  }
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  if (ax == 0x7F800000u) return sign;
  if (ax < 0x00800000u && (ftz || ax == 0u)) return sign | 0x7F800000u;
  uint M; int e, scale;
  p2g_sfu_split(ax, M, e);
  int64_t Y = p2g_sfu_core(P2G_SFU_T_RCP, M & 0x7FFFFFu, scale);
  return p2g_sfu_make(uint64_t(Y), scale - e, sign, ftz);
}
)"});
  h.push_back({"p2g_rsqrt64", {"p2g_sfu_rsqrt", "p2g_dmul_r", "p2g_dfma_r"}, {"float64"}, R"(// rsqrt.approx.f64 as ptxas 13 lowers it for sm_90 (SASS read from the H200, docs/SFU.md "rsqrt.approx.f64"):
// y0 = MUFU.RSQ64H(x's high word), then y = y0 + (y0 e)(0.5 + 0.375 e) with e = 1 - x y0^2, in four fused/rounded
// double steps; zeros, NaN, negative, +infinity and subnormal x take a slow path. MUFU.RSQ64H is the f32 MUFU.RSQ
// (p2g_sfu_rsqrt) of 1.m * 2^p (m: the high word's 20 mantissa bits, p: the exponent's parity) with the result's
// mantissa cut to 20 bits and its exponent moved by -(E - p) / 2. Checked against the H200: 0 of 2,097,152 values
// (exponents 1022/1023, every 20-bit mantissa) and 0 of 1,572,864 sampled inputs (random low words, extreme
// exponents, subnormals, boundaries, random patterns) differ. The double steps are the exact integer helpers:
// NVIDIA's Vulkan driver does not preserve f64 subnormals, which t = y0^2 can be for x >= 2^1022.
double p2g_rsqrt64_fast(double x) {
  uint hi = uint(doubleBitsToUint64(x) >> 32);
  int E = int((hi >> 20) & 0x7FFu) - 1023, p = E & 1, q = (E - p) / 2;
  uint r = p2g_sfu_rsqrt((uint(127 + p) << 23) | ((hi & 0xFFFFFu) << 3), false);
  uint y0hi = (uint(int(r >> 23) - 127 + 1023 - q) << 20) | ((r >> 3) & 0xFFFFFu);
  double y0 = uint64BitsToDouble(uint64_t(y0hi) << 32);
  double t = p2g_dmul_r(y0, y0, 0);
  double e = p2g_dfma_r(x, uint64BitsToDouble(doubleBitsToUint64(t) ^ 0x8000000000000000ul), 1.0lf, 0);
  double c = p2g_dfma_r(e, 0.375lf, 0.5lf, 0);
  double u = p2g_dmul_r(y0, e, 0);
  return p2g_dfma_r(c, u, y0, 0);
}
double p2g_rsqrt64(double x) {
  uint64_t b = doubleBitsToUint64(x), ab = b & 0x7FFFFFFFFFFFFFFFul;
  if (uint(b >> 32) + 0xFFF00000u < 0x7FE00000u) return p2g_rsqrt64_fast(x);  // positive, normal, finite
  if (ab == 0ul) return uint64BitsToDouble((b & 0x8000000000000000ul) | 0x7FF0000000000000ul);  // +-0 -> +-inf
  if (ab > 0x7FF0000000000000ul) return uint64BitsToDouble(b | 0x0008000000000000ul);  // NaN: x + x, quiet
  if ((b >> 63) != 0ul) return uint64BitsToDouble(0xFFF8000000000000ul);                 // negative
  if (ab == 0x7FF0000000000000ul) return uint64BitsToDouble(0ul);                        // +inf -> +0
  // positive subnormal: x * 2^54 (exact) through the fast path, the result * 2^27 (exact)
  return p2g_dmul_r(p2g_rsqrt64_fast(p2g_dmul_r(x, 18014398509481984.0lf, 0)), 134217728.0lf, 0);
}
)"});
  h.push_back({"p2g_sfu_rsqrt", {"p2g_sfu_core", "p2g_sfu_dev"}, {}, R"(// rsqrt.approx{.ftz}.f32: rsqrt(m * 2^p * 4^k) = rsqrt(m * 2^p) * 2^-k, p in {0, 1}: two tables.
uint p2g_sfu_rsqrt(uint x, bool ftz) {
  // the device's inversesqrt; a non-ftz subnormal x: of its significand times 2^p, the exponent moved back
  if (P2G_SFU_NATIVE) {
    uint a; int h;
    bool sub = p2g_sfu_root_arg(x, ftz, a, h);
    precise float r = inversesqrt(p2g_sfu_arg(a));
    uint b = p2g_sfu_res(r);
    return sub ? p2g_sfu_scaled(b, -h, 0u) : b;
  }
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  if (ax == 0u || (ftz && ax < 0x00800000u)) return sign | 0x7F800000u;
  if (sign != 0u) return 0x7FFFFFFFu;
  if (ax == 0x7F800000u) return 0u;
  uint M; int e, scale;
  p2g_sfu_split(ax, M, e);
  int p = e & 1;
  int64_t Y = p2g_sfu_core(p != 0 ? P2G_SFU_T_RSQRT1 : P2G_SFU_T_RSQRT0, M & 0x7FFFFFu, scale);
  return p2g_sfu_make(uint64_t(Y), scale - (e - p) / 2, 0u, ftz);
}
)"});
  h.push_back({"p2g_sfu_sqrt", {"p2g_sfu_core", "p2g_sfu_dev"}, {}, R"(// sqrt.approx{.ftz}.f32: sqrt(m * 2^p * 4^k) = sqrt(m * 2^p) * 2^k, p in {0, 1}: two tables.
uint p2g_sfu_sqrt(uint x, bool ftz) {
  // the device's sqrt; a non-ftz subnormal x: of its significand times 2^p, the exponent moved back
  if (P2G_SFU_NATIVE) {
    uint a; int h;
    bool sub = p2g_sfu_root_arg(x, ftz, a, h);
    precise float r = sqrt(p2g_sfu_arg(a));
    uint b = p2g_sfu_res(r);
    return sub ? p2g_sfu_scaled(b, h, 0u) : b;
  }
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  if (ax == 0u || (ftz && ax < 0x00800000u)) return sign;
  if (sign != 0u) return 0x7FFFFFFFu;
  if (ax == 0x7F800000u) return ax;
  uint M; int e, scale;
  p2g_sfu_split(ax, M, e);
  int p = e & 1;
  int64_t Y = p2g_sfu_core(p != 0 ? P2G_SFU_T_SQRT1 : P2G_SFU_T_SQRT0, M & 0x7FFFFFu, scale);
  return p2g_sfu_make(uint64_t(Y), scale + (e - p) / 2, 0u, ftz);
}
)"});
  h.push_back({"p2g_sfu_ex2", {"p2g_sfu_core", "p2g_sfu_dev"}, {}, R"(// ex2.approx{.ftz}.f32: the operand truncated to sign-magnitude fixed point with 23 fraction bits; 2^n * 2^f for
// x >= 0 and 2^-n * 2^-f for x < 0, each side from its own table (measured). Non-ftz, x < -126: ex2(x/2) squared
// by an f32 multiply (measured: ex2(-127) = 0x003FFFFF).
uint p2g_sfu_ex2_core(uint x, bool ftz) {
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  if (ax >= 0x43000000u) return sign != 0u ? 0u : 0x7F800000u;  // |x| >= 128 and infinities
  uint E = ax >> 23;
  if (E < 104u) return 0x3F800000u;                             // |x| < 2^-23: X = 0
  uint M = (ax & 0x7FFFFFu) | 0x800000u;
  uint X = E <= 127u ? M >> (127u - E) : M << (E - 127u);        // trunc(|x| * 2^23)
  int n = int(X >> 23), scale;
  uint F = X & 0x7FFFFFu;
  // one p2g_sfu_core call site (the table chosen at run time): every call site inlines a lookup and a quadratic
  int64_t Y = p2g_sfu_core(sign == 0u ? P2G_SFU_T_EX2P : P2G_SFU_T_EX2N, F, scale);
  return p2g_sfu_make(uint64_t(Y), sign == 0u ? scale + n - 1 : scale - n + 1, 0u, ftz);
}
uint p2g_sfu_ex2(uint x, bool ftz) {
  // one call site of the device's exp2 or p2g_sfu_ex2_core: the non-ftz x < -126 path evaluates ex2(x / 2)
  // flushing, then squares it; every other input of the non-ftz form is the .ftz form's (x >= -126)
  bool sq = !ftz && (x & 0x80000000u) != 0u && (x & 0x7FFFFFFFu) > 0x42FC0000u && (x & 0x7FFFFFFFu) <= 0x7F800000u;
  uint a = sq ? x - 0x00800000u : x, h;
  if (P2G_SFU_NATIVE) {
    precise float r = exp2(p2g_sfu_arg(a));
    h = p2g_sfu_res(r);
  } else {
    h = p2g_sfu_ex2_core(a, ftz || sq);
  }
  if (!sq || h == 0u) return h;
  uint64_t Mh = uint64_t((h & 0x7FFFFFu) | 0x800000u);
  int eh = int(h >> 23) - 150;
  return p2g_sfu_round(Mh * Mh, 2 * eh, 0u);
}
)"});
  h.push_back({"p2g_sfu_half", {}, {}, R"(// f16 <-> f32 bits for the 16-bit SFU forms: widening (exact), narrowing toward zero (sfu_f16_to_f32,
// sfu_f32_to_f16_rz); a NaN becomes 0x7FFF, overflow +-inf (infOnOverflow) or +-max.
uint p2g_sfu_f16_to_f32(uint h) {
  uint sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 31u) return sign | 0x7F800000u | (m << 13);
  if (e != 0u) return sign | ((e + 112u) << 23) | (m << 13);
  if (m == 0u) return sign;
  int s = 10 - findMSB(m);
  return sign | (uint(113 - s) << 23) | (((m << uint(s)) & 0x3FFu) << 13);
}
uint p2g_sfu_f32_to_f16_rz(uint f, bool infOnOverflow) {
  uint sign = (f >> 16) & 0x8000u, af = f & 0x7FFFFFFFu;
  if (af > 0x7F800000u) return 0x7FFFu;
  if (af >= 0x47800000u) return sign | (infOnOverflow || af == 0x7F800000u ? 0x7C00u : 0x7BFFu);
  if (af < 0x33800000u) return sign;
  int e = int(af >> 23) - 127;
  uint M = (af & 0x7FFFFFu) | 0x800000u;
  if (e >= -14) return sign | (uint(e + 15) << 10) | ((M >> 13) & 0x3FFu);
  return sign | (M >> uint(13 + (-14 - e)));
}
)"});
  h.push_back({"p2g_sfu_ex2_16", {"p2g_sfu_ex2", "p2g_sfu_half"}, {}, R"(// The 16-bit ex2 forms (measured on all 65,536 inputs, docs/SFU.md): ex2.approx.ftz.f32 of the widened operand,
// then ex2.approx.f16 rounds toward zero to f16 (x >= 16: +inf) and ex2.approx.ftz.bf16 keeps the high half;
// a NaN result is 0x7FFF.
uint p2g_sfu_ex2_f16(uint x) { return p2g_sfu_f32_to_f16_rz(p2g_sfu_ex2(p2g_sfu_f16_to_f32(x & 0xFFFFu), true), true); }
uint p2g_sfu_ex2_bf16(uint x) {
  uint r = p2g_sfu_ex2(x << 16, true);
  return (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFu : r >> 16;
}
)"});
  for (auto& x : sfuHelpers2()) h.push_back(std::move(x));  // lg2/sin/cos/tanh (sfu_prelude2.cpp, sfu_models2.h)
  return h;
}

}  // namespace p2g
