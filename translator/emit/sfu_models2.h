// Software models of NVIDIA's lg2.approx{.ftz}.f32, sin.approx{.ftz}.f32, cos.approx{.ftz}.f32 and tanh.approx.f32
// (and through the measured 16-bit rule, tanh.approx.{f16,bf16}{,x2}), bit-identical to the H200 on every collected
// slice (docs/SFU.md, section "lg2, sin, cos, tanh"). Companion of sfu_models.h (rcp/rsqrt/sqrt/ex2), same
// conventions: header-only, dependency-free, compiled by the host compiler (tests/sfu) and by nvcc
// (ptx_corpus/sfu/sfu_probe.cu, `run.sh verify`, which compares every input with the hardware).
//
// The reductions (all measured, docs/SFU.md lists the commands):
//   sin/cos  r = RZ_f32(|x| * 0x3e22f983) (1/(2*pi) in f32; SASS: FMUL.RZ then MUFU.SIN/COS, which take revolutions),
//            F = floor(frac(r) * 2^25) (25-bit fixed-point fraction, truncated), cos(F) = sin(F + 2^23);
//            sin(F) over the four quadrants of F = q*2^23 + f is +-P(g) with g = f (q even) or 2^23-1-f (q odd,
//            one's complement mirror), negative for q >= 2: ONE reduced function P on 2^23 points (table SINP,
//            the hardware interpolator, recovered exactly).
//   lg2      x = (1 + m/2^23) * 2^e: s = e + L(m) in two's-complement fixed point with 38 fraction bits, L the
//            interpolator (table LG2P); s >= 0 -> RZ(trunc36(s)), s < 0 -> -RZ(trunc36(-s - 1)) (one's
//            complement); lg2(1) = +0 is the one special case. Non-ftz denormal inputs: lg2(x * 2^24) - 24 with an
//            f32 add (the compiler's non-ftz sequence).
//   tanh     |x| < 2^-8 -> x (denormals included), |x| >= 8 -> +-1, odd; binade e in [-8, 2] of |x|: the mantissa
//            is truncated to n_e bits (n_e = 17..21, measured per binade), then one table per binade (TANH_M8 ..
//            TANH_P2).
// SINP and LG2P are the hardware interpolator itself (Oberman & Siu, "A high-performance area-efficient
// multifunction interpolator", ARITH 2005: C0 + C1*Xl + C2*Xl^2 per segment, with a truncated squarer), recovered
// exactly: 64 segments of integer coefficients (I: specs of ptx_corpus/sfu/tools/gen.cpp). The tanh tables are
// fitted: a piecewise quadratic in double (2^k segments, evaluated c0 + t*(c1 + t*c2) without fused operations),
// converted to f32 with RZ or RN (exactly, by bit manipulation), then corrected by a dense array of small signed
// residuals (rbits bits per entry, 0 = none) and a sorted sparse exception list (int8 corrections in f32 ulps)
// (F: specs). gen.cpp writes translator/sfu/tables/sfu_tables2.bin and checks every table through this header's
// evaluator, so the tables are exact by construction on the data they were built from.
#pragma once
#include "sfu_models.h"
#include "sfu_quad_int.h"  // sfu_i_d_to_f32: the conversion on the bit pattern

#define SFU_MODELS2 1   // ptx_corpus/sfu/sfu_probe.cu verifies both table sets when it sees this header

// ---- one float-valued reduced function ---------------------------------------------------------------------------
// Two kinds. A fitted table: a quadratic in double per segment, residuals, exceptions (below). An interpolator
// table (interp = 1): the hardware's own fixed-point interpolator, recovered exactly (no residuals, no exceptions):
//   V = C0 + C1 * x + C2 * sq(x), x = the low n - k bits of the input, sq(x) = sfu_sqtrunc(x, col),
// V in units of 2^-F, truncated to OB fraction bits, then to f32 (RZ). docs/SFU.md gives the measurements.
struct SfuFTable {
  int k = 0;      // 2^k segments
  int n = 0;      // 2^n inputs
  int rbits = 0;  // bits per dense residual entry (0, 2, 4 or 8)
  int rz = 0;     // conversion of the quadratic's double value to f32: 1 = toward zero, 0 = to nearest even
  int nexc = 0;
  int nfull = 0;
  int interp = 0, F = 0, OB = 0, col = 0;   // interpolator tables
  const uint64_t* coef = nullptr;   // 3 << k doubles (bits): c0, c1, c2 per segment; interp: int64 C0, C1, C2
  const uint32_t* resid = nullptr;  // ceil(2^n * rbits / 32) words, entry i at bit i*rbits, signed
  const uint32_t* exc = nullptr;    // nexc entries: index << 8 | int8 correction, sorted by index; correction
                                    // -128 (0x80): the value is in `full` instead
  const uint32_t* full = nullptr;   // nfull pairs (index, f32 bits), sorted by index
};

enum SfuTable2Id {
  SFU_T2_SINP, SFU_T2_LG2P,
  SFU_T2_TANH_M8, SFU_T2_TANH_M7, SFU_T2_TANH_M6, SFU_T2_TANH_M5, SFU_T2_TANH_M4, SFU_T2_TANH_M3, SFU_T2_TANH_M2,
  SFU_T2_TANH_M1, SFU_T2_TANH_P0, SFU_T2_TANH_P1, SFU_T2_TANH_P2, SFU_T2_NUM
};
static const char* const kSfuTable2Name[SFU_T2_NUM] = {
  "SINP", "LG2P", "TANH_M8", "TANH_M7", "TANH_M6", "TANH_M5", "TANH_M4", "TANH_M3", "TANH_M2", "TANH_M1",
  "TANH_P0", "TANH_P1", "TANH_P2"};
constexpr int kSfuTanhMinExp = -8, kSfuTanhMaxExp = 2;   // binades with a table; below: x, above: +-1
struct SfuTables2 { SfuFTable t[SFU_T2_NUM]; };

constexpr uint32_t kSfu2Magic = 0x32465350u;   // "PSF2"

// Words of the dense residual array (padded to an even count so that the next coefficients stay 8-byte aligned).
inline uint64_t sfu_resid_words(int n, int rbits) {
  uint64_t w = ((1ull << n) * (uint64_t)rbits + 31) / 32;
  return (w + 1) & ~1ull;
}

// Reads the blob written by gen.cpp for F: and I: specs ("PSF2", count, then per table: name[16], then
//   fitted table:        k, n, nexc, flags = rbits | rz << 8 | nfull << 12 (nfull < 2^18), coefficients, residual
//                        words, exceptions padded to an even count, nfull (index, value) pairs;
//   interpolator table:  k, n, F | OB << 8 | col << 16, 1 << 30, then 3 << k int64 coefficients).
// The tables point into `blob`, which must outlive them. False if a table is missing or truncated.
inline bool sfu_load_tables2(const uint8_t* blob, uint64_t size, SfuTables2* out) {
  if (size < 8) return false;
  uint32_t hdr[2];
  __builtin_memcpy(hdr, blob, 8);
  if (hdr[0] != kSfu2Magic) return false;
  uint64_t off = 8;
  uint32_t found = 0;
  for (uint32_t i = 0; i < hdr[1]; i++) {
    if (off + 32 > size) return false;
    char name[17] = {0};
    __builtin_memcpy(name, blob + off, 16);
    int32_t h[4];
    __builtin_memcpy(h, blob + off + 16, 16);
    off += 32;
    if (h[3] & (1 << 30)) {   // interpolator table
      int F = h[2] & 0xff, OB = (h[2] >> 8) & 0xff, col = (h[2] >> 16) & 0xff;
      if (h[0] < 0 || h[0] > 20 || h[1] < h[0] || h[1] > 23 || F < OB || F > 60 || col > 60) return false;
      uint64_t need = (3ull << h[0]) * 8;
      if (off + need > size) return false;
      for (int t = 0; t < SFU_T2_NUM; t++) {
        bool same = true;
        for (int c = 0; c < 17 && same; c++) { same = name[c] == kSfuTable2Name[t][c]; if (!name[c]) break; }
        if (!same) continue;
        SfuFTable& T = out->t[t];
        T = SfuFTable();
        T.k = h[0]; T.n = h[1]; T.interp = 1; T.F = F; T.OB = OB; T.col = col;
        T.coef = (const uint64_t*)(blob + off);
        found |= 1u << t;
      }
      off += need;
      continue;
    }
    int rbits = h[3] & 0xff;
    if (h[0] < 0 || h[0] > 20 || h[1] < h[0] || h[1] > 23 || h[2] < 0 || (rbits != 0 && rbits != 2 && rbits != 4 && rbits != 8))
      return false;
    uint64_t nc = 3ull << h[0], nr = rbits ? sfu_resid_words(h[1], rbits) : 0;
    uint64_t nfull = ((uint32_t)h[3] >> 12) & 0x3ffffu;
    uint64_t need = nc * 8 + nr * 4 + (uint64_t)((h[2] + 1) & ~1) * 4 + nfull * 8;
    if (off + need > size) return false;
    for (int t = 0; t < SFU_T2_NUM; t++) {
      bool same = true;
      for (int c = 0; c < 17 && same; c++) { same = name[c] == kSfuTable2Name[t][c]; if (!name[c]) break; }
      if (!same) continue;
      SfuFTable& T = out->t[t];
      T = SfuFTable();
      T.k = h[0]; T.n = h[1]; T.nexc = h[2]; T.rbits = rbits; T.rz = (h[3] >> 8) & 1;
      T.coef = (const uint64_t*)(blob + off);
      T.resid = rbits ? (const uint32_t*)(blob + off + nc * 8) : nullptr;
      T.exc = (const uint32_t*)(blob + off + nc * 8 + nr * 4);
      T.nfull = (int)nfull;
      T.full = (const uint32_t*)(blob + off + nc * 8 + nr * 4 + (uint64_t)((h[2] + 1) & ~1) * 4);
      found |= 1u << t;
    }
    off += need;
  }
  // sfu_lg2 works on the fixed-point value of LG2P: it must be an interpolator table.
  return found == (1u << SFU_T2_NUM) - 1 && out->t[SFU_T2_LG2P].interp;
}

// ---- exact conversions (bit manipulation: identical on the host and the device) -----------------------------------
SFU_HD uint64_t sfu_d2bits(double d) {
#ifdef __CUDA_ARCH__
  return (uint64_t)__double_as_longlong(d);
#else
  uint64_t b;
  __builtin_memcpy(&b, &d, 8);
  return b;
#endif
}
// f32 bits (finite) -> double, exactly.
SFU_HD double sfu_f32bits_to_d(uint32_t f) {
  uint64_t sign = (uint64_t)(f >> 31) << 63;
  uint32_t E = (f >> 23) & 0xffu, m = f & 0x7fffffu;
  if (E == 0) {
    if (!m) return sfu_bits2d(sign);
    int s = 0;
    while (!(m & 0x800000u)) { m <<= 1; s++; }
    return sfu_bits2d(sign | ((uint64_t)(1023 - 126 - s) << 52) | ((uint64_t)(m & 0x7fffffu) << 29));
  }
  return sfu_bits2d(sign | ((uint64_t)(E - 127 + 1023) << 52) | ((uint64_t)m << 29));
}
// |d| -> f32 bits with the sign of d, rounded toward zero (rz) or to nearest even. Results in the normal f32 range
// only (the tables and reductions here never produce others; smaller magnitudes give a signed zero, larger inf).
SFU_HD uint32_t sfu_d2f32bits(double d, bool rz) { return sfu_i_d_to_f32(sfu_d2bits(d), rz); }

// The interpolator's squarer (measured on sin, lg2; docs/SFU.md): the partial products of x * x -- b_i b_j 2^(i+j),
// the cross terms (i < j) counted twice -- of weight >= 2^col only, summed, shifted right by col. Lower partial
// products are never formed, so nothing carries in from them (a truncated squarer, cf. Oberman & Siu, ARITH 2005).
SFU_HD uint64_t sfu_sqtrunc(uint32_t x, int col) {
  uint64_t s = 0;
  for (int i = 0; i < 32 && (x >> i); i++) {
    if (!((x >> i) & 1u)) continue;
    if (2 * i >= col) s += 1ull << (2 * i);
    int lo = i + 1 > col - 1 - i ? i + 1 : col - 1 - i;   // partners j > i with i + j + 1 >= col
    if (lo < 32) s += (uint64_t)((x >> lo) << lo) << (i + 1);
  }
  return s >> col;
}
// Unsigned fixed-point v * 2^-fracBits to f32 bits, truncating (v < 2^63; normal results only).
SFU_HD uint32_t sfu_fix2f32_rz(uint64_t v, int fracBits) {
  if (!v) return 0;
#ifdef __CUDA_ARCH__
  int top = 63 - __clzll((long long)v);
#else
  int top = 63 - __builtin_clzll(v);
#endif
  uint32_t M = top <= 23 ? (uint32_t)(v << (23 - top)) : (uint32_t)(v >> (top - 23));
  return ((uint32_t)(top - fracBits + 127) << 23) | (M & 0x7fffffu);
}
// The interpolator's fixed-point value V (units 2^-F) at entry i, and entry i as f32.
SFU_HD int64_t sfu_interp_raw(const SfuFTable& T, uint32_t i) {
  const int segBits = T.n - T.k;
  uint32_t g = i >> segBits, x = i & ((1u << segBits) - 1u);
  const uint64_t* c = T.coef + 3 * g;
  return (int64_t)c[0] + (int64_t)c[1] * (int64_t)x + (int64_t)c[2] * (int64_t)sfu_sqtrunc(x, T.col);
}
SFU_HD uint32_t sfu_interp(const SfuFTable& T, uint32_t i) {
  int64_t V = sfu_interp_raw(T, i);
  return V > 0 ? sfu_fix2f32_rz((uint64_t)V >> (T.F - T.OB), T.OB) : 0u;
}

// Value (f32 bits, >= 0) of entry i of a table.
SFU_HD uint32_t sfu_fquad(const SfuFTable& T, uint32_t i) {
  if (T.interp) return sfu_interp(T, i);
  const int segBits = T.n - T.k;
  uint32_t g = i >> segBits, low = i & ((1u << segBits) - 1u);
  double t = (double)low * (1.0 / (double)(1u << segBits));   // exact: power-of-two scale
  const uint64_t* c = T.coef + 3 * g;
  double P = sfu_dadd(sfu_bits2d(c[0]), sfu_dmul(t, sfu_dadd(sfu_bits2d(c[1]), sfu_dmul(t, sfu_bits2d(c[2])))));
  uint32_t r = P > 0 ? sfu_d2f32bits(P, T.rz != 0) : 0u;
  if (T.rbits) {
    uint32_t bit = i * (uint32_t)T.rbits;
    uint32_t field = (T.resid[bit >> 5] >> (bit & 31)) & ((1u << T.rbits) - 1u);
    int32_t v = (int32_t)(field << (32 - T.rbits)) >> (32 - T.rbits);   // sign-extend
    r += (uint32_t)v;
  }
  int lo = 0, hi = T.nexc;   // lower_bound of i in the sorted exception list
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if ((T.exc[mid] >> 8) < i) lo = mid + 1; else hi = mid;
  }
  if (lo < T.nexc && (T.exc[lo] >> 8) == i) {
    uint32_t c = T.exc[lo] & 0xffu;
    if (c != 0x80u) return r + (uint32_t)(int32_t)(int8_t)c;
    lo = 0; hi = T.nfull;   // a value too far from the quadratic for an int8 correction: stored whole
    while (lo < hi) {
      int mid = (lo + hi) >> 1;
      if (T.full[2 * mid] < i) lo = mid + 1; else hi = mid;
    }
    return T.full[2 * lo + 1];
  }
  return r;
}

// ---- sin / cos ------------------------------------------------------------------------------------------------------
// F = floor(frac(r) * 2^25) for r = RZ_f32(|x| * 0x3e22f983), |x| normal and finite (ax = its bits). The product of
// the two 24-bit significands is exact in 64 bits; RZ keeps its top 24 bits.
SFU_HD uint32_t sfu_sincos_F(uint32_t ax) {
  const uint64_t Mc = 0xa2f983u;   // significand of 0x3e22f983 (exponent -3)
  uint64_t Mx = (ax & 0x7fffffu) | 0x800000u;
  int ex = (int)(ax >> 23) - 127;
  uint64_t p = Mx * Mc;   // in [2^46, 2^48): value p * 2^(ex - 3 - 46)
  int top = p >> 47 ? 47 : 46;
  uint64_t M24 = p >> (top - 23);   // truncation: r = M24 * 2^(ex - 3 - 46 + top - 23)
  int sh = ex - 3 - 46 + top - 23 + 25;   // F = M24 * 2^sh mod 2^25
  uint64_t F;
  if (sh >= 25) F = 0;
  else if (sh >= 0) F = M24 << sh;
  else F = sh <= -24 ? 0 : M24 >> -sh;
  return (uint32_t)(F & ((1u << 25) - 1u));
}
// sin of the fixed-point revolution fraction F (25 bits) as f32 bits.
SFU_HD uint32_t sfu_sin_fixed(const SfuTables2& T, uint32_t F) {
  uint32_t q = F >> 23, f = F & 0x7fffffu;
  uint32_t g = (q & 1u) ? 0x7fffffu - f : f;
  uint32_t v = g ? sfu_fquad(T.t[SFU_T2_SINP], g) : 0u;   // P(0) = +0 (table entry 0 is not fitted)
  return q >= 2 ? v | 0x80000000u : v;
}
// sin.approx{.ftz}.f32 (both forms identical: denormal inputs are flushed in both, measured).
SFU_HD uint32_t sfu_sin(const SfuTables2& T, uint32_t x) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return kSfuNaN;
  uint32_t F = ax < 0x00800000u ? 0u : sfu_sincos_F(ax);
  return sfu_sin_fixed(T, F) ^ sign;   // exactly odd (measured on all inputs)
}
// cos.approx{.ftz}.f32: cos(F) = sin(F + 2^23) (measured, 0 exceptions), even.
SFU_HD uint32_t sfu_cos(const SfuTables2& T, uint32_t x) {
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return kSfuNaN;
  uint32_t F = ax < 0x00800000u ? 0u : sfu_sincos_F(ax);
  return sfu_sin_fixed(T, (F + 0x800000u) & 0x1ffffffu);
}

// ---- lg2 ------------------------------------------------------------------------------------------------------------
SFU_HD uint32_t sfu_lg2(const SfuTables2& T, uint32_t x, bool ftz) {
  uint32_t ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  if (ax == 0) return 0xff800000u;                                // +-0 -> -inf
  if (x >> 31) return (ftz && ax < 0x00800000u) ? 0xff800000u : kSfuNaN;   // -denormal flushed to -0 under ftz
  if (ax == 0x7f800000u) return 0x7f800000u;
  if (ax < 0x00800000u) {
    if (ftz) return 0xff800000u;
    // Non-ftz denormal: lg2(x * 2^24) - 24, the subtraction an f32 add rounding to nearest (measured on all
    // 8,388,607 positive denormals, slice lg2.approx.f32 E=0).
    uint32_t M; int e;
    sfu_split(ax, &M, &e);
    uint32_t y = sfu_lg2(T, ((uint32_t)(e + 24 + 127) << 23) | (M & 0x7fffffu), true);
    return sfu_d2f32bits(sfu_dadd(sfu_f32bits_to_d(y), -24.0), false);
  }
  int e = (int)(ax >> 23) - 127;
  uint32_t m = ax & 0x7fffffu;
  if (e == 0 && m == 0) return 0;   // lg2(1) = +0 (the interpolator alone would give 7377 * 2^-36)
  // s = e + L(m) in two's-complement fixed point (2^-38 units); a negative sum is converted through its one's
  // complement (-s - 1), then both are truncated to 36 fraction bits and to f32 (measured: docs/SFU.md).
  const SfuFTable& L = T.t[SFU_T2_LG2P];
  int64_t s = ((int64_t)e << L.F) + sfu_interp_raw(L, m);
  if (s >= 0) return sfu_fix2f32_rz((uint64_t)s >> (L.F - L.OB), L.OB);
  return 0x80000000u | sfu_fix2f32_rz((uint64_t)(-s - 1) >> (L.F - L.OB), L.OB);
}

// ---- tanh -----------------------------------------------------------------------------------------------------------
SFU_HD uint32_t sfu_tanh(const SfuTables2& T, uint32_t x) {
  uint32_t sign = x & 0x80000000u, ax = x & 0x7fffffffu;
  if (sfu_isnan(x)) return kSfuNaN;
  int E = (int)(ax >> 23);
  if (E < 127 + kSfuTanhMinExp) return x;                       // |x| < 2^-8, zeros and denormals: x unchanged
  if (E > 127 + kSfuTanhMaxExp) return sign | 0x3f800000u;      // |x| >= 8 and +-inf: +-1
  const SfuFTable& t = T.t[SFU_T2_TANH_M8 + (E - 127 - kSfuTanhMinExp)];
  return sign | sfu_fquad(t, (ax & 0x7fffffu) >> (23 - t.n));   // mantissa truncated to n bits (measured per binade)
}

// ---- dispatch -------------------------------------------------------------------------------------------------------
SFU_HD bool sfu_model32_has2(int op) {
  return op == SFU_LG2_FTZ || op == SFU_LG2 || op == SFU_SIN_FTZ || op == SFU_SIN || op == SFU_COS_FTZ ||
         op == SFU_COS || op == SFU_TANH;
}
SFU_HD uint32_t sfu_model32_2(const SfuTables2& T, int op, uint32_t x) {
  switch (op) {
    case SFU_LG2_FTZ: return sfu_lg2(T, x, true);
    case SFU_LG2: return sfu_lg2(T, x, false);
    case SFU_SIN_FTZ: case SFU_SIN: return sfu_sin(T, x);
    case SFU_COS_FTZ: case SFU_COS: return sfu_cos(T, x);
    case SFU_TANH: return sfu_tanh(T, x);
    default: return kSfuNaN;
  }
}
// tanh.approx.f16 = tanh.approx.f32 rounded toward zero to f16; tanh.approx.bf16 = its high half (NaN: 0x7fff);
// the .x2 forms are the scalar form per lane (all measured, docs/SFU.md).
SFU_HD bool sfu_model16_has2(int op) { return op == SFU_TANH_F16 || op == SFU_TANH_BF16; }
SFU_HD uint16_t sfu_model16_2(const SfuTables2& T, int op, uint16_t x) {
  if (op == SFU_TANH_F16) return sfu_f32_to_f16_rz(sfu_tanh(T, sfu_f16_to_f32(x)), true);
  if (op == SFU_TANH_BF16) {
    uint32_t r = sfu_tanh(T, (uint32_t)x << 16);
    return sfu_isnan(r) ? (uint16_t)0x7fff : (uint16_t)(r >> 16);
  }
  return 0x7fff;
}

// Both table sets: every modelled instruction through one entry point (the probe's verify mode uses these).
struct SfuAllTables { SfuTables t1; SfuTables2 t2; };
SFU_HD bool sfu_model32_has_all(int op) { return sfu_model32_has(op) || sfu_model32_has2(op); }
SFU_HD uint32_t sfu_model32_all(const SfuAllTables& T, int op, uint32_t x) {
  return sfu_model32_has(op) ? sfu_model32(T.t1, op, x) : sfu_model32_2(T.t2, op, x);
}
SFU_HD bool sfu_model16_has_all(int op) { return sfu_model16_has(op) || sfu_model16_has2(op); }
SFU_HD uint16_t sfu_model16_all(const SfuAllTables& T, int op, uint16_t x) {
  return sfu_model16_has(op) ? sfu_model16(T.t1, op, x) : sfu_model16_2(T.t2, op, x);
}
