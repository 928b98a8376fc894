// The tensor-core arithmetic model (docs/MMA.md), parameterised so that p2g-mma-fit can compare variants against
// what p2g-mma-probe measured. The winning parameters per form are in kHopper below and in docs/MMA.md.
//
// One D element is computed from the K products a_k * b_k and c (after Fasi et al., PeerJ CS 2021, and MMA-Sim,
// arXiv 2511.10909):
//  - every input is read as sig * 2^(e - m): sig has the implicit bit (subnormals: no implicit bit, e = emin);
//  - a product keeps its exact significand sig_a * sig_b and the exponent ea + eb (the exponents' sum, not the
//    position of the product's leading bit: a product significand lies in [1, 4));
//  - Emax is the largest exponent among the non-zero terms (products and c);
//  - each term is cut to F fractional bits below 2^Emax, toward zero (its magnitude is truncated, sign kept);
//  - the cut terms are summed exactly and the sum is rounded once to the output type (f32: toward zero;
//    f16: to nearest even), overflow gives infinity;
//  - K may be split into groups accumulated in order, the output of one group being c of the next.
// Special values: a NaN input, inf * 0 or +inf + -inf give the canonical NaN (0x7FFFFFFF, f16 0x7FFF); otherwise
// an infinite product or c gives that infinity.
#pragma once
#include <cstdint>
#include <cstring>

#include "mma_gen.h"

namespace mmaprobe {

struct Model {
  int F = 25;             // fractional bits kept below 2^Emax
  bool rneF32 = false;    // f32 output rounded to nearest even (else toward zero)
  bool rzF16 = false;     // f16 output rounded toward zero (else nearest even)
  int group = 0;          // 0: all of K at once; else K split into K/group groups accumulated in order
  int split = 0;          // which k belong to group g: 0 contiguous (k / group); 1..3 by bit (split-1) of k,
                          // pattern-wise (k >> (split - 1)) & (K/group - 1)
  bool reverse = false;   // groups accumulated last first
  bool fp8Chain = false;  // FP8: P = the products of k with bit 1 clear, then those with bit 1 set, each group a
                          // fused sum (F bits, rounded to D's type) starting from +0; D = c + P in D's type (RNE)
  bool zeroExp = false;   // zero terms take part in Emax with exponent -126 + (other factor's exponent)
  bool ftzOut = false;    // subnormal results flushed to zero
  bool satInf = false;    // overflow gives the largest finite value instead of infinity
};

struct Val {  // (-1)^neg * sig * 2^(e - frac); kind: 0 finite (sig may be 0), 1 inf, 2 nan
  bool neg = false;
  uint64_t sig = 0;
  int e = 0, frac = 0, kind = 0;
};

inline Val decodeVal(El t, uint32_t v) {
  Val r;
  Fmt f = fmtOf(t);
  if (t == El::TF32) v &= ~0x1FFFu;
  r.neg = (v >> (f.bits - 1)) & 1;
  uint32_t e = (v >> f.m) & ((1u << f.e) - 1), m = v & ((1u << f.m) - 1);
  int bias = (1 << (f.e - 1)) - 1;
  r.frac = f.m;
  if (t == El::E4M3) {
    if (e == 15 && m == 7) { r.kind = 2; return r; }
  } else if (e == (1u << f.e) - 1) {
    r.kind = m ? 2 : 1;
    return r;
  }
  if (e == 0 && t == El::E4M3 && m) {
    // FP8 operands reach the tensor core as f16 (measured: the FP8 forms below), where every e4m3 value is normal
    r.sig = m;
    r.e = 1 - bias;
    while (r.sig < 8) r.sig <<= 1, --r.e;
    return r;
  }
  if (e == 0) { r.sig = m; r.e = m ? 1 - bias : -126; }
  else { r.sig = m | (1u << f.m); r.e = int(e) - bias; }
  return r;
}

// Rounds (-1)^neg * S * 2^q (S >= 0 exact) to a float with `m` mantissa and `eb` exponent bits.
inline uint32_t roundOut(bool neg, unsigned __int128 S, int q, int m, int eb, bool rne, const Model& M) {
  int bits = 1 + eb + m;
  uint32_t sign = uint32_t(neg) << (bits - 1);
  if (S == 0) return 0;  // an exact zero sum is +0 (measured, docs/MMA.md)
  int L = 127;
  while (!((S >> L) & 1)) --L;
  int bias = (1 << (eb - 1)) - 1;
  int lsb = L + q - m;                // weight of the last kept bit for a normal result
  if (lsb < 1 - bias - m) lsb = 1 - bias - m;
  int sh = lsb - q;
  unsigned __int128 r;
  if (sh <= 0) r = S << (-sh);
  else {
    r = sh >= 128 ? 0 : S >> sh;
    if (rne && sh <= 128) {
      unsigned __int128 half = ((unsigned __int128)1) << (sh - 1);
      unsigned __int128 rem = sh >= 128 ? S : S & ((half << 1) - 1);
      if (rem > half || (rem == half && (r & 1))) ++r;
    }
  }
  int be = lsb + m + bias;  // biased exponent if r has its leading bit at position m
  if (r >> (m + 1)) { r >>= 1; ++be; }
  if (!(r >> m)) {  // subnormal
    if (M.ftzOut) return sign;
    return sign | uint32_t(r);
  }
  if (be >= (1 << eb) - 1) {
    if (M.satInf) return sign | ((((1u << eb) - 2) << m) | ((1u << m) - 1));
    return sign | (((1u << eb) - 1) << m);
  }
  return sign | (uint32_t(be) << m) | uint32_t(r & ((1u << m) - 1));
}

inline uint32_t evalModel(const Form& F, const Sample& s, int i, int j, const Model& M);

// f32 addition rounded to nearest even, denormals kept, NaN canonical (NVIDIA's FADD).
inline uint32_t faddRne(uint32_t a, uint32_t b) {
  float x, y;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  float z = x + y;
  uint32_t r;
  memcpy(&r, &z, 4);
  return z != z ? 0x7FFFFFFFu : r;
}

// f16 addition rounded to nearest even (NVIDIA's HADD: denormals kept, NaN canonical): the exact sum in units of
// 2^-24 (at most 41 bits), rounded once.
inline uint32_t haddRne(uint32_t a, uint32_t b, const Model& M) {
  Val x = decodeVal(El::F16, a), y = decodeVal(El::F16, b);
  if (x.kind == 2 || y.kind == 2 || (x.kind == 1 && y.kind == 1 && x.neg != y.neg)) return 0x7FFFu;
  if (x.kind == 1) return a & 0xFFFFu;
  if (y.kind == 1) return b & 0xFFFFu;
  if (!x.sig && !y.sig) return (a & b) & 0x8000u;
  __int128 S = 0;
  for (const Val* v : {&x, &y})
    if (v->sig) S += (v->neg ? -1 : 1) * ((__int128)v->sig << (v->e + 14));
  bool neg = S < 0;
  return roundOut(neg, (unsigned __int128)(neg ? -S : S), -24, 10, 5, true, M);
}

// D element (i, j) of sample s.
inline uint32_t evalModel(const Form& F, const Sample& s, int i, int j, const Model& M) {
  if (M.fp8Chain) {
    Model G = M;
    G.fp8Chain = false, G.group = 16, G.split = 2, G.reverse = false;
    Sample t = s;
    t.c[i * F.n + j] = 0;
    uint32_t p = evalModel(F, t, i, j, G);
    return F.d == El::F32 ? faddRne(s.c[i * F.n + j], p) : haddRne(s.c[i * F.n + j], p, G);
  }
  bool f16out = F.d == El::F16;
  uint32_t nanBits = f16out ? 0x7FFFu : 0x7FFFFFFFu;
  int group = M.group ? M.group : F.k;
  uint32_t acc = s.c[i * F.n + j];
  int ng = F.k / group;
  for (int gi = 0; gi < ng; ++gi) {
    int g = M.reverse ? ng - 1 - gi : gi;
    Val c = decodeVal(F.c, acc);
    Val t[33];
    int n = 0;
    bool nan = c.kind == 2, pinf = c.kind == 1 && !c.neg, ninf = c.kind == 1 && c.neg;
    for (int k = 0; k < F.k; ++k) {
      int kg = M.split == 0 ? k / group : (k >> (M.split - 1)) & (ng - 1);
      if (kg != g) continue;
      Val a = decodeVal(F.a, s.a[i * F.k + k]), b = decodeVal(F.b, s.b[k * F.n + j]);
      Val p;
      p.neg = a.neg != b.neg;
      if (a.kind == 2 || b.kind == 2) nan = true;
      else if (a.kind == 1 || b.kind == 1) {
        if ((a.kind == 0 && a.sig == 0) || (b.kind == 0 && b.sig == 0)) nan = true;
        else (p.neg ? ninf : pinf) = true;
      } else {
        p.sig = a.sig * b.sig;
        p.e = a.e + b.e;
        p.frac = a.frac + b.frac;
        t[n++] = p;
      }
    }
    if (nan || (pinf && ninf)) return nanBits;
    if (pinf || ninf) {
      acc = (ninf ? (f16out ? 0x8000u : 0x80000000u) : 0u) | (f16out ? 0x7C00u : 0x7F800000u);
      continue;
    }
    t[n++] = c;
    int Emax = -100000;
    for (int x = 0; x < n; ++x) {
      if (t[x].sig) Emax = t[x].e > Emax ? t[x].e : Emax;
      else if (M.zeroExp && t[x].e > Emax) Emax = t[x].e;
    }
    if (Emax == -100000) { acc = 0; continue; }
    // sum in units of 2^(Emax - F)
    __int128 S = 0;
    for (int x = 0; x < n; ++x) {
      if (!t[x].sig) continue;
      int sh = (Emax - M.F) - (t[x].e - t[x].frac);  // bits below the unit
      unsigned __int128 v = t[x].sig;
      if (sh <= 0) v <<= -sh;
      else v = sh >= 100 ? 0 : v >> sh;
      S += t[x].neg ? -(__int128)v : (__int128)v;
    }
    bool neg = S < 0;
    unsigned __int128 U = neg ? (unsigned __int128)(-S) : (unsigned __int128)S;
    acc = f16out ? roundOut(neg, U, Emax - M.F, 10, 5, !M.rzF16, M) : roundOut(neg, U, Emax - M.F, 23, 8, M.rneF32, M);
  }
  return acc;
}

}  // namespace mmaprobe
