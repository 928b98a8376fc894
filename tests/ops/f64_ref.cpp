// Host check of the f64 integer-arithmetic helpers (translator/emit/prelude.cpp: p2g_dadd_r, p2g_dmul_r,
// p2g_dfma_r, p2g_ddiv_r, p2g_dsqrt_r, p2g_i64_to_d): the very GLSL text the translator emits is compiled here as
// C++ (a few GLSL built-ins defined below) and compared bit for bit with the host's IEEE double arithmetic in all
// four rounding modes (fesetround; std::fma and std::sqrt are correctly rounded) on edge values, subnormals,
// overflow, cancellation and random bits. NaN results only need to be NaN (p2g_dnan1/2 pick NVIDIA's NaN).
// With --cases OUTDIR it checks instead the outputs that ptx2glsl wrote for the f64 op cases (ptx_corpus/ops/
// f64_round, f64_divsqrt, f64_cvt_int: `run --out OUTDIR`) against the host, with the kernels' own inputs
// (ops_inputs.h) and NVIDIA's measured NaN rule (the first NaN operand, quiet; a new NaN is 0xFFF8000000000000).
//   usage: f64_ref [COUNT]          (random inputs per operation and mode; default 200000)
//          f64_ref --cases OUTDIR
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../ptx_corpus/ops/ops_inputs.h"

namespace glsl {
typedef uint32_t uint;
using std::max;
inline int findMSB(uint x) { return x == 0 ? -1 : 31 - __builtin_clz(x); }
inline uint64_t doubleBitsToUint64(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }
inline double uint64BitsToDouble(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }
struct uvec2 {
  uint x, y;
  uvec2(uint a, uint b) : x(a), y(b) {}
};
inline uvec2 unpackUint2x32(uint64_t v) { return uvec2(uint(v), uint(v >> 32)); }
inline uint64_t packUint2x32(uvec2 v) { return uint64_t(v.x) | (uint64_t(v.y) << 32); }
inline void umulExtended(uint a, uint b, uint& hi, uint& lo) {
  uint64_t p = uint64_t(a) * b;
  hi = uint(p >> 32);
  lo = uint(p);
}
inline uint uaddCarry(uint a, uint b, uint& c) { c = uint(a + b < a); return a + b; }
inline uint usubBorrow(uint a, uint b, uint& br) { br = uint(a < b); return a - b; }
#include "f64_helpers.inc"
}  // namespace glsl

namespace {

uint64_t bitsOf(double d) { return glsl::doubleBitsToUint64(d); }
double dbl(uint64_t b) { return glsl::uint64BitsToDouble(b); }

const uint64_t kEdge[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x000FFFFFFFFFFFFFull,
                          0x0010000000000000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x3FF0000000000001ull,
                          0x3FEFFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                          0x7FF8000000000000ull, 0x7FF0000000000001ull, 0x4000000000000000ull, 0x3CA0000000000000ull,
                          0x0008000000000000ull, 0x001FFFFFFFFFFFFFull, 0x7FE0000000000000ull, 0x3FE0000000000000ull};

// inputs: edge values, random bits, short significands (exact products, ties), tiny and huge exponents, and
// second/third operands close to the first (cancellation) or to -a*b (fma)
uint64_t gen(std::mt19937_64& r) {
  uint64_t x = r();
  switch (x & 7) {
    case 0: return kEdge[(x >> 3) % (sizeof kEdge / 8)] ^ ((x >> 20) & 1 ? (x >> 40) & 3 : 0);
    case 1: return r() & 0x800FFFFFFFFFFFFFull;                              // subnormal
    case 2: return r() & 0xFFFFFFF000000000ull;                              // short significand
    case 3: return (r() & 0x801FFFFFFFFFFFFFull) | (uint64_t((x >> 8) % 60) << 52);   // tiny normal
    case 4: return (r() & 0x800FFFFFFFFFFFFFull) | (uint64_t(2046 - (x >> 8) % 60) << 52);  // huge
    default: return r();
  }
}
uint64_t near(uint64_t a, std::mt19937_64& r) {
  uint64_t x = r();
  switch (x & 3) {
    case 0: return a ^ 0x8000000000000000ull ^ ((x >> 8) & 0xFF);  // cancellation
    case 1: return (a & 0x7FF0000000000000ull) | (r() & 0x800FFFFFFFFFFFFFull);
    case 2: {
      int64_t e = int64_t((a >> 52) & 0x7FF) + int64_t((x >> 8) % 120) - 60;
      e = std::clamp<int64_t>(e, 0, 2046);
      return (r() & 0x800FFFFFFFFFFFFFull) | (uint64_t(e) << 52);
    }
    default: return gen(r);
  }
}

bool same(uint64_t got, double want) {
  if (std::isnan(want)) return std::isnan(dbl(got));
  return got == bitsOf(want);
}

const int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
const char* kModeName[4] = {"rn", "rz", "rm", "rp"};

// ---- the f64 op cases ----
const uint32_t kSalt = 0x0B5C0DE;
const uint64_t kQuiet = 0x0008000000000000ull;

bool isNan(uint64_t x) { return (x & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }

// the inputs of the "d" kernels (make_cases.py DECLS_D) and of the "i" kernels' 64-bit operand (DECLS)
void inputsD(uint32_t i, uint64_t& A, uint64_t& B, uint64_t& C) {
  uint32_t a = gen32(i, kSalt), b = near32(a, i, kSalt ^ 0x1234567u), c = fmac32(a, b, i, kSalt ^ 0x7654321u);
  A = (uint64_t(a) << 32) | (mix(a ^ 0x9E3779B9u) & ((i & 1u) ? 0xFFFFFFFFu : 0xFFFF0000u));
  B = (uint64_t(b) << 32) | (mix(b + 0x3C6EF372u) & ((i & 2u) ? 0xFFFFFFFFu : 0u));
  C = (uint64_t(c) << 32) | mix(c ^ 0x7F4A7C15u);
  if ((mix(i + kSalt) & 7u) == 0u) A = (A & 0x800FFFFFFFFFFFFFull) | (uint64_t(mix(i) & 0x7FFu) << 52);
}
uint64_t inputI64(uint32_t i) {
  uint32_t a = genInt(i, kSalt);
  uint64_t A = (uint64_t(mix(a ^ 0x9E3779B9u)) << 32) | a;
  if ((i & 3u) == 0u) A = uint64_t(int64_t(int32_t(a)));
  return A;
}

struct CaseOut {
  const char* kase;
  const char* out;
  int mode;
  std::function<double(double, double, double)> op;
  int nanOrder;  // operands whose NaN wins, in order: 2 = a, b; 3 = a, c, b; 1 = a; 0 = integer source
  bool cvt = false, unsignedSrc = false;
};

int checkCase(const std::string& dir, const CaseOut& v) {
  std::ifstream f(dir + "/" + v.kase + "/" + v.out + ".bin", std::ios::binary);
  if (!f) { std::printf("%s %s: missing output\n", v.kase, v.out); return 1; }
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), {});
  size_t n = bytes.size() / 8, bad = 0;
  std::vector<uint64_t> got(n);
  std::memcpy(got.data(), bytes.data(), n * 8);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t A = 0, B = 0, C = 0, want = 0;
    if (v.cvt) {
      A = inputI64(i);
      std::fesetround(kModes[v.mode]);
      volatile double r = v.unsignedSrc ? double(A) : double(int64_t(A));
      std::fesetround(FE_TONEAREST);
      want = bitsOf(r);
    } else {
      inputsD(i, A, B, C);
      std::fesetround(kModes[v.mode]);
      volatile double x = dbl(A), y = dbl(B), z = dbl(C);
      double r = v.op(x, y, z);
      std::fesetround(FE_TONEAREST);
      want = bitsOf(r);
      const uint64_t order[3] = {A, v.nanOrder == 3 ? C : B, B};
      if (isNan(want)) want = 0xFFF8000000000000ull;
      for (int k = v.nanOrder - 1; k >= 0; --k)  // the first NaN operand in the order wins
        if (isNan(order[k])) want = order[k] | kQuiet;
    }
    if (want != got[i]) {
      if (bad < 3)
        std::printf("%s %s: i=%u A=%016llx B=%016llx C=%016llx host %016llx ptx2glsl %016llx\n", v.kase, v.out, i,
                    (unsigned long long)A, (unsigned long long)B, (unsigned long long)C, (unsigned long long)want,
                    (unsigned long long)got[i]);
      ++bad;
    }
  }
  std::printf("%s %s: %zu/%zu differ\n", v.kase, v.out, bad, n);
  return bad ? 1 : 0;
}

int checkCases(const std::string& dir) {
  auto add = [](double x, double y, double) { volatile double r = x + y; return double(r); };
  auto sub = [](double x, double y, double) { volatile double r = x - y; return double(r); };
  auto mul = [](double x, double y, double) { volatile double r = x * y; return double(r); };
  auto fma = [](double x, double y, double z) { return std::fma(x, y, z); };
  auto div = [](double x, double y, double) { volatile double r = x / y; return double(r); };
  auto sqr = [](double x, double, double) { return std::sqrt(x); };
  auto rcp = [](double x, double, double) { volatile double r = 1.0 / x; return double(r); };
  std::vector<CaseOut> vs = {
      {"f64_round", "add_rm", 2, add, 2}, {"f64_round", "add_rp", 3, add, 2}, {"f64_round", "sub_rz", 1, sub, 2},
      {"f64_round", "sub_rm", 2, sub, 2}, {"f64_round", "mul_rz", 1, mul, 2}, {"f64_round", "mul_rp", 3, mul, 2},
      {"f64_round", "fma_rm", 2, fma, 3}, {"f64_round", "fma_rp", 3, fma, 3},
      {"f64_divsqrt", "div_rz", 1, div, 2}, {"f64_divsqrt", "div_rm", 2, div, 2}, {"f64_divsqrt", "sqrt_rz", 1, sqr, 1},
      {"f64_divsqrt", "sqrt_rm", 2, sqr, 1}, {"f64_divsqrt", "sqrt_rp", 3, sqr, 1}, {"f64_divsqrt", "rcp_rn", 0, rcp, 1},
      {"f64_divsqrt", "rcp_rz", 1, rcp, 1}, {"f64_divsqrt", "rcp_rp", 3, rcp, 1},
  };
  const char* cm[4] = {"rn", "rz", "rm", "rp"};
  static std::string names[8];
  for (int u = 0; u < 2; ++u)
    for (int m = 0; m < 4; ++m) {
      names[u * 4 + m] = std::string(cm[m]) + (u ? "_u64" : "_s64");
      CaseOut c{"f64_cvt_int", names[u * 4 + m].c_str(), m, nullptr, 0};
      c.cvt = true;
      c.unsignedSrc = u == 1;
      vs.push_back(c);
    }
  int bad = 0;
  for (auto& v : vs) bad += checkCase(dir, v);
  std::printf("%d of %zu outputs differ from the host reference\n", bad, vs.size());
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--cases") return checkCases(argv[2]);
  long count = argc > 1 ? std::atol(argv[1]) : 200000;
  std::mt19937_64 r(20240611);
  long bad[6] = {0}, total = 0;
  const char* names[6] = {"add", "mul", "fma", "div", "sqrt", "cvt.s64"};
  for (int mode = 0; mode < 4; ++mode)
    for (long i = 0; i < count; ++i) {
      uint64_t a = gen(r), b = near(a, r), c = (i & 1) ? near(a, r) : 0;
      if (!(i & 1)) {  // c close to -(a*b) rounded toward zero: massive cancellation in fma
        double p = dbl(a) * dbl(b);
        c = bitsOf(-p) ^ (r() & 3);
      }
      volatile double x = dbl(a), y = dbl(b), z = dbl(c);
      std::fesetround(kModes[mode]);
      double w[6] = {x + y, x * y, std::fma(x, y, z), x / y, std::sqrt(x), double(int64_t(a))};
      std::fesetround(FE_TONEAREST);
      uint64_t g[6] = {bitsOf(glsl::p2g_dadd_r(x, y, mode)), bitsOf(glsl::p2g_dmul_r(x, y, mode)),
                       bitsOf(glsl::p2g_dfma_r(x, y, z, mode)), bitsOf(glsl::p2g_ddiv_r(x, y, mode)),
                       bitsOf(glsl::p2g_dsqrt_r(x, mode)), bitsOf(glsl::p2g_i64_to_d(a, true, mode))};
      // cvt.u64 as well, folded into the cvt count
      std::fesetround(kModes[mode]);
      double wu = double(a);
      std::fesetround(FE_TONEAREST);
      if (bitsOf(glsl::p2g_i64_to_d(a, false, mode)) != bitsOf(wu)) ++bad[5];
      for (int k = 0; k < 6; ++k)
        if (!same(g[k], w[k])) {
          if (bad[k] < 3)
            std::printf("%s.%s a=%016llx b=%016llx c=%016llx: host %016llx helper %016llx\n", names[k], kModeName[mode],
                        (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
                        (unsigned long long)bitsOf(w[k]), (unsigned long long)g[k]);
          ++bad[k];
        }
      ++total;
    }
  long all = 0;
  for (int k = 0; k < 6; ++k) {
    std::printf("%s: %ld/%ld differ\n", names[k], bad[k], total);
    all += bad[k];
  }
  return all == 0 ? 0 : 1;
}
