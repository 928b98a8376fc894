// GLSL transcription of the SFU models of sfu_models2.h: what exact mode emits for lg2.approx{.ftz}.f32,
// sin/cos.approx{.ftz}.f32, tanh.approx.f32 and tanh.approx.{f16,bf16}{,x2} (HAZARDS.md #8, issue 4). Companion of
// sfu_prelude.cpp (rcp/rsqrt/sqrt/ex2), same conventions: the steps are the C++ reference's one for one, integer
// code wherever the C++ uses integers, and where it uses double the binary64 operations emulated in integers
// (sfu_prelude.cpp's p2g_sfu_dquad / p2g_sfu_dadd, bit-identical: tests/sfu/test_quad_int.cpp), so no f64 and no f32
// arithmetic or conversion on the device (NVIDIA's Vulkan driver flushes f32 denormals; HAZARDS.md #5); the C++
// loops (the squarer, the binary searches) are unrolled into straight-line code (loopFree, below). The C++
// models reproduce every collected H200 slice (tests/sfu/test_sfu2.cpp); tests/sfu/glsl_model2 checks this
// transcription against them on lavapipe and ptx_corpus/sfu_sweep against the hardware.
//
// Tables (docs/SFU.md): all of sfu_tables2.bin goes through the module-globals buffer like sfu_tables.bin's, by the
// same directory (the emitter gives every `P2G_SFU_T_<NAME>` the prelude mentions a slot; the runtime,
// runtime/common/sfu_tables.cpp, appends the records and fills the slots). The GPU layout of a record (its blob
// record without the name) is in runtime/common/sfu_tables.h and docs/ABI.md:
//   interpolator tables SINP, LG2P (1.5 KB each): int32 k, n, F | OB << 8 | col << 16, 1 << 30; 3 << k int64
//     C0, C1, C2 per segment;
//   fitted tables TANH_M8 .. TANH_P2 (2.2 MB in all): int32 k, n, nexc, rbits | rz << 8 | nfull << 12; 3 << k
//     doubles; dense residual words; exceptions; whole values.
// The small interpolator tables could have been GLSL constants, but then the translator would depend on the table
// files (or on a generated copy of them); one mechanism for every table keeps the shader text independent of the
// data and the tables replaceable without re-translating.
#include <cstdio>
#include <string>

#include "emitter.h"

namespace p2g {

// loopFree: the helpers have no loops. lavapipe (llvmpipe's gallivm) bounds the loop iterations of a shader
// invocation: one counter, LP_MAX_TGSI_LOOP_ITERATIONS = 65535 (gallivm/lp_bld_limits.h), decremented at the
// back-edge of every loop and never reset, after which every loop exits. A model with loops (a binary search,
// the squarer's bit loop: ~17 back-edges a call) inside a kernel's loop therefore cuts that loop short after a few
// thousand iterations, silently (found with ptx_corpus/sfu_sweep, whose f32 kernels run 4,096 iterations of 16
// calls). So the C++ loops are unrolled here, when the helper text is built.

// sfu_sqtrunc's loop over the 32 bits of x (bits above x's top bit add nothing, as the C++ loop's early exit).
static std::string sqtruncBody() {
  std::string t;
  char b[256];
  for (int i = 0; i < 32; ++i) {
    snprintf(b, sizeof b,
             "  if ((x & 0x%Xu) != 0u) { if (%d >= col) s += 1ul << %du; int lo = max(%d, col - %d); "
             "if (lo < 32) s += uint64_t((x >> uint(lo)) << uint(lo)) << %du; }\n",
             1u << i, 2 * i, 2 * i, i + 1, 1 + i, i + 1);
    t += b;
  }
  return t;
}

// lower_bound (the first entry not below i) over `n` sorted entries, whose key at index lo + K is `key` (K is
// replaced), into `lo` (0 on entry): halving steps 2^23 .. 1 (n <= 2^23: one entry per input at most), each taken
// when the entry just below the step is still below i. The same index as the C++ binary search.
static std::string lowerBound(const std::string& n, const std::string& key) {
  std::string t;
  for (int st = 1 << 23; st > 0; st >>= 1) {
    std::string k = key, s1 = std::to_string(st - 1);
    k.replace(k.find('K'), 1, s1);
    t += "  if (lo + " + std::to_string(st) + " <= " + n + " && " + k + " < i) lo += " + std::to_string(st) + ";\n";
  }
  return t;
}

std::vector<PreludeHelper> sfuHelpers2() {
  std::vector<PreludeHelper> h;
  // The buffer types, p2g_sfu_msb64 and p2g_sfu_split come from p2g_sfu_core (sfu_prelude.cpp), which names no
  // table itself.
  h.push_back({"p2g_sfu2_interp", {"p2g_sfu_core"}, {}, R"(// ---- SFU models of lg2/sin/cos/tanh (sfu_prelude2.cpp; C++ reference: sfu_models2.h; tables: docs/SFU.md) ----
// Byte offset of table `tab` in the globals buffer (its directory slot), and word i of the table's header.
uint p2g_sfu2_off(uint tab) { return P2GSfuW(pc.globals + uint64_t(P2G_SFU_DIR)).v[tab]; }
uint p2g_sfu2_hd(uint off, uint i) { return P2GSfuW(pc.globals + uint64_t(off)).v[i]; }
// The interpolator's truncated squarer (sfu_sqtrunc; cf. Oberman & Siu, ARITH 2005): the partial products of x*x
// (cross terms counted twice) of weight >= 2^col only, summed, shifted right by col. The C++ loop over the bits of
// x, unrolled (sqtruncBody(): no loop, see loopFree below).
uint64_t p2g_sfu2_sqtrunc(uint x, int col) {
  uint64_t s = 0ul;
)" + sqtruncBody() + R"(  return s >> uint(col);
}
// Unsigned fixed point v * 2^-fracBits to f32 bits, truncating (normal results only). (sfu_fix2f32_rz)
uint p2g_sfu2_fix2f32_rz(uint64_t v, int fracBits) {
  if (v == 0ul) return 0u;
  int top = p2g_sfu_msb64(v);
  uint M = top <= 23 ? uint(v << uint(23 - top)) : uint(v >> uint(top - 23));
  return (uint(top - fracBits + 127) << 23) | (M & 0x7FFFFFu);
}
// Interpolator table at byte offset `off`: V = C0 + C1 x + C2 sq(x) in 2^-F units at entry i, x the low n - k
// bits of i (sfu_interp_raw); entry i as f32: V truncated to OB fraction bits, then RZ (sfu_interp).
int64_t p2g_sfu2_interp_raw(uint off, uint i) {
  uint k = p2g_sfu2_hd(off, 0u), n = p2g_sfu2_hd(off, 1u);
  int col = int((p2g_sfu2_hd(off, 2u) >> 16) & 0xFFu);
  uint segBits = n - k;
  uint g = i >> segBits, x = i & ((1u << segBits) - 1u);
  P2GSfuD c = P2GSfuD(pc.globals + uint64_t(off) + 16ul + uint64_t(g) * 24ul);
  return int64_t(c.v[0]) + int64_t(c.v[1]) * int64_t(x) + int64_t(c.v[2]) * int64_t(p2g_sfu2_sqtrunc(x, col));
}
uint p2g_sfu2_interp(uint off, uint i) {
  int64_t V = p2g_sfu2_interp_raw(off, i);
  uint h2 = p2g_sfu2_hd(off, 2u);
  int F = int(h2 & 0xFFu), OB = int((h2 >> 8) & 0xFFu);
  return V > 0l ? p2g_sfu2_fix2f32_rz(uint64_t(V) >> uint(F - OB), OB) : 0u;
}
)"});
  h.push_back({"p2g_sfu2_fquad", {"p2g_sfu2_interp"}, {}, R"(// |d| (binary64 bits b) to f32 bits with the sign of d, toward zero (rz) or to nearest even, by bit manipulation;
// normal range only: smaller gives a signed zero, larger infinity (sfu_d2f32bits; sfu_i_d_to_f32).
uint p2g_sfu2_d2f(uint64_t b, bool rz) {
  uint sign = uint(b >> 63) << 31;
  int e = int((b >> 52) & 0x7FFul) - 1023;
  if (e < -126) return sign;
  if (e > 127) return sign | 0x7F800000u;
  uint64_t m = b & 0xFFFFFFFFFFFFFul;
  uint r = (uint(e + 127) << 23) | uint(m >> 29);
  uint64_t rem = m & 0x1FFFFFFFul;
  if (!rz && (rem > 0x10000000ul || (rem == 0x10000000ul && (r & 1u) != 0u))) r++;  // a carry into the exponent is right
  return sign | r;
}
// Entry i (f32 bits, >= 0) of the table at byte offset `off` (sfu_fquad): an interpolator table, or a fitted one:
// the segment's quadratic c0 + t*(c1 + t*c2) in binary64 (t the low n - k bits as a fraction, exact; evaluated in
// integers by p2g_sfu_dquad), converted to f32 (RZ or RN), plus the dense residual (rbits-bit signed field of entry i), then the sorted exception list's
// int8 correction, or the whole value (correction 0x80).
uint p2g_sfu2_fquad(uint off, uint i) {
  uint k = p2g_sfu2_hd(off, 0u), n = p2g_sfu2_hd(off, 1u), h2 = p2g_sfu2_hd(off, 2u), h3 = p2g_sfu2_hd(off, 3u);
  if ((h3 & 0x40000000u) != 0u) return p2g_sfu2_interp(off, i);
  int nexc = int(h2), nfull = int((h3 >> 12) & 0x3FFFFu);
  uint rbits = h3 & 0xFFu;
  bool rz = ((h3 >> 8) & 1u) != 0u;
  uint segBits = n - k;
  uint g = i >> segBits, low = i & ((1u << segBits) - 1u);
  P2GSfuD c = P2GSfuD(pc.globals + uint64_t(off) + 16ul + uint64_t(g) * 24ul);
  uint64_t P = p2g_sfu_dquad(c.v[0], c.v[1], c.v[2], low, int(segBits));
  uint r = (P >> 63) == 0ul && P != 0ul ? p2g_sfu2_d2f(P, rz) : 0u;  // P > 0
  uint at = off + 16u + (3u << k) * 8u;  // the residual words, then the exceptions
  if (rbits != 0u) {
    uint bit = i * rbits;
    uint field = (P2GSfuW(pc.globals + uint64_t(at)).v[bit >> 5] >> (bit & 31u)) & ((1u << rbits) - 1u);
    r += uint(int(field << (32u - rbits)) >> (32u - rbits));  // sign-extended
    at += (((((1u << n) * rbits + 31u) / 32u) + 1u) & ~1u) * 4u;
  }
  P2GSfuW e = P2GSfuW(pc.globals + uint64_t(at));
  int lo = 0;  // lower_bound of i among the exception indices (the C++ binary search's result, loop-free)
)" + lowerBound("nexc", "(e.v[lo + K] >> 8)") + R"(  if (lo < nexc && (e.v[lo] >> 8) == i) {
    if ((e.v[lo] & 0xFFu) != 0x80u) return r + uint(bitfieldExtract(int(e.v[lo]), 0, 8));
    P2GSfuW fl = P2GSfuW(pc.globals + uint64_t(at) + uint64_t(uint(nexc + 1) & ~1u) * 4ul);
    lo = 0;  // lower_bound of i among the whole values' indices
)" + lowerBound("nfull", "fl.v[2 * (lo + K)]") + R"(    return fl.v[2 * lo + 1];
  }
  return r;
}
)"});
  h.push_back({"p2g_sfu2_sincos", {"p2g_sfu2_fquad"}, {}, R"(// sin/cos.approx (sfu_models2.h, measured on the H200): r = RZ_f32(|x| * 0x3E22F983) (1/(2 pi) in f32: FMUL.RZ, then
// MUFU.SIN/COS take revolutions), F = floor(frac(r) * 2^25). The product of the two 24-bit significands is exact
// in 64 bits; RZ keeps its top 24 bits. (sfu_sincos_F)
uint p2g_sfu2_sincos_F(uint ax) {
  uint64_t Mx = uint64_t((ax & 0x7FFFFFu) | 0x800000u);
  int ex = int(ax >> 23) - 127;
  uint64_t p = Mx * 0xA2F983ul;  // in [2^46, 2^48)
  int top = (p >> 47) != 0ul ? 47 : 46;
  uint64_t M24 = p >> uint(top - 23);
  int sh = ex - 3 - 46 + top - 23 + 25;  // F = M24 * 2^sh mod 2^25
  uint64_t F;
  if (sh >= 25) F = 0ul;
  else if (sh >= 0) F = M24 << uint(sh);
  else F = sh <= -24 ? 0ul : M24 >> uint(-sh);
  return uint(F & 0x1FFFFFFul);
}
// sin of the 25-bit revolution fraction F: quadrant q = F >> 23, g = f or its one's-complement mirror 2^23 - 1 - f
// (q odd), P(g) from the recovered interpolator SINP, negative for q >= 2; P(0) = +0. (sfu_sin_fixed)
uint p2g_sfu2_sin_fixed(uint F) {
  uint q = F >> 23, f = F & 0x7FFFFFu;
  uint g = (q & 1u) != 0u ? 0x7FFFFFu - f : f;
  uint v = g != 0u ? p2g_sfu2_fquad(p2g_sfu2_off(P2G_SFU_T_SINP), g) : 0u;
  return q >= 2u ? v | 0x80000000u : v;
}
)"});
  h.push_back({"p2g_sfu_sin", {"p2g_sfu2_sincos", "p2g_sfu_dev"}, {}, R"(// sin.approx{.ftz}.f32: both forms flush denormal inputs (identical on all 2^32 inputs); exactly odd; inf/NaN: NaN.
uint p2g_sfu_sin(uint x) {
  if (P2G_SFU_NATIVE) {  // the device's sin (sfu_prelude.cpp p2g_sfu_dev)
    precise float r = sin(p2g_sfu_arg(x));
    return p2g_sfu_res(r);
  }
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return 0x7FFFFFFFu;
  uint F = ax < 0x00800000u ? 0u : p2g_sfu2_sincos_F(ax);
  return p2g_sfu2_sin_fixed(F) ^ sign;
}
)"});
  h.push_back({"p2g_sfu_cos", {"p2g_sfu2_sincos", "p2g_sfu_dev"}, {}, R"(// cos.approx{.ftz}.f32: cos(F) = sin(F + 2^23) (measured, no exception); even; inf/NaN: NaN.
uint p2g_sfu_cos(uint x) {
  if (P2G_SFU_NATIVE) {  // the device's cos
    precise float r = cos(p2g_sfu_arg(x));
    return p2g_sfu_res(r);
  }
  uint ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return 0x7FFFFFFFu;
  uint F = ax < 0x00800000u ? 0u : p2g_sfu2_sincos_F(ax);
  return p2g_sfu2_sin_fixed((F + 0x800000u) & 0x1FFFFFFu);
}
)"});
  h.push_back({"p2g_sfu_lg2", {"p2g_sfu2_fquad", "p2g_sfu_dev"}, {}, R"(// lg2.approx{.ftz}.f32 (sfu_lg2): x = (1 + m 2^-23) 2^e, s = e 2^38 + V_L(m) in two's complement (V_L: the
// recovered interpolator LG2P, 2^-38 units); s >= 0: RZ(trunc36(s)), s < 0: -RZ(trunc36(-s - 1)); lg2(1) = +0.
uint p2g_sfu2_lg2_normal(uint ax) {  // positive normal ax
  int e = int(ax >> 23) - 127;
  uint m = ax & 0x7FFFFFu;
  if (e == 0 && m == 0u) return 0u;
  uint off = p2g_sfu2_off(P2G_SFU_T_LG2P);
  uint h2 = p2g_sfu2_hd(off, 2u);
  int F = int(h2 & 0xFFu), OB = int((h2 >> 8) & 0xFFu);
  int64_t s = (int64_t(e) << uint(F)) + p2g_sfu2_interp_raw(off, m);
  if (s >= 0l) return p2g_sfu2_fix2f32_rz(uint64_t(s) >> uint(F - OB), OB);
  return 0x80000000u | p2g_sfu2_fix2f32_rz(uint64_t(-s - 1l) >> uint(F - OB), OB);
}
// f32 bits (finite) to binary64 bits, exactly (sfu_f32bits_to_d; sfu_i_f32_to_d).
uint64_t p2g_sfu2_f2d(uint f) {
  uint64_t sign = uint64_t(f >> 31) << 63;
  uint E = (f >> 23) & 0xFFu, m = f & 0x7FFFFFu;
  if (E == 0u) {
    if (m == 0u) return sign;
    int s = 23 - findMSB(m);
    m <<= uint(s);
    return sign | (uint64_t(1023 - 126 - s) << 52) | (uint64_t(m & 0x7FFFFFu) << 29);
  }
  return sign | (uint64_t(E + 896u) << 52) | (uint64_t(m) << 29);
}
uint p2g_sfu_lg2(uint x, bool ftz) {
  // the device's log2; a non-ftz subnormal x: of x 2^24, then - 24 as below (a negative x: NaN)
  if (P2G_SFU_NATIVE) {
    uint a = x;
    bool sub = !ftz && (x & 0x7FFFFFFFu) - 1u < 0x7FFFFFu;
    if (sub) {
      if ((x >> 31) != 0u) return 0x7FFFFFFFu;
      uint M; int e;
      p2g_sfu_split(x, M, e);
      a = (uint(e + 24 + 127) << 23) | (M & 0x7FFFFFu);
    }
    precise float r = log2(p2g_sfu_arg(a));
    uint y = p2g_sfu_res(r);
    return sub ? p2g_sfu2_d2f(p2g_sfu_dadd(p2g_sfu2_f2d(y), 0xC038000000000000ul), false) : y;
  }
  uint ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  if (ax == 0u) return 0xFF800000u;  // +-0 -> -inf
  if ((x >> 31) != 0u) return (ftz && ax < 0x00800000u) ? 0xFF800000u : 0x7FFFFFFFu;
  if (ax == 0x7F800000u) return 0x7F800000u;
  if (ax < 0x00800000u) {
    if (ftz) return 0xFF800000u;
    // non-ftz denormal: lg2.ftz(x 2^24) - 24, the subtraction an f32 add rounding to nearest (measured); the
    // model's binary64 add of -24 (0xC038000000000000) in integers, then RN to f32 (all 2^23 - 1 denormals
    // checked against the floating-point model: tests/sfu/test_quad_int.cpp)
    uint M; int e;
    p2g_sfu_split(ax, M, e);
    uint y = p2g_sfu2_lg2_normal((uint(e + 24 + 127) << 23) | (M & 0x7FFFFFu));
    return p2g_sfu2_d2f(p2g_sfu_dadd(p2g_sfu2_f2d(y), 0xC038000000000000ul), false);
  }
  return p2g_sfu2_lg2_normal(ax);
}
)"});
  h.push_back({"p2g_sfu_tanh", {"p2g_sfu2_fquad"}, {}, R"(// tanh.approx.f32 (sfu_tanh): |x| < 2^-8 (zeros, denormals included) -> x, |x| >= 8 and +-inf -> +-1, odd; the
// binades in between: the mantissa truncated to the table's n bits, one fitted table per binade (measured).
const uint p2g_sfu2_tanh_tab[11] = uint[](P2G_SFU_T_TANH_M8, P2G_SFU_T_TANH_M7, P2G_SFU_T_TANH_M6, P2G_SFU_T_TANH_M5,
    P2G_SFU_T_TANH_M4, P2G_SFU_T_TANH_M3, P2G_SFU_T_TANH_M2, P2G_SFU_T_TANH_M1, P2G_SFU_T_TANH_P0, P2G_SFU_T_TANH_P1,
    P2G_SFU_T_TANH_P2);
uint p2g_sfu_tanh(uint x) {
  uint sign = x & 0x80000000u, ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return 0x7FFFFFFFu;
  int E = int(ax >> 23);
  if (E < 127 - 8) return x;
  if (E > 127 + 2) return sign | 0x3F800000u;
  uint off = p2g_sfu2_off(p2g_sfu2_tanh_tab[E - 119]);
  return sign | p2g_sfu2_fquad(off, (ax & 0x7FFFFFu) >> (23u - p2g_sfu2_hd(off, 1u)));
}
)"});
  h.push_back({"p2g_sfu_tanh_16", {"p2g_sfu_tanh", "p2g_sfu_half"}, {}, R"(// The 16-bit tanh forms (measured on all 65,536 inputs each): tanh.approx.f16 = tanh.approx.f32 of the widened
// operand rounded toward zero to f16, tanh.approx.bf16 = its high half; a NaN result is 0x7FFF. x: 16 bits.
uint p2g_sfu_tanh_f16(uint x) { return p2g_sfu_f32_to_f16_rz(p2g_sfu_tanh(p2g_sfu_f16_to_f32(x & 0xFFFFu)), true); }
uint p2g_sfu_tanh_bf16(uint x) {
  uint r = p2g_sfu_tanh((x & 0xFFFFu) << 16);
  return (r & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFu : r >> 16;
}
)"});
  return h;
}

}  // namespace p2g
