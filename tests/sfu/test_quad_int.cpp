// The integer evaluation of the SFU quadratics (translator/emit/sfu_quad_int.h, the C++ twin of the GLSL that
// exact mode emits) against the double evaluation of the C++ reference models (sfu_models.h, sfu_models2.h), for
// every input of every fitted table: each table has 2^k segments of 2^s inputs (s = 23 - k, or n - k), and every
// (segment, t) pair is evaluated both ways; every intermediate result (t*c2, c1 + t*c2, t*(...), the sum) must have
// the same bit pattern, and so must the floor (sfu_tables.bin) and the f32 conversion (sfu_tables2.bin). Also the
// one other double operation of the models, lg2's non-ftz denormal path (an f32 add of lg2(x 2^24) and -24), over
// all 2^23 - 1 positive denormals. The domain the integer code assumes (operands and results normal or zero) is
// checked on the way, and its exponent range printed.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sfu_models2.h"
#include "sfu_quad_int.h"

namespace {

std::vector<uint8_t> readAll(const std::string& path) {
  std::vector<uint8_t> v;
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return v;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
  fclose(f);
  return v;
}

// Exponent range of the nonzero values seen, and how many were subnormal, infinite or NaN (must stay 0).
struct Domain {
  int lo = 9999, hi = -9999;
  uint64_t bad = 0, zeros = 0;
  void see(uint64_t b) {
    uint32_t E = (uint32_t)(b >> 52) & 0x7ffu;
    if ((b << 1) == 0) { zeros++; return; }
    if (E == 0 || E == 0x7ff) { bad++; return; }
    int e = (int)E - 1023;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
};

struct Counts {
  uint64_t inputs = 0, diffs = 0;
  Domain dom;
};

// Every input of one table: 2^k segments (coefficients c), 2^s values of t each. `conv`: 0 = floor (sfu_quad),
// 1 = f32 RZ, 2 = f32 RN (sfu_fquad, for P > 0).
void checkTable(const char* name, const uint64_t* coef, int k, int s, int conv, Counts& all) {
  Counts c;
  for (uint32_t g = 0; g < (1u << k); g++) {
    const uint64_t* cg = coef + 3 * g;
    for (int j = 0; j < 3; j++) c.dom.see(cg[j]);
    for (uint32_t low = 0; low < (1u << s); low++) {
      double t = (double)low * (1.0 / (double)(1u << s));
      double p1 = sfu_dmul(t, sfu_bits2d(cg[2]));
      double s1 = sfu_dadd(sfu_bits2d(cg[1]), p1);
      double p2 = sfu_dmul(t, s1);
      double P = sfu_dadd(sfu_bits2d(cg[0]), p2);
      uint64_t ip1 = sfu_i_mul_t(cg[2], low, s);
      uint64_t is1 = sfu_i_add(cg[1], ip1);
      uint64_t ip2 = sfu_i_mul_t(is1, low, s);
      uint64_t iP = sfu_i_add(cg[0], ip2);
      c.dom.see(ip1);
      c.dom.see(is1);
      c.dom.see(ip2);
      c.dom.see(iP);
      bool diff = ip1 != sfu_d2bits(p1) || is1 != sfu_d2bits(s1) || ip2 != sfu_d2bits(p2) || iP != sfu_d2bits(P) ||
                  iP != sfu_i_quad(cg, low, s);
      if (conv == 0) diff = diff || sfu_i_floor(iP) != (int64_t)sfu_floor(P);
      else if (P > 0) diff = diff || (iP >> 63) != 0 || sfu_i_d_to_f32(iP, conv == 1) != sfu_d2f32bits(P, conv == 1);
      else diff = diff || !((iP >> 63) != 0 || iP == 0);
      if (diff && c.diffs < 5)
        printf("  %s segment %u low %u: double %016llx, integer %016llx\n", name, g, low,
               (unsigned long long)sfu_d2bits(P), (unsigned long long)iP);
      c.diffs += diff;
      c.inputs++;
    }
  }
  printf("%-8s k=%d s=%-2d %9llu inputs, %llu differing; exponents 2^%d..2^%d, %llu zeros, %llu subnormal/inf/nan\n",
         name, k, s, (unsigned long long)c.inputs, (unsigned long long)c.diffs, c.dom.lo, c.dom.hi,
         (unsigned long long)c.dom.zeros, (unsigned long long)c.dom.bad);
  CHECK(c.dom.bad == 0);
  CHECK(c.diffs == 0);
  all.inputs += c.inputs;
  all.diffs += c.diffs;
}

}  // namespace

TEST_CASE("integer quadratic = double quadratic, rcp/rsqrt/sqrt/ex2 tables, every input") {
  std::vector<uint8_t> blob = readAll(SFU_TABLES);
  SfuTables T;
  REQUIRE(sfu_load_tables(blob.data(), blob.size(), &T));
  Counts all;
  for (int t = 0; t < SFU_T_NUM; t++) checkTable(kSfuTableName[t], T.t[t].coef, T.t[t].k, 23 - T.t[t].k, 0, all);
  printf("sfu_tables.bin: %llu inputs, %llu differing\n", (unsigned long long)all.inputs,
         (unsigned long long)all.diffs);
  CHECK(all.inputs == (uint64_t)SFU_T_NUM << 23);
}

TEST_CASE("integer quadratic = double quadratic, fitted lg2/sin/cos/tanh tables, every input") {
  std::vector<uint8_t> blob = readAll(SFU_TABLES2);
  SfuTables2 T;
  REQUIRE(sfu_load_tables2(blob.data(), blob.size(), &T));
  Counts all;
  int fitted = 0;
  for (int t = 0; t < SFU_T2_NUM; t++) {
    const SfuFTable& F = T.t[t];
    if (F.interp) continue;   // integer interpolator tables: no double
    checkTable(kSfuTable2Name[t], F.coef, F.k, F.n - F.k, F.rz ? 1 : 2, all);
    fitted++;
  }
  printf("sfu_tables2.bin: %d fitted tables, %llu inputs, %llu differing\n", fitted, (unsigned long long)all.inputs,
         (unsigned long long)all.diffs);
  CHECK(fitted > 0);
}

TEST_CASE("lg2 non-ftz denormals: integer f32 add of -24 = the double one, every positive denormal") {
  std::vector<uint8_t> blob = readAll(SFU_TABLES2);
  SfuTables2 T;
  REQUIRE(sfu_load_tables2(blob.data(), blob.size(), &T));
  const uint64_t kMinus24 = 0xC038000000000000ull;   // -24.0
  REQUIRE(sfu_bits2d(kMinus24) == -24.0);
  uint64_t diffs = 0;
  for (uint32_t x = 1; x < 0x800000u; x++) {
    int s = 23 - sfu_i_msb64(x);   // the shifts of sfu_lg2's denormal path
    uint32_t M = x << s;
    int e = -126 - s;
    uint32_t y = sfu_lg2(T, ((uint32_t)(e + 24 + 127) << 23) | (M & 0x7fffffu), true);
    uint32_t ref = sfu_d2f32bits(sfu_dadd(sfu_f32bits_to_d(y), -24.0), false);
    uint32_t got = sfu_i_d_to_f32(sfu_i_add(sfu_i_f32_to_d(y), kMinus24), false);
    diffs += ref != got || ref != sfu_lg2(T, x, false);
  }
  printf("lg2 denormals: 8388607 inputs, %llu differing\n", (unsigned long long)diffs);
  CHECK(diffs == 0);
}
