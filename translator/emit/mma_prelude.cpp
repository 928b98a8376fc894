// GLSL transcription of the tensor-core arithmetic model (docs/MMA.md; the C++ model the fit measured is
// runtime/cuda_ref/probes/mma/mma_model.h): what exact mode emits for mma.sync. Integer code only (no float and no
// double operation), so neither a device's denormal handling nor its rounding can change a result.
//
// One D element: the K products a_k * b_k keep their exact significands with exponent ea + eb, c joins them; the
// terms are aligned to the largest exponent Emax of the non-zero terms and each is cut toward zero to 25 bits
// below 2^Emax; the cut terms are summed exactly (an int64: every term is below 2^27 units, at most 17 terms) and
// the sum is rounded once: f32 toward zero, f16 to nearest even; overflow gives infinity, an exact zero +0.
// Measured on an H200 (2026-12-01): 0 mismatches in 524,288 elements per form (docs/MMA.md).
#include "emitter.h"

namespace p2g {

std::vector<PreludeHelper> mmaHelpers() {
  std::vector<PreludeHelper> h;
  h.push_back({"p2g_mma_round", {}, {}, R"(// S * 2^q (S exact) rounded to f32 or f16 bits, toward zero or to nearest even; overflow gives infinity, an exact
// zero +0 (measured: docs/MMA.md).
uint p2g_mma_round(int64_t S, int q, bool outF16, bool rne) {
  if (S == 0l) return 0u;
  bool neg = S < 0l;
  uint64_t U = uint64_t(neg ? -S : S);
  uint hi = uint(U >> 32);
  int L = hi != 0u ? 32 + findMSB(hi) : findMSB(uint(U));
  int mb = outF16 ? 10 : 23, bias = outF16 ? 15 : 127, emaxB = outF16 ? 31 : 255;
  int lsb = max(L + q - mb, 1 - bias - mb);
  int drop = lsb - q;
  uint64_t r = drop <= 0 ? U << uint(-drop) : (drop >= 64 ? 0ul : U >> uint(drop));
  if (rne && drop > 0) {
    uint64_t rem = drop >= 64 ? U : U & ((1ul << uint(drop)) - 1ul);
    uint64_t hlf = drop >= 65 ? 0xFFFFFFFFFFFFFFFFul : 1ul << uint(drop - 1);
    if (rem > hlf || (rem == hlf && (r & 1ul) != 0ul)) r += 1ul;
    if ((r >> uint(mb + 1)) != 0ul) { r >>= 1; lsb += 1; }
  }
  uint sign = neg ? (outF16 ? 0x8000u : 0x80000000u) : 0u;
  uint R = uint(r);
  if ((R >> uint(mb)) == 0u) return sign | R;  // subnormal
  int be = lsb + mb + bias;
  if (be >= emaxB) return sign | (outF16 ? 0x7C00u : 0x7F800000u);
  return sign | (uint(be) << uint(mb)) | (R & ((1u << uint(mb)) - 1u));
}
)"});
  h.push_back({"p2g_mma_float", {"p2g_mma_round"}, {}, R"(// Tensor-core dot product (docs/MMA.md). Element types: 0 f16, 1 bf16, 2 tf32 (an f32 register, low 13 bits
// ignored: measured, class 5 of the probe), 3 f32. Decoded as sig * 2^(e - frac) with kind 0 finite, 1 inf, 2 NaN; a zero has sig 0.
void p2g_mma_dec(uint v, uint ty, out uint sig, out int e, out int frac, out bool neg, out uint kind) {
  uint eb = ty == 0u ? 5u : 8u, mb = ty == 0u ? 10u : ty == 1u ? 7u : ty == 2u ? 10u : 23u;
  if (ty == 2u) v >>= 13;  // tf32: the top 19 bits of the register (sign, 8 exponent, 10 mantissa bits)
  neg = ((v >> (eb + mb)) & 1u) != 0u;
  uint E = (v >> mb) & ((1u << eb) - 1u), m = v & ((1u << mb) - 1u);
  int bias = int((1u << (eb - 1u)) - 1u);
  frac = int(mb);
  kind = E == (1u << eb) - 1u ? (m != 0u ? 2u : 1u) : 0u;
  if (E == 0u) { sig = m; e = 1 - bias; } else { sig = m | (1u << mb); e = int(E) - bias; }
}
// D = sum_k A[k] * B[k] + c for one element; a, b: the K elements' bits (type tab), c: bits of type tc (f32 or f16),
// result: f32 bits (outF16 false) or f16 bits.
uint p2g_mma_float(uint a[32], uint b[32], uint K, uint tab, uint c, uint tc, bool outF16) {
  uint ps[17]; int pe[17]; int pf[17]; bool pn[17];
  bool nan = false, pinf = false, ninf = false;
  uint n = 0u;
  for (uint k = 0u; k < K; ++k) {
    uint sa, sb, ka, kb; int ea, eb, fa, fb; bool na, nb;
    p2g_mma_dec(a[k], tab, sa, ea, fa, na, ka);
    p2g_mma_dec(b[k], tab, sb, eb, fb, nb, kb);
    bool neg = na != nb;
    if (ka == 2u || kb == 2u) nan = true;
    else if (ka == 1u || kb == 1u) {
      if ((ka == 0u && sa == 0u) || (kb == 0u && sb == 0u)) nan = true;
      else if (neg) ninf = true; else pinf = true;
    } else if (sa != 0u && sb != 0u) {
      ps[n] = sa * sb; pe[n] = ea + eb; pf[n] = fa + fb; pn[n] = neg; ++n;
    }
  }
  {
    uint sc, kc; int ec, fc; bool nc;
    p2g_mma_dec(c, tc, sc, ec, fc, nc, kc);
    if (kc == 2u) nan = true;
    else if (kc == 1u) { if (nc) ninf = true; else pinf = true; }
    else if (sc != 0u) { ps[n] = sc; pe[n] = ec; pf[n] = fc; pn[n] = nc; ++n; }
  }
  if (nan || (pinf && ninf)) return outF16 ? 0x7FFFu : 0x7FFFFFFFu;
  if (pinf || ninf) return outF16 ? (ninf ? 0xFC00u : 0x7C00u) : (ninf ? 0xFF800000u : 0x7F800000u);
  if (n == 0u) return 0u;
  int emax = pe[0];
  for (uint i = 1u; i < n; ++i) emax = max(emax, pe[i]);
  // units of 2^(emax - 25); a term's shift: (e - frac) - (emax - 25), cut toward zero
  int64_t S = 0l;
  for (uint i = 0u; i < n; ++i) {
    int sh = pe[i] - pf[i] - emax + 25;
    uint64_t v = uint64_t(ps[i]);
    v = sh >= 0 ? v << uint(sh) : (sh <= -40 ? 0ul : v >> uint(-sh));
    S += pn[i] ? -int64_t(v) : int64_t(v);
  }
  return p2g_mma_round(S, emax - 25, outF16, outF16);
}
)"});
  h.push_back({"p2g_mma_frag", {}, {}, R"(// A[row][k] and B[k][col], k < K, of the warp whose thread 0 has linear index wbase, from the fragments every
// thread wrote to p2g_mma_x (6 words a thread: A registers 0..3, B registers 4..5). Layouts: PTX ISA "Matrix
// fragments for mma.m16n8k16 / m16n8k8 / m16n8k32" (g = lane >> 2, t = lane & 3), the ones p2g-mma-probe verified on
// the H200 (0 of 149,888 class-0 elements differ per form). shape: 0 m16n8k16 16-bit, 1 m16n8k8 tf32,
// 2 m16n8k8 16-bit, 3 m16n8k32 8-bit.
void p2g_mma_frag(uint wbase, uint shape, uint K, uint row, uint col, out uint a[32], out uint b[32]) {
  for (uint k = 0u; k < K; ++k) {
    uint la, ra, pa, lb, rb, pb, bits;
    if (shape == 0u) {
      la = (row & 7u) * 4u + ((k & 7u) >> 1); ra = (row >> 3) + 2u * (k >> 3); pa = k & 1u;
      lb = col * 4u + ((k & 7u) >> 1); rb = k >> 3; pb = k & 1u; bits = 16u;
    } else if (shape == 1u) {
      la = (row & 7u) * 4u + (k & 3u); ra = (row >> 3) + 2u * (k >> 2); pa = 0u;
      lb = col * 4u + (k & 3u); rb = k >> 2; pb = 0u; bits = 32u;
    } else if (shape == 2u) {
      la = (row & 7u) * 4u + (k >> 1); ra = row >> 3; pa = k & 1u;
      lb = col * 4u + (k >> 1); rb = 0u; pb = k & 1u; bits = 16u;
    } else {
      la = (row & 7u) * 4u + ((k & 15u) >> 2); ra = (row >> 3) + 2u * (k >> 4); pa = k & 3u;
      lb = col * 4u + ((k & 15u) >> 2); rb = k >> 4; pb = k & 3u; bits = 8u;
    }
    a[k] = bitfieldExtract(p2g_mma_x[(wbase + la) * 6u + ra], int(pa * bits), int(bits));
    b[k] = bitfieldExtract(p2g_mma_x[(wbase + lb) * 6u + 4u + rb], int(pb * bits), int(bits));
  }
}
)"});
  h.push_back({"p2g_mma_fp8", {"p2g_mma_float"}, {}, R"(// FP8 operand to f16 bits (exact: every e4m3 value is a normal f16, e5m2 is f16's top byte).
uint p2g_fp8_to_f16(uint v, bool e5m2) {
  if (e5m2) return (v & 0xFFu) << 8;
  uint sign = (v & 0x80u) << 8, E = (v >> 3) & 15u, m = v & 7u;
  if (E == 15u && m == 7u) return sign | 0x7E00u;  // NaN
  if (E == 0u) {
    if (m == 0u) return sign;
    int p = findMSB(m);  // m * 2^-9 = 2^(p - 9) * (m / 2^p)
    return sign | (uint(p + 6) << 10) | ((m << uint(10 - p)) & 0x3FFu);
  }
  return sign | ((E + 8u) << 10) | (m << 7);
}
// f32 addition rounded to nearest even on bits (NVIDIA's FADD: denormals kept, canonical NaN).
uint p2g_mma_fadd(uint a, uint b) {
  uint aa = a & 0x7FFFFFFFu, bb = b & 0x7FFFFFFFu;
  if (aa > 0x7F800000u || bb > 0x7F800000u) return 0x7FFFFFFFu;
  if (aa == 0x7F800000u || bb == 0x7F800000u) {
    if (aa == bb && ((a ^ b) >> 31) != 0u) return 0x7FFFFFFFu;
    return aa == 0x7F800000u ? a : b;
  }
  if (aa == 0u && bb == 0u) return a & b;  // -0 only when both are -0
  if (aa == 0u) return b;
  if (bb == 0u) return a;
  if (bb > aa) { uint t = a; a = b; b = t; t = aa; aa = bb; bb = t; }
  int xa = max(int(aa >> 23), 1), xb = max(int(bb >> 23), 1), d = xa - xb;
  if (d > 38) return a;  // b is below a quarter of a's ulp: a is the rounded sum
  int64_t A = int64_t(uint64_t((aa & 0x7FFFFFu) | ((aa >> 23) != 0u ? 0x800000u : 0u)) << uint(d));
  int64_t B = int64_t((bb & 0x7FFFFFu) | ((bb >> 23) != 0u ? 0x800000u : 0u));
  int64_t S = ((a >> 31) != 0u ? -A : A) + ((b >> 31) != 0u ? -B : B);
  return p2g_mma_round(S, xb - 150, false, true);
}
// f16 addition rounded to nearest even on bits (NVIDIA's HADD: denormals kept, canonical NaN): the exact sum in
// units of 2^-24 (at most 41 bits), rounded once.
uint p2g_mma_hadd(uint a, uint b) {
  uint aa = a & 0x7FFFu, bb = b & 0x7FFFu;
  if (aa > 0x7C00u || bb > 0x7C00u) return 0x7FFFu;
  if (aa == 0x7C00u || bb == 0x7C00u) {
    if (aa == bb && ((a ^ b) & 0x8000u) != 0u) return 0x7FFFu;
    return aa == 0x7C00u ? a : b;
  }
  if (aa == 0u && bb == 0u) return a & b;
  int64_t S = 0l;
  uint v[2] = uint[2](a, b);
  for (int i = 0; i < 2; ++i) {
    uint E = (v[i] >> 10) & 31u, m = v[i] & 0x3FFu;
    int64_t x = int64_t(uint64_t(E != 0u ? (m | 0x400u) : m) << uint(E != 0u ? E - 1u : 0u));
    S += (v[i] & 0x8000u) != 0u ? -x : x;
  }
  return p2g_mma_round(S, -24, true, true);
}
// m16n8k32 FP8 x FP8 + C (docs/MMA.md, measured): the operands become f16; the products of k with bit 1 clear,
// then those with bit 1 set, are two fused 16-term sums (the second adds the first's result, rounded to D's
// type), starting from +0; c is added last by an addition in D's type (f32 or f16) rounded to nearest even.
uint p2g_mma_fp8(uint a[32], uint b[32], bool ae5, bool be5, uint c, bool outF16) {
  uint ga[32], gb[32], ha[32], hb[32];
  uint n0 = 0u, n1 = 0u;
  for (uint k = 0u; k < 32u; ++k) {
    uint x = p2g_fp8_to_f16(a[k], ae5), y = p2g_fp8_to_f16(b[k], be5);
    if ((k & 2u) == 0u) { ga[n0] = x; gb[n0] = y; ++n0; } else { ha[n1] = x; hb[n1] = y; ++n1; }
  }
  uint tc = outF16 ? 0u : 3u;
  uint p = p2g_mma_float(ga, gb, 16u, 0u, 0u, tc, outF16);
  p = p2g_mma_float(ha, hb, 16u, 0u, p, tc, outF16);
  return outF16 ? p2g_mma_hadd(c, p) : p2g_mma_fadd(c, p);
}
)"});
  h.push_back({"p2g_mma_s8", {}, {}, R"(// s8 x s8 + s32 mma: the exact integer sum (measured: wrapping; .satfinite clamps to the s32 range).
uint p2g_mma_s8(uint a[32], uint b[32], uint c, bool sat) {
  int64_t s = int64_t(int(c));
  for (uint k = 0u; k < 32u; ++k) s += int64_t(bitfieldExtract(int(a[k]), 0, 8) * bitfieldExtract(int(b[k]), 0, 8));
  if (sat) s = clamp(s, -2147483648l, 2147483647l);
  return uint(s);
}
)"});
  return h;
}

}  // namespace p2g
