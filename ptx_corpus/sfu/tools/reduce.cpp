// The measured reductions behind translator/emit/sfu_models2.h (lg2, sin/cos, tanh), checked on the collected
// slices with counts (docs/SFU.md quotes this program's output). It uses only the data and plain arithmetic (not
// the model's tables), so each line is a fact about the hardware results:
//   g++ -O2 -std=c++17 -I tests/sfu -I translator/emit ptx_corpus/sfu/tools/reduce.cpp -llzma -o /tmp/sfu_reduce
//   /tmp/sfu_reduce ptx_corpus/sfu/data [sin|lg2|tanh]
#include <cfenv>
#include <cmath>
#include <map>
#include <string>

#include "sfu_data.h"
#include "sfu_models2.h"   // only sfu_sincos_F and the conversions

static float bitsf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

// The slices of op (positive inputs) present in the data, by biased exponent.
static std::vector<int> exps(const sfu_data::Store& st, const std::string& op) {
  std::vector<int> e;
  for (int E = 0; E < 255; E++) {
    char nm[128];
    snprintf(nm, sizeof nm, "s32_%s_p_E%03d.dz", op.c_str(), E);
    if (st.has(nm)) e.push_back(E);
  }
  return e;
}

// f32 product x * c in the host FPU's current rounding mode (set by the caller).
static float mul(float x, float c) {
  volatile float a = x, b = c;
  volatile float r = a * b;
  return r;
}

static void sinCos(const sfu_data::Store& st) {
  const float c = bitsf(0x3e22f983u);   // 1/(2*pi) in f32
  const uint32_t Q = 1u << 23, FULL = 1u << 25, U = 0xffffffffu;
  // 1. Which fixed-point fraction of which product decides the result: results as a function of
  //    F = floor(frac(r) * 2^N), r = x * c in f32 with RZ or RN; conflicts = inputs whose result differs from an
  //    earlier input with the same F. Both sin and cos slices; F for cos shifted by a quarter (checked in 2).
  for (bool rz : {true, false})
    for (int N : {24, 25}) {
      uint64_t conf = 0, tot = 0;
      for (const char* op : {"sin.approx.ftz.f32", "cos.approx.ftz.f32"}) {
        std::vector<uint32_t> T(1u << N, U);
        for (int E : exps(st, op)) {
          std::vector<uint32_t> v = st.slice(op, 0, E);
          fesetround(rz ? FE_TOWARDZERO : FE_TONEAREST);
          for (uint32_t m = 0; m < v.size(); m++) {
            double r = mul(bitsf(((uint32_t)E << 23) | m), c);   // exact in double: F below has no rounding
            uint32_t F = (uint32_t)ldexp(r - floor(r), N);
            uint32_t& t = T[F];
            if (t == U) t = v[m]; else conf += t != v[m];
            tot++;
          }
          fesetround(FE_TONEAREST);
        }
      }
      printf("sin/cos: result a function of floor(frac(%s(x*0x3e22f983))*2^%d)? %llu of %llu inputs conflict\n",
             rz ? "RZ" : "RN", N, (unsigned long long)conf, (unsigned long long)tot);
    }
  // 2. With F (RZ, 25 bits, as sfu_sincos_F computes it): cos(F) = sin(F + 2^23), and the quadrant relations.
  std::vector<uint32_t> S(FULL, U), C(FULL, U);
  for (int isCos = 0; isCos < 2; isCos++) {
    const char* op = isCos ? "cos.approx.ftz.f32" : "sin.approx.ftz.f32";
    for (int E : exps(st, op)) {
      std::vector<uint32_t> v = st.slice(op, 0, E);
      for (uint32_t m = 0; m < v.size(); m++) {
        uint32_t ax = ((uint32_t)E << 23) | m;
        (isCos ? C : S)[ax < 0x00800000u ? 0 : sfu_sincos_F(ax)] = v[m];
      }
    }
  }
  auto rel = [&](const char* what, auto fn) {
    uint64_t ok = 0, bad = 0;
    for (uint32_t F = 0; F < FULL; F++) {
      uint32_t a, b;
      if (!fn(F, a, b) || a == U || b == U) continue;
      (a == b ? ok : bad)++;
    }
    printf("sin/cos: %-48s holds on %llu, fails on %llu values of F\n", what, (unsigned long long)ok, (unsigned long long)bad);
  };
  rel("cos(F) == sin(F + 2^23)", [&](uint32_t F, uint32_t& a, uint32_t& b) { a = C[F]; b = S[(F + Q) % FULL]; return true; });
  rel("sin(2^23 + f) == sin(2^23 - 1 - f)", [&](uint32_t F, uint32_t& a, uint32_t& b) {
    if (F < Q || F >= 2 * Q) return false; a = S[F]; b = S[2 * Q - 1 - F]; return true; });
  rel("sin(2^23 + f) == sin(2^23 - f)  (plain mirror)", [&](uint32_t F, uint32_t& a, uint32_t& b) {
    if (F < Q || F >= 2 * Q) return false; a = S[F]; b = S[2 * Q - F]; return true; });
  rel("sin(2^24 + f) == -sin(f)", [&](uint32_t F, uint32_t& a, uint32_t& b) {
    if (F < 2 * Q) return false; a = S[F]; b = S[F - 2 * Q] == U ? U : S[F - 2 * Q] ^ 0x80000000u; return true; });
  // 3. Coverage of the reduced function P(g) = |sin(F)| over the quadrant index g, from sin and cos slices.
  std::vector<uint8_t> have(Q, 0);
  for (uint32_t F = 0; F < FULL; F++)
    for (int isCos = 0; isCos < 2; isCos++) {
      uint32_t G = isCos ? (F + Q) % FULL : F;   // cos(F) = sin(G)
      if ((isCos ? C : S)[F] == U) continue;
      uint32_t q = G >> 23, f = G & (Q - 1);
      have[(q & 1) ? Q - 1 - f : f] = 1;
    }
  uint64_t known = 0;
  for (uint8_t h : have) known += h;
  printf("sin/cos: P(g) known for %llu of 8388608 quadrant indices g\n", (unsigned long long)known);
  // 4. The output of P is fixed point with 37 fraction bits, truncated to f32, and linear at the start:
  //    P(g) = RZ(25737 * g * 2^-37) for g < 1024 (the squared term of the interpolator vanishes there).
  uint64_t lin = 0, linBad = 0;
  for (uint32_t g = 1; g < 1024; g++) {
    uint32_t b = S[g];
    if (b == U) continue;
    lin++;
    linBad += b != sfu_d2f32bits(ldexp(25737.0 * g, -37), true);
  }
  printf("sin/cos: P(g) == RZ(25737 g 2^-37) for g in [1,1024): %llu of %llu differ\n", (unsigned long long)linBad,
         (unsigned long long)lin);
}

static void lg2(const sfu_data::Store& st) {
  const std::string op = "lg2.approx.ftz.f32";
  std::vector<uint32_t> L = st.slice(op, 0, 127);   // e = 0: the table L(m)
  if (L.empty()) return;
  // 1. e = 0 and e = -1: fixed point with 36 fraction bits (every result a multiple of 2^-36).
  for (int E : {127, 126}) {
    std::vector<uint32_t> v = st.slice(op, 0, E);
    uint64_t notMult = 0;
    for (uint32_t r : v) {
      double d = fabs((double)bitsf(r)) * 0x1p36;
      notMult += d != floor(d);
    }
    printf("lg2: e = %d: %llu of %zu results are not multiples of 2^-36\n", E - 127, (unsigned long long)notMult, v.size());
  }
  // 2. Every other exponent from L: R = RZ(e + L(m)) for e > 0, -RZ(-(e + L(m)) - 2^-36) for e < -1.
  for (int E : exps(st, op)) {
    int e = E - 127;
    if (E == 0 || e == 0 || e == -1) continue;
    std::vector<uint32_t> v = st.slice(op, 0, E);
    uint64_t bad = 0, badPlain = 0;
    for (uint32_t m = 0; m < v.size(); m++) {
      double s = e + (double)bitsf(L[m]);
      uint32_t r = e > 0 ? sfu_d2f32bits(s, true) : sfu_d2f32bits(s + 0x1p-36, true);
      bad += r != v[m];
      badPlain += sfu_d2f32bits(s, true) != v[m];   // without the 2^-36
    }
    printf("lg2: e = %4d: %llu of 8388608 differ from the rule (plain RZ(e + L): %llu)\n", e, (unsigned long long)bad,
           (unsigned long long)badPlain);
  }
  // 3. e = -1 is not -1 + L(m) (its own table): count where RZ(-1 + L) would differ.
  std::vector<uint32_t> N = st.slice(op, 0, 126);
  uint64_t d = 0;
  for (uint32_t m = 0; m < N.size(); m++) d += N[m] != sfu_d2f32bits(-1.0 + (double)bitsf(L[m]) + 0x1p-36, true);
  printf("lg2: e = -1 from L by the same rule: %llu of 8388608 differ (own table)\n", (unsigned long long)d);
  // 4. Non-ftz denormals x: RN_f32(lg2.ftz(x * 2^24) - 24), lg2.ftz(x * 2^24) by the rule of 2. (x * 2^24 has a
  //    biased exponent 2..24, not collected, but the rule holds on every collected exponent).
  std::vector<uint32_t> D = st.slice("lg2.approx.f32", 0, 0);
  if (!D.empty()) {
    uint64_t bad = 0, badNoFix = 0;
    for (uint32_t m = 1; m < D.size(); m++) {
      uint32_t M = m;
      int sh = 0;
      while (!(M & 0x800000u)) { M <<= 1; sh++; }
      int e = (1 - sh + 24) - 127;   // unbiased exponent of x * 2^24, < -1
      double s = e + (double)bitsf(L[M & 0x7fffffu]);
      uint32_t y = sfu_d2f32bits(s + 0x1p-36, true);
      bad += D[m] != fbits((float)((double)bitsf(y) - 24.0));
      badNoFix += D[m] != sfu_d2f32bits(e - 24 + (double)bitsf(L[M & 0x7fffffu]) + 0x1p-36, true);   // rule at e - 24
    }
    printf("lg2.approx.f32 denormals: RN(lg2.ftz(x*2^24) - 24): %llu of 8388607 differ (the plain rule at the true "
           "exponent: %llu)\n", (unsigned long long)bad, (unsigned long long)badNoFix);
  }
}

static void tanhFacts(const sfu_data::Store& st) {
  const std::string op = "tanh.approx.f32";
  for (int E : exps(st, op)) {
    std::vector<uint32_t> v = st.slice(op, 0, E);
    uint64_t same = 0;
    for (uint32_t m = 0; m < v.size(); m++) same += v[m] == (((uint32_t)E << 23) | m);
    int s = 0;
    for (int k = 1; k <= 23; k++) {
      bool ok = true;
      for (uint32_t m = 0; m < v.size() && ok; m++) ok = v[m] == v[m & ~((1u << k) - 1u)];
      if (!ok) break;
      s = k;
    }
    uint64_t one = 0;
    for (uint32_t r : v) one += r == 0x3f800000u;
    printf("tanh: E=%3d (|x| in [2^%d,2^%d)): result == x on %llu, == 1.0 on %llu; depends only on the top %d "
           "mantissa bits\n", E, E - 127, E - 126, (unsigned long long)same, (unsigned long long)one, 23 - s);
  }
  // Binades without a slice: the f32 results on the f16/bf16 inputs (t16f32 members).
  for (int bf = 0; bf < 2; bf++) {
    std::vector<uint32_t> r = st.table16f32(op, bf != 0);
    if (r.size() != 65536) continue;
    std::map<int, std::pair<int, int>> byE;
    for (uint32_t h = 0; h < 65536; h++) {
      uint32_t x = bf ? h << 16 : sfu_f16_to_f32((uint16_t)h);
      if (x >> 31 || (x & 0x7fffffffu) >= 0x7f800000u || !x) continue;
      int E = (int)(x >> 23);
      byE[E].first++;
      byE[E].second += r[h] == x;
    }
    printf("tanh on %s inputs, result == x by exponent:", bf ? "bf16" : "f16");
    for (auto& p : byE) if (p.first >= 112 && p.first <= 124) printf(" E=%d %d/%d", p.first, p.second.second, p.second.first);
    printf("\n");
  }
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: reduce DATADIR [sin|lg2|tanh]\n"); return 2; }
  sfu_data::Store st(argv[1]);
  std::string w = argc > 2 ? argv[2] : "";
  if (w.empty() || w == "sin") sinCos(st);
  if (w.empty() || w == "lg2") lg2(st);
  if (w.empty() || w == "tanh") tanhFacts(st);
}
