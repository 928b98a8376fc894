// Models of NVIDIA's approximate f32 divisions div.approx{.ftz}.f32 and div.full{.ftz}.f32, built on the exact
// model of MUFU.RCP (rcp.approx.ftz.f32, sfu_rcp in sfu_models.h). Header-only, integer code only, so that the same
// steps are the C++ reference (tests/sfu/test_div.cpp) and the source of the GLSL helpers (div_prelude.cpp).
//
// What each form is (found by testing hypotheses against ptx_corpus/ops/f32_div/expected, written on the H200:
// 8192 operand pairs per form, 336 of them with 2^126 < |b| < 2^128, 1550 with a denormal b, 49 with b = 0, 1548
// with a denormal a, 856 with a NaN operand; every form reproduces all 8192 values, tests/sfu/test_div.cpp):
//
//   div.approx.f32      if |b| < 2^-126: a *= 2^24, b *= 2^24 (f32 multiplies);   d = a * rcp.ftz(b)
//   div.full.f32        if 2^126 < |b| < inf: a *= 1/4, b *= 1/4; else if |b| < 2^-126: a *= 2^24, b *= 2^24;
//                       d = a * rcp.ftz(b)
//   div.full.ftz.f32    if 2^126 < |b| < inf: a *= 1/4, b *= 1/4 (.ftz multiplies); d = a *.ftz rcp.ftz(b)
//   div.approx.ftz.f32  d = a *.ftz rcp.ftz(b)
//
// "*" is one correctly rounded f32 multiply (round to nearest even, denormal results kept); "*.ftz" flushes denormal
// operands and results that are tiny after rounding with an unbounded exponent (the rule measured for f32 .ftz,
// HAZARDS_IMPLEMENTED.md row 5; p2g_f64_to_f32_ftz). Every NaN result is 0x7FFFFFFF (NVIDIA's canonical NaN).
//
// Evidence that the data pins these steps down (each alternative changes hundreds of the 8192 values):
//   - div.approx.f32 does NOT scale a huge divisor: for 2^126 < |b| < 2^128 rcp.ftz(b) is below 2^-126 and flushed,
//     so d = a * 0 = +-0 (and NaN for a = +-inf), as libdevice documents for __nv_fast_fdividef ("returns 0 for
//     2^126 < y < 2^128 and x != inf", "NaN for x = inf"). Scaling as div.full does: 226 values differ.
//   - both non-ftz forms scale a denormal divisor by 2^24 (plain a * rcp(b): 1364 / 1590 values differ); scaling
//     the reciprocal instead of a (d = a * (rcp(b * 2^24) * 2^24)): 393 differ; div.full scaling the reciprocal
//     instead of a for huge b (d = a * (rcp(b / 4) / 4)): 139 differ.
//   - div.full.ftz flushes denormal operands (0/denormal and denormal/denormal are NaN, x/denormal is +-inf).
// The PTX ISA states the intent: div.approx.f32 is a * (1/b) with a special case for |b| in [2^126, 2^128];
// div.full.f32 is the "full-range approximate divide" (operands scaled), with a maximum error of 2 ulp.
// div.approx.ftz.f32 was modelled first without ground truth, as the flushed div.approx (what the libdevice special
// cases above describe for the fast-math division); the H200 data added since (ops/f32_div/div_approx_ftz, and
// 2^20 values in the op sweep) agrees on every value.
#pragma once
#include <cstdint>

#include "sfu_models.h"

// f32 multiply on bits, rounded to nearest even. ftz: denormal operands count as zeros of their sign and a result
// that is tiny after rounding to 24 bits with an unbounded exponent becomes a zero of its sign.
SFU_HD uint32_t sfu_fmul(uint32_t a, uint32_t b, bool ftz) {
  uint32_t sign = (a ^ b) & 0x80000000u, aa = a & 0x7fffffffu, bb = b & 0x7fffffffu;
  if (sfu_isnan(aa) || sfu_isnan(bb)) return kSfuNaN;
  if (ftz) {
    if (aa < 0x00800000u) aa = 0;
    if (bb < 0x00800000u) bb = 0;
  }
  if (aa == 0x7f800000u || bb == 0x7f800000u) return (aa == 0 || bb == 0) ? kSfuNaN : (sign | 0x7f800000u);
  if (aa == 0 || bb == 0) return sign;
  uint32_t Ma, Mb;
  int ea, eb;
  sfu_split(aa, &Ma, &ea);
  sfu_split(bb, &Mb, &eb);
  uint64_t P = (uint64_t)Ma * Mb;   // exact product: value = P * 2^e2, P in [2^46, 2^48)
  int e2 = ea + eb - 46;
  if (ftz) {
    int top = (P >> 47) ? 47 : 46;  // P in [2^top, 2^(top+1))
    int sh = top - 23;
    uint64_t q = P >> sh, rem = P & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (q & 1))) q++;   // 24 bits, or 2^24 after a carry
    if (top + e2 + (int)(q >> 24) < -126) return sign;  // exponent of the rounded value
  }
  return sfu_round(P, e2, sign);
}

constexpr uint32_t kSfuDivQuarter = 0x3e800000u;   // 0.25f
constexpr uint32_t kSfuDivTwo24 = 0x4b800000u;     // 2^24 as f32

// div.approx{.ftz}.f32
SFU_HD uint32_t sfu_div_approx(const SfuTables& T, uint32_t a, uint32_t b, bool ftz) {
  if (!ftz && (b & 0x7fffffffu) < 0x00800000u) {   // denormal (or zero) divisor: scaled into the normal range
    a = sfu_fmul(a, kSfuDivTwo24, false);
    b = sfu_fmul(b, kSfuDivTwo24, false);
  }
  return sfu_fmul(a, sfu_rcp(T, b, true), ftz);
}

// div.full{.ftz}.f32
SFU_HD uint32_t sfu_div_full(const SfuTables& T, uint32_t a, uint32_t b, bool ftz) {
  uint32_t ab = b & 0x7fffffffu;
  if (ab > 0x7e800000u && ab < 0x7f800000u) {      // 2^126 < |b| < inf: 1/b would be below 2^-126
    a = sfu_fmul(a, kSfuDivQuarter, ftz);
    b = sfu_fmul(b, kSfuDivQuarter, ftz);
  } else if (!ftz && ab < 0x00800000u) {           // denormal (or zero) divisor
    a = sfu_fmul(a, kSfuDivTwo24, false);
    b = sfu_fmul(b, kSfuDivTwo24, false);
  }
  return sfu_fmul(a, sfu_rcp(T, b, true), ftz);
}
