// The SFU models' quadratic c0 + t*(c1 + t*c2), evaluated in binary64 round-to-nearest-even (IEEE 754-2008, 4.3.1:
// each operation correctly rounded, no fused multiply-add) with 64-bit integer arithmetic only: no double type.
// sfu_models.h / sfu_models2.h evaluate the same expression with the host's double arithmetic; they remain the
// reference (the tables were fitted with it), and this file is the C++ twin of the integer code that exact mode emits
// in GLSL (sfu_prelude.cpp: p2g_sfu_dmul_t, p2g_sfu_dadd, p2g_sfu_dquad, p2g_sfu_dfloor), so that kernels whose PTX
// has no f64 instruction need no f64 on the device (issue "Exact and fast", item 7; not every Vulkan device offers
// shaderFloat64, and consumer GPUs run it at a small fraction of the f32 rate).
//
// Values are binary64 bit patterns (uint64_t). Only what the evaluation meets is implemented: finite operands, normal
// or zero, results normal or zero (no subnormal, no overflow: the coefficients' and intermediate results' exponents
// stay within 2^-55 .. 2^24, far from both ends; tests/sfu/test_quad_int.cpp checks every table); t is
// low * 2^-s with an integer 0 <= low < 2^s, s <= 23, hence exact and non-negative.
// tests/sfu/test_quad_int.cpp compares every intermediate bit pattern with the double evaluation for every input
// of every table (exhaustive: each table has at most 2^23 inputs): 0 differences.
#pragma once
#include <cstdint>

#ifndef SFU_HD
#ifdef __CUDACC__
#define SFU_HD __host__ __device__ inline
#else
#define SFU_HD inline
#endif
#endif

SFU_HD int sfu_i_msb64(uint64_t v) {   // v != 0
#ifdef __CUDA_ARCH__
  return 63 - __clzll((long long)v);
#else
  return 63 - __builtin_clzll(v);
#endif
}

// Round-to-nearest-even of the non-negative integer q * 2^sh + (rem / 2^sh), rem < 2^sh, 1 <= sh <= 63: q, or q + 1
// above the halfway point, or at it when q is odd (IEEE 754 roundTiesToEven).
SFU_HD uint64_t sfu_i_rne(uint64_t q, uint64_t rem, int sh) {
  uint64_t half = 1ull << (sh - 1);
  return (rem > half || (rem == half && (q & 1))) ? q + 1 : q;
}

// Pack sign, unbiased exponent e and significand q in [2^52, 2^53] (2^53: a rounding carried out; the exponent takes
// it, since adding q - 2^52 to the biased exponent field lets the carry propagate into it).
SFU_HD uint64_t sfu_i_pack(uint64_t sign, int e, uint64_t q) {
  return sign | (((uint64_t)(e + 1023 - 1) << 52) + q);
}

// a * (low * 2^-s), 0 <= low < 2^s, s <= 23, a normal or zero. The exact product of the 53-bit significand and low has
// at most 76 bits: it is formed as hi * 2^32 + lo (the significand split into 21 and 32 bits, each partial product
// below 2^64), then rounded once to 53 bits. A zero factor gives a zero with a's sign (IEEE 754: the sign of a
// product is the XOR of the operands' signs; t >= +0).
SFU_HD uint64_t sfu_i_mul_t(uint64_t a, uint32_t low, int s) {
  uint64_t sign = a & 0x8000000000000000ull;
  uint32_t E = (uint32_t)(a >> 52) & 0x7ffu;
  if (E == 0 || low == 0) return sign;
  uint64_t m = (a & 0xfffffffffffffull) | 0x10000000000000ull;
  uint64_t pl = (m & 0xffffffffull) * low;            // < 2^55
  uint64_t H = (m >> 32) * low + (pl >> 32);            // product >> 32, < 2^45
  uint64_t L = pl & 0xffffffffull;                      // product mod 2^32
  int top = H ? 32 + sfu_i_msb64(H) : sfu_i_msb64(L);   // >= 52 since m >= 2^52 and low >= 1
  int sh = top - 52;                                    // 0 .. 23
  uint64_t q = sh == 0 ? (H << 32 | L) : (H << (32 - sh)) | (L >> sh);   // product >> sh (< 2^53)
  if (sh > 0) q = sfu_i_rne(q, L & ((1ull << sh) - 1), sh);
  // value = product * 2^(E - 1075 - s) = q * 2^(E - 1075 - s + sh), q ~ 2^52: exponent E - 1023 - s + sh
  return sfu_i_pack(sign, (int)E - 1023 - s + sh, q);
}

// a + b, both normal or zero. Significands are aligned with 10 guard bits below the 53 (the larger operand's
// significand shifted to bits 62 .. 10); the bits of the smaller one shifted out collapse into a sticky bit at bit 0.
// The result keeps at least 9 bits below its rounding point whenever the sticky bit is set (alignment by 2 or more
// leaves the difference at least 2^61), and as it lies strictly between the same two even integers as the exact
// sum, every rounding decision is the exact sum's (Goldberg, "What every computer scientist should know about
// floating-point arithmetic", 1991, sec. 1.4, guard and sticky digits). An exact zero sum is +0 (roundTiesToEven).
SFU_HD uint64_t sfu_i_add(uint64_t a, uint64_t b) {
  const uint64_t SIGN = 0x8000000000000000ull;
  if ((a & ~SIGN) < (b & ~SIGN)) { uint64_t x = a; a = b; b = x; }   // |a| >= |b|
  uint32_t Ea = (uint32_t)(a >> 52) & 0x7ffu, Eb = (uint32_t)(b >> 52) & 0x7ffu;
  if (Eb == 0) return Ea == 0 ? (a & b) : a;   // b zero: a (two zeros: -0 only if both are -0)
  uint64_t ma = ((a & 0xfffffffffffffull) | 0x10000000000000ull) << 10;
  uint64_t mb = ((b & 0xfffffffffffffull) | 0x10000000000000ull) << 10;
  uint32_t d = Ea - Eb;
  if (d >= 64) mb = 1;
  else if (d > 0) mb = (mb >> d) | ((mb & ((1ull << d) - 1)) != 0);
  uint64_t sign = a & SIGN;
  uint64_t r = ((a ^ b) & SIGN) ? ma - mb : ma + mb;   // < 2^64: ma, mb < 2^63
  if (r == 0) return 0;
  int top = sfu_i_msb64(r);
  int sh = top - 52;
  uint64_t q;
  if (sh > 0) q = sfu_i_rne(r >> sh, r & ((1ull << sh) - 1), sh);
  else q = r << -sh;
  // r's unit is 2^(Ea - 1085): value q * 2^(Ea - 1085 + sh), exponent Ea - 1085 + sh + 52
  return sfu_i_pack(sign, (int)Ea - 1033 + sh, q);
}

// c0 + t*(c1 + t*c2), t = low * 2^-s: the order and the roundings of sfu_quad (sfu_models.h) and sfu_fquad
// (sfu_models2.h).
SFU_HD uint64_t sfu_i_quad(const uint64_t* c, uint32_t low, int s) {
  return sfu_i_add(c[0], sfu_i_mul_t(sfu_i_add(c[1], sfu_i_mul_t(c[2], low, s)), low, s));
}

// floor of a finite binary64 as int64 (|value| < 2^63).
SFU_HD int64_t sfu_i_floor(uint64_t a) {
  uint32_t E = (uint32_t)(a >> 52) & 0x7ffu;
  bool neg = (a >> 63) != 0;
  if (E < 1023) return (neg && (a << 1) != 0) ? -1 : 0;   // |a| < 1
  uint64_t m = (a & 0xfffffffffffffull) | 0x10000000000000ull;
  int e = (int)E - 1023;
  uint64_t ip = e >= 52 ? m << (e - 52) : m >> (52 - e);
  bool frac = e < 52 && (m & ((1ull << (52 - e)) - 1)) != 0;
  return neg ? -(int64_t)ip - (frac ? 1 : 0) : (int64_t)ip;
}

// f32 bits (finite) -> binary64 bits, exactly (the integer half of sfu_f32bits_to_d).
SFU_HD uint64_t sfu_i_f32_to_d(uint32_t f) {
  uint64_t sign = (uint64_t)(f >> 31) << 63;
  uint32_t E = (f >> 23) & 0xffu, m = f & 0x7fffffu;
  if (E == 0) {
    if (!m) return sign;
    int s = 23 - sfu_i_msb64(m);
    m <<= s;
    return sign | ((uint64_t)(1023 - 126 - s) << 52) | ((uint64_t)(m & 0x7fffffu) << 29);
  }
  return sign | ((uint64_t)(E - 127 + 1023) << 52) | ((uint64_t)m << 29);
}
// binary64 bits -> f32 bits, toward zero (rz) or to nearest even: sfu_d2f32bits on the bit pattern (normal f32
// results only; smaller magnitudes give a signed zero, larger infinity).
SFU_HD uint32_t sfu_i_d_to_f32(uint64_t b, bool rz) {
  uint32_t sign = (uint32_t)(b >> 63) << 31;
  int e = (int)((b >> 52) & 0x7ff) - 1023;
  if (e < -126) return sign;
  if (e > 127) return sign | 0x7f800000u;
  uint64_t m = b & ((1ull << 52) - 1);
  uint32_t r = ((uint32_t)(e + 127) << 23) | (uint32_t)(m >> 29);
  uint64_t rem = m & ((1ull << 29) - 1);
  if (!rz && (rem > (1ull << 28) || (rem == (1ull << 28) && (r & 1)))) r++;   // a carry into the exponent is right
  return sign | r;
}
