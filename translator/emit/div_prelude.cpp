// GLSL transcription of the approximate f32 divisions (sfu_div.h): what exact mode emits for div.approx{.ftz}.f32
// and div.full{.ftz}.f32. The steps are sfu_div.h's, one for one, in integer code; the reciprocal is MUFU.RCP's model
// p2g_sfu_rcp (sfu_prelude.cpp, tables in the globals buffer). sfu_div.h says what each form does and the evidence
// (ptx_corpus/ops/f32_div/expected, H200: 0 of 8192 values differ per form; tests/sfu/test_div.cpp).
//
// Determinism: no floating-point operation at all here (the multiplies are 24x24-bit integer products rounded in
// integer code), so neither a device's f32 denormal flushing nor its rounding can change a result.
#include "emitter.h"

namespace p2g {

std::vector<PreludeHelper> divHelpers() {
  std::vector<PreludeHelper> h;
  h.push_back({"p2g_div_fmul", {}, {}, R"(// f32 multiply on bits, rounded to nearest even (sfu_fmul). ftz: denormal operands are zeros of their sign, and a
// result that is tiny after rounding to 24 bits with an unbounded exponent is flushed (the f32 .ftz rule, measured).
void p2g_div_split(uint x, out uint M, out int e) {  // x = M * 2^(e-23), M in [2^23, 2^24)
  uint E = x >> 23, m = x & 0x7FFFFFu;
  if (E != 0u) { M = m | 0x800000u; e = int(E) - 127; return; }
  int s = 23 - findMSB(m);
  M = m << uint(s);
  e = -126 - s;
}
uint p2g_div_fmul(uint a, uint b, bool ftz) {
  uint sign = (a ^ b) & 0x80000000u, aa = a & 0x7FFFFFFFu, bb = b & 0x7FFFFFFFu;
  if (aa > 0x7F800000u || bb > 0x7F800000u) return 0x7FFFFFFFu;
  if (ftz) {
    if (aa < 0x00800000u) aa = 0u;
    if (bb < 0x00800000u) bb = 0u;
  }
  if (aa == 0x7F800000u || bb == 0x7F800000u) return (aa == 0u || bb == 0u) ? 0x7FFFFFFFu : (sign | 0x7F800000u);
  if (aa == 0u || bb == 0u) return sign;
  uint Ma, Mb;
  int ea, eb;
  p2g_div_split(aa, Ma, ea);
  p2g_div_split(bb, Mb, eb);
  uint64_t P = uint64_t(Ma) * uint64_t(Mb);  // exact: value = P * 2^e2, P in [2^46, 2^48)
  int e2 = ea + eb - 46;
  int top = (P >> 47) != 0ul ? 47 : 46;
  if (ftz) {
    uint64_t q = P >> uint(top - 23), rem = P & ((1ul << uint(top - 23)) - 1ul), hlf = 1ul << uint(top - 24);
    if (rem > hlf || (rem == hlf && (q & 1ul) != 0ul)) q++;
    if (top + e2 + int(q >> 24) < -126) return sign;
  }
  int be = top + e2 + 127;  // biased exponent if normal
  int sh = top - 23;        // right shift to 24 bits, more into the denormal range
  if (be < 1) sh += 1 - be;
  if (sh > 48) return sign;  // below half of the smallest denormal
  uint64_t q = P >> uint(sh), rem = P & ((1ul << uint(sh)) - 1ul), hlf = 1ul << uint(sh - 1);
  if (rem > hlf || (rem == hlf && (q & 1ul) != 0ul)) q++;
  uint64_t r = uint64_t(be < 1 ? 0u : uint(be - 1) << 23) + q;  // a carry moves into the exponent field
  return r >= 0x7F800000ul ? (sign | 0x7F800000u) : (sign | uint(r));
}
)"});
  h.push_back({"p2g_div_approx", {"p2g_div_fmul", "p2g_sfu_rcp"}, {}, R"(// div.approx{.ftz}.f32 (sfu_div_approx, H200: ops/f32_div): a * rcp.approx.ftz(b); without .ftz a denormal b and a are
// first scaled by 2^24. No scaling of a huge b: for 2^126 < |b| < 2^128 the result is +-0 (NaN for a = +-inf).
uint p2g_div_approx(uint a, uint b, bool ftz) {
  if (!ftz && (b & 0x7FFFFFFFu) < 0x00800000u) {
    a = p2g_div_fmul(a, 0x4B800000u, false);
    b = p2g_div_fmul(b, 0x4B800000u, false);
  }
  return p2g_div_fmul(a, p2g_sfu_rcp(b, true), ftz);
}
)"});
  h.push_back({"p2g_div_full", {"p2g_div_fmul", "p2g_sfu_rcp"}, {}, R"(// div.full{.ftz}.f32 (sfu_div_full, H200: ops/f32_div): for 2^126 < |b| < inf a and b are first scaled by 1/4, without
// .ftz a denormal b and a by 2^24; then a * rcp.approx.ftz(b).
uint p2g_div_full(uint a, uint b, bool ftz) {
  uint ab = b & 0x7FFFFFFFu;
  if (ab > 0x7E800000u && ab < 0x7F800000u) {
    a = p2g_div_fmul(a, 0x3E800000u, ftz);
    b = p2g_div_fmul(b, 0x3E800000u, ftz);
  } else if (!ftz && ab < 0x00800000u) {
    a = p2g_div_fmul(a, 0x4B800000u, false);
    b = p2g_div_fmul(b, 0x4B800000u, false);
  }
  return p2g_div_fmul(a, p2g_sfu_rcp(b, true), ftz);
}
)"});
  return h;
}

}  // namespace p2g
