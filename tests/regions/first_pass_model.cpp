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
  long regions = 0, passed = 0, passedByW = 0, flushedSomewhere = 0, wrong = 0;
};

// One random region on both device models; `inputBound` = false leaves out the second way's test of the entering
// values (a broken first pass, to show that the model finds one).
void region(std::mt19937& g, bool before, bool inputBound, Tally& t) {
  std::vector<float> vals;
  uint32_t u = 0xFFFFFFFFu;
  float w = 1.0f;
  int nIn = 1 + int(g() % 4), nOps = 1 + int(g() % 6);
  for (int i = 0; i < nIn; ++i) {
    float x = entering(g);
    vals.push_back(x);
    u = std::min(u, nz(x));  // p2g_in
  }
  std::vector<float> exact = vals;  // the same run in IEEE arithmetic
  bool differs = false;
  for (int k = 0; k < nOps; ++k) {
    Op op = Op(g() % 3);
    size_t i = g() % vals.size(), j = g() % vals.size(), l = g() % vals.size();
    float sj = (g() & 1) ? -1.0f : 1.0f;
    float d = device(op, vals[i], sj * vals[j], vals[l], before);
    float e = ieee(op, exact[i], sj * exact[j], exact[l]);
    if (std::isnan(e)) e = fromBits(0x7FFFFFFFu);
    u = std::min(u, nz(d));
    w = std::fmin(w, std::fabs(d));
    differs = differs || bits(d) != bits(e);
    vals.push_back(d);
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
    for (int n = 0; n < 2000000; ++n) region(g, before, true, t);
    MESSAGE("before rounding: " << before << ", regions " << t.regions << ", passed " << t.passed << " (by p2g_w only "
                                << t.passedByW << "), device results not IEEE's " << t.flushedSomewhere << ", wrong "
                                << t.wrong);
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
  for (int n = 0; n < 2000000; ++n) region(g, true, false, t);
  MESSAGE("broken first pass: regions " << t.regions << ", passed " << t.passed << ", wrong " << t.wrong);
  CHECK(t.wrong > 0);
}
