// Fits the tensor-core arithmetic model (docs/MMA.md) to what p2g-mma-probe measured on the GPU: regenerates each
// sample's inputs (mma_gen.h), evaluates candidate models over a grid of parameters and prints, per form and
// candidate, how many D elements differ from the measurement (per sample class). Runs here, without a GPU.
//   usage: p2g-mma-fit DIR [FORM]      DIR holds mma_<form>.bin from the probe
//
// A candidate (after Fasi et al., "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021, and MMA-Sim,
// arXiv 2511.10909): every product a_k * b_k is exact; the products and c are aligned to the largest leading-bit
// position Emax among them and each is cut to F bits below Emax (toward zero, or toward -inf); the cut terms are
// summed exactly; the sum is rounded once to the output format (toward zero, or to nearest even). K may be split
// into groups that are accumulated one after the other, each group's result rounded like the output.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mma_gen.h"

using namespace mmaprobe;
using i128 = __int128;

namespace {

struct Term {  // (-1)^neg * mag * 2^exp; kind: 0 finite, 1 inf, 2 nan
  bool neg = false;
  uint64_t mag = 0;
  int exp = 0;
  int kind = 0;
};

Term decode(El t, uint32_t v, bool flushSub) {
  Term r;
  Fmt f = fmtOf(t);
  if (t == El::TF32) v &= ~0x1FFFu;  // assumption refined by the fit (class 5 shows how tf32 reads an f32)
  r.neg = (v >> (f.bits - 1)) & 1;
  uint32_t e = (v >> f.m) & ((1u << f.e) - 1), m = v & ((1u << f.m) - 1);
  int bias = (1 << (f.e - 1)) - 1;
  if (t == El::E4M3) {
    if (e == 15 && m == 7) { r.kind = 2; return r; }
  } else if (e == (1u << f.e) - 1) {
    r.kind = m ? 2 : 1;
    return r;
  }
  if (e == 0) {
    if (flushSub) m = 0;
    r.mag = m;
    r.exp = 1 - bias - f.m;
  } else {
    r.mag = m | (1u << f.m);
    r.exp = int(e) - bias - f.m;
  }
  return r;
}

int lead(const Term& t) { return t.mag ? t.exp + 63 - __builtin_clzll(t.mag) : -100000; }

struct Model {
  int F = 25;          // bits kept below the leading bit of the largest term
  bool floorCut = false;  // cut toward -inf (two's complement shift) instead of toward zero
  bool rne = false;    // final rounding to nearest even (else toward zero)
  int group = 0;       // 0: all K at once; else products in groups of `group`, accumulated in order
  bool flushSubIn = false;
};

// Rounds (-1)^neg * S * 2^e (S exact) to a float format with `m` mantissa bits and `ebits` exponent bits.
uint32_t roundTo(bool neg, i128 S, int e, int m, int ebits, bool rne, bool& overflow) {
  overflow = false;
  int bits = 1 + ebits + m;
  uint32_t sign = uint32_t(neg) << (bits - 1);
  if (S == 0) return sign;
  unsigned __int128 u = (unsigned __int128)S;
  int L = 127;
  while (!((u >> L) & 1)) --L;
  int bias = (1 << (ebits - 1)) - 1;
  int E = L + e;  // leading bit's weight
  int lsbW = E - m;
  int minLsb = 1 - bias - m;
  if (lsbW < minLsb) lsbW = minLsb;
  int sh = lsbW - e;  // bits to drop
  unsigned __int128 q;
  if (sh <= 0) q = u << (-sh);
  else {
    q = sh >= 128 ? 0 : u >> sh;
    if (rne && sh < 128) {
      unsigned __int128 rem = u & ((((unsigned __int128)1) << sh) - 1), half = ((unsigned __int128)1) << (sh - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  // q * 2^lsbW; normalise
  uint64_t qq = uint64_t(q);
  int exp = lsbW;
  if (qq >> (m + 1)) { qq >>= 1; ++exp; }
  if (!(qq >> m)) return sign | uint32_t(qq);  // subnormal (or rounded up to the smallest normal: handled below)
  int be = exp + m + bias;
  if (be >= (1 << ebits) - 1) { overflow = true; return sign | (((1u << ebits) - 1) << m); }
  return sign | (uint32_t(be) << m) | uint32_t(qq & ((1u << m) - 1));
}

// D element (i, j) of sample `s` under model `M`; out: the bits.
uint32_t evalElem(const Form& F, const Sample& s, int i, int j, const Model& M) {
  bool f16out = F.d == El::F16;
  int om = f16out ? 10 : 23, oe = f16out ? 5 : 8;
  Term c = decode(F.c, s.c[i * F.n + j], false);
  std::vector<Term> prods(F.k);
  for (int k = 0; k < F.k; ++k) {
    Term a = decode(F.a, s.a[i * F.k + k], M.flushSubIn), b = decode(F.b, s.b[k * F.n + j], M.flushSubIn);
    Term p;
    p.neg = a.neg != b.neg;
    if (a.kind == 2 || b.kind == 2) p.kind = 2;
    else if (a.kind == 1 || b.kind == 1) p.kind = (a.mag == 0 && a.kind == 0) || (b.mag == 0 && b.kind == 0) ? 2 : 1;
    else { p.mag = a.mag * b.mag; p.exp = a.exp + b.exp; }
    prods[k] = p;
  }
  int group = M.group ? M.group : F.k;
  Term acc = c;
  uint32_t bitsOut = 0;
  for (int g0 = 0; g0 < F.k; g0 += group) {
    std::vector<Term> t(prods.begin() + g0, prods.begin() + g0 + group);
    t.push_back(acc);
    bool nan = false, pinf = false, ninf = false;
    for (auto& x : t) {
      if (x.kind == 2) nan = true;
      if (x.kind == 1) (x.neg ? ninf : pinf) = true;
    }
    if (nan || (pinf && ninf)) return f16out ? 0x7FFFu : 0x7FFFFFFFu;
    if (pinf || ninf) {
      bitsOut = (ninf ? (f16out ? 0x8000u : 0x80000000u) : 0u) | (f16out ? 0x7C00u : 0x7F800000u);
      acc = decode(F.d, bitsOut, false);
      continue;
    }
    int Emax = -100000;
    for (auto& x : t) Emax = std::max(Emax, lead(x));
    if (Emax == -100000) {  // all zero: the sign of an exact zero sum (-0 only if every term is -0)
      bool allNeg = true;
      for (auto& x : t) allNeg = allNeg && x.neg;
      bitsOut = allNeg ? (f16out ? 0x8000u : 0x80000000u) : 0u;
      acc = decode(F.d, bitsOut, false);
      continue;
    }
    int base = Emax - M.F;  // weight of the last kept bit
    i128 S = 0;
    for (auto& x : t) {
      if (!x.mag) continue;
      int sh = base - x.exp;
      i128 v;
      if (sh <= 0) v = i128(x.mag) << (-sh);
      else v = sh >= 64 ? 0 : i128(x.mag >> sh);
      if (x.neg) {
        if (M.floorCut && sh > 0 && (sh >= 64 || (x.mag & ((1ull << sh) - 1)))) v += 1;
        v = -v;
      }
      S += v;
    }
    bool neg = S < 0;
    bool ovf;
    bitsOut = roundTo(neg, neg ? -S : S, base, om, oe, M.rne, ovf);
    acc = decode(F.d, bitsOut, false);
  }
  return bitsOut;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: p2g-mma-fit DIR [FORM]\n");
    return 2;
  }
  std::string dir = argv[1];
  int only = argc > 2 ? atoi(argv[2]) : -1;
  for (int fi = 0; fi < kNumForms; ++fi) {
    if (only >= 0 && fi != only) continue;
    const Form& F = kForms[fi];
    std::string path = dir + "/mma_" + std::to_string(fi) + ".bin";
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) { fprintf(stderr, "cannot read %s\n", path.c_str()); continue; }
    std::vector<uint32_t> D;
    uint32_t w;
    while (fread(&w, 4, 1, f) == 1) D.push_back(w);
    fclose(f);
    size_t per = size_t(F.m) * F.n;
    int samples = int(D.size() / per);
    printf("== form %d %s: %d samples\n", fi, F.name, samples);
    if (F.a == El::S8) {
      long bad = 0, tot = 0;
      Sample s;
      for (int si = 0; si < samples; ++si) {
        generate(fi, si, s);
        for (int i = 0; i < F.m; ++i)
          for (int j = 0; j < F.n; ++j) {
            int64_t acc = int32_t(s.c[i * F.n + j]);
            for (int k = 0; k < F.k; ++k) acc += int64_t(int8_t(s.a[i * F.k + k])) * int8_t(s.b[k * F.n + j]);
            int32_t want = F.satfinite ? int32_t(std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, acc)))
                                       : int32_t(uint32_t(uint64_t(acc)));
            ++tot;
            if (uint32_t(want) != D[si * per + i * F.n + j]) ++bad;
          }
      }
      printf("  exact integer sum (%s): %ld of %ld differ\n", F.satfinite ? "saturating" : "wrapping", bad, tot);
      continue;
    }
    struct Res { Model m; long bad[kClasses]; long tot[kClasses]; };
    std::vector<Res> res;
    for (int F_ = 20; F_ <= 30; ++F_)
      for (int fc = 0; fc < 2; ++fc)
        for (int rn = 0; rn < 2; ++rn)
          for (int gr : {0, 4, 8, 16})
            for (int fs = 0; fs < 2; ++fs) {
              if (gr && gr >= F.k) continue;
              Model M{F_, bool(fc), bool(rn), gr, bool(fs)};
              Res r{M, {}, {}};
              Sample s;
              for (int si = 0; si < samples; ++si) {
                generate(fi, si, s);
                for (int i = 0; i < F.m; ++i)
                  for (int j = 0; j < F.n; ++j) {
                    uint32_t got = D[si * per + i * F.n + j], want = evalElem(F, s, i, j, M);
                    ++r.tot[s.cls];
                    if (got != want) ++r.bad[s.cls];
                  }
              }
              res.push_back(r);
            }
    std::sort(res.begin(), res.end(), [](const Res& x, const Res& y) {
      long a = 0, b = 0;
      for (int c : {1, 2, 3, 5}) { a += x.bad[c]; b += y.bad[c]; }
      return a < b;
    });
    for (size_t r = 0; r < std::min<size_t>(6, res.size()); ++r) {
      auto& R = res[r];
      printf("  F=%d cut=%s round=%s group=%d flushSubIn=%d:", R.m.F, R.m.floorCut ? "floor" : "zero",
             R.m.rne ? "rne" : "rz", R.m.group, int(R.m.flushSubIn));
      for (int c = 0; c < kClasses; ++c) printf(" c%d %ld/%ld", c, R.bad[c], R.tot[c]);
      printf("\n");
    }
  }
  return 0;
}
