// The first pass of a guarded region (translator/emit/f32_prelude.cpp, p2g_region: p2g_u, p2g_w, p2g_redo) on a
// model of a device that flushes f32 subnormals, against IEEE arithmetic on the host: wherever p2g_redo() lets a
// region's device results stand, they must be IEEE's, bit for bit. The two ways through: every nonzero value of
// the region (results and entering values: p2g_u) at least 2^-40 in magnitude (zeros are then exact), or every
// result, zeros included (p2g_w), above 2^-126 and every nonzero entering value at least 2^-126.
// The flushing device is modelled two ways (NVIDIA's tininess rule is not documented): a result flushed when its
// exact value is below 2^-126 ("before rounding"), or when IEEE's rounded result is subnormal ("after"); subnormal
// operands read as zeros of their sign in both. Regions are random runs of add/mul/fma over entering values
// (zeros, subnormals, tiny and small normals, values on coarse grids, infinities) and earlier results, negated at
// random so that sums cancel.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

uint32_t bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}
float fromBits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
bool subnormal(float x) { return x != 0.0f && std::fabs(x) < 0x1p-126f; }
float flushIn(float x) { return subnormal(x) ? std::copysign(0.0f, x) : x; }

enum class Op { Add, Mul, Fma };

float ieee(Op op, float a, float b, float c) {
  volatile float va = a, vb = b;  // no contraction of the reference's mul + add
  if (op == Op::Add) return va + vb;
  if (op == Op::Mul) return va * vb;
  return std::fmaf(a, b, c);
}

// The flushing device. before: flush where the exact value is below 2^-126 (the double computation is exact for
// products and monotone for sums, so its comparison with 2^-126 is the exact one but for an fma within 2^-180 of
// 2^-126, where it keeps 2^-126: a value p2g_w does not pass either way).
float device(Op op, float a, float b, float c, bool before) {
  a = flushIn(a), b = flushIn(b), c = flushIn(c);
  float r = ieee(op, a, b, c);
  if (std::isnan(r)) return fromBits(0x7FFFFFFFu);
  double v = op == Op::Add ? double(a) + double(b) : op == Op::Mul ? double(a) * double(b)
                                                                   : std::fma(double(a), double(b), double(c));
  bool tiny = before ? (v != 0.0 && std::fabs(v) < 0x1p-126) : subnormal(r);
  return tiny ? std::copysign(0.0f, float(v)) : r;
}

// p2g_nz: (|x|'s bits << 1) - 2, a zero wrapping to the top
uint32_t nz(float x) { return (bits(x) << 1) - 2u; }

float entering(std::mt19937& g) {
  std::uniform_real_distribution<double> f(1.0, 2.0);
  auto scaled = [&](int lo, int hi) { return float(std::ldexp(f(g), std::uniform_int_distribution<int>(lo, hi)(g))); };
  float x = 0.0f;
  switch (g() % 9) {
    case 0: x = 0.0f; break;
    case 1: x = fromBits(1u + g() % 0x7FFFFFu); break;  // subnormal
    case 2: x = scaled(-126, -110); break;              // tiny normal
    case 3: x = scaled(-100, -60); break;
    case 4: x = scaled(-63, -40); break;
    case 5: x = scaled(-40, 20); break;
    case 6: x = float(int(g() % 64)) * 0x1p-20f; break;  // a coarse grid, zero included
    case 7: x = scaled(-2, 2); break;
    default: x = (g() % 16) ? scaled(-80, -40) : INFINITY; break;
  }
  return (g() & 1) ? -x : x;
}

struct Tally {
  long regions = 0, passed = 0, passedByW = 0, flushedSomewhere = 0, wrong = 0, tested = 0, untested = 0;
};

// The grid of a plain f32 (region_guard.cpp bitsGrid): g such that x is a multiple of 2^-g (0 for 0 and infinity)
int bitsGrid(float x) {
  if (x == 0.0f || std::isinf(x)) return 0;
  uint32_t a = bits(x) & 0x7FFFFFFFu, sig = (a & 0x7FFFFFu) | 0x800000u;
  int low = int(a >> 23) - 150 + __builtin_ctz(sig);
  return low >= 0 ? 0 : -low;
}

// One random region on both device models; `inputBound` = false leaves out the second way's test of the entering
// values, and `gridMax` above 126 lets products finer than 2^-126 go untested (broken first passes, to show that
// the model finds them). The translator's grid policy (region_guard.cpp gridPolicy): an entering value is tested
// (its magnitude joins p2g_u, its grid is then 63) unless it is a plain literal (its own grid, no test); a result
// is never tested but has its exact value's grid (a sum the finer of its operands', a product the sum of theirs,
// an fma both); a factor is tested where the two factors' grids add up to more than gridMax and its own is finer
// than 63, once per value. p2g_w keeps every result.
void region(std::mt19937& g, bool before, bool inputBound, int gridMax, Tally& t) {
  std::vector<float> vals;
  std::vector<int> grid;
  uint32_t u = 0xFFFFFFFFu;
  float w = 1.0f;
  int nIn = 1 + int(g() % 4), nOps = 1 + int(g() % 8);
  for (int i = 0; i < nIn; ++i) {
    float x = entering(g);
    bool literal = (x == 0.0f || std::isinf(x) || std::fabs(x) >= 0x1p-40f) && g() % 3 == 0;
    vals.push_back(x);
    grid.push_back(literal ? bitsGrid(x) : 63);
    if (!literal) u = std::min(u, nz(x)), ++t.tested;  // p2g_in
  }
  std::vector<float> exact = vals;  // the same run in IEEE arithmetic
  bool differs = false;
  for (int k = 0; k < nOps; ++k) {
    Op op = Op(g() % 3);
    size_t i = g() % vals.size(), j = g() % vals.size(), l = g() % vals.size();
    if (op != Op::Add && grid[i] + grid[j] > gridMax) {
      for (size_t f : {i, j})
        if (grid[f] > 63) u = std::min(u, nz(vals[f])), grid[f] = 63, ++t.tested;  // p2g_in of the factor
    }
    int rg = op == Op::Add ? std::max(grid[i], grid[j]) : grid[i] + grid[j];
    if (op == Op::Fma) rg = std::max(rg, grid[l]);
    float sj = (g() & 1) ? -1.0f : 1.0f;
    float d = device(op, vals[i], sj * vals[j], vals[l], before);
    float e = ieee(op, exact[i], sj * exact[j], exact[l]);
    if (std::isnan(e)) e = fromBits(0x7FFFFFFFu);
    w = std::fmin(w, std::fabs(d));
    ++t.untested;
    differs = differs || bits(d) != bits(e);
    vals.push_back(d);
    grid.push_back(std::min(rg, 1000));
    exact.push_back(e);
  }
  bool redo = u < nz(0x1p-40f) && !(w > 0x1p-126f && (!inputBound || u >= nz(0x1p-126f)));
  ++t.regions;
  t.flushedSomewhere += differs;
  if (!redo) {
    ++t.passed;
    t.passedByW += u < nz(0x1p-40f);
    t.wrong += differs;
  }
}

}  // namespace

TEST_CASE("a region the first pass lets through is IEEE's on a flushing device (both tininess rules)") {
  for (bool before : {true, false}) {
    std::mt19937 g(before ? 20261206u : 7u);
    Tally t;
    for (int n = 0; n < 2000000; ++n) region(g, before, true, 126, t);
    MESSAGE("before rounding: " << before << ", regions " << t.regions << ", passed " << t.passed << " (by p2g_w only "
                                << t.passedByW << "), device results not IEEE's " << t.flushedSomewhere << ", wrong "
                                << t.wrong << "; values tested " << t.tested << ", results untested " << t.untested);
    CHECK(t.wrong == 0);
    // the model is not vacuous: the device differs from IEEE in many regions, and both ways pass many
    CHECK(t.flushedSomewhere > 10000);
    CHECK(t.passedByW > 10000);
    CHECK(t.passed - t.passedByW > 10000);
  }
}

TEST_CASE("the model finds a first pass whose second way does not test the entering values") {
  std::mt19937 g(99u);
  Tally t;
  for (int n = 0; n < 2000000; ++n) region(g, true, false, 126, t);
  MESSAGE("broken first pass: regions " << t.regions << ", passed " << t.passed << ", wrong " << t.wrong);
  CHECK(t.wrong > 0);
}

// (a bound of 2^-127 is wrong too, but random regions seldom reach it: 0 of 2,000,000 in this model)
TEST_CASE("the model finds a grid policy that lets products finer than 2^-126 go untested") {
  for (int gridMax : {140, 189}) {
    std::mt19937 g(2026120800u + unsigned(gridMax));
    Tally t;
    for (int n = 0; n < 2000000; ++n) region(g, true, true, gridMax, t);
    MESSAGE("grid bound 2^-" << gridMax << ": regions " << t.regions << ", passed " << t.passed << ", wrong "
                              << t.wrong);
    CHECK(t.wrong > 0);
  }
}
