// div.approx.f32, div.full.f32 and div.full.ftz.f32 models (translator/emit/sfu_div.h) against the values the H200
// wrote for ptx_corpus/ops/f32_div (expected/, ground truth; read only). The operands are regenerated here with the
// case's integer generators (kernel.cu: gen32, near32), which are re-implemented below.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sfu_div.h"

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

// ---- the case's operand generators (ptx_corpus/ops/f32_div/kernel.cu, written by make_cases.py) ----
uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
const uint32_t kEdges[32] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00800000u, 0x80800000u,
    0x3F800000u, 0xBF800000u, 0x3F800001u, 0x3F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
    0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FBFFFFFu, 0xFFFFFFFFu, 0x7FC12345u, 0x3F000000u, 0x40000000u,
    0x40400000u, 0x4B000000u, 0x4B800000u, 0x4F000000u, 0x5F000000u, 0x33800000u, 0x00400000u, 0x3EFFFFFFu};
uint32_t opA(uint32_t i, uint32_t salt) {
  uint32_t h = hash32(i * 0x9E3779B9u + salt), r = hash32(h ^ 0x5bd1e995u);
  switch (h & 7u) {
    case 0: case 1: return kEdges[(h >> 3) & 31u];
    case 2: return r & 0x807FFFFFu;
    case 3: return kEdges[(h >> 3) & 31u] ^ (r & 7u);
    case 4: return r & 0xFFFFF000u;
    default: return r;
  }
}
uint32_t opB(uint32_t a, uint32_t i, uint32_t salt) {
  uint32_t h = hash32(i * 0x85EBCA6Bu + salt), r = hash32(h + 0x27d4eb2fu);
  switch (h & 3u) {
    case 0: return (a & 0x7F800000u) | (r & 0x807FFFFFu);
    case 1: return a ^ (r & 0x8000003Fu);
    case 2: {
      int e = (int)((a >> 23) & 255u) + (int)(r & 63u) - 32;
      e = e < 0 ? 0 : e > 254 ? 254 : e;
      return (r & 0x807FFFFFu) | ((uint32_t)e << 23);
    }
    default: return opA(i, salt ^ 0x6A09E667u);
  }
}

struct Fixture {
  std::vector<uint8_t> blob = readAll(SFU_TABLES);
  SfuTables T;
  bool ok = sfu_load_tables(blob.data(), blob.size(), &T);
};
Fixture& fx() {
  static Fixture f;
  return f;
}

// Number of the case's 8192 values the model gets wrong for one output.
int differing(const char* output, uint32_t (*model)(const SfuTables&, uint32_t, uint32_t)) {
  std::vector<uint8_t> e = readAll(std::string(F32_DIV_CASE) + "/expected/" + output + ".bin");
  REQUIRE(e.size() == 8192 * 4);
  const uint32_t salt = 11911390u;   // case.json's last parameter
  int bad = 0;
  for (uint32_t i = 0; i < 8192; i++) {
    uint32_t a = opA(i, salt), b = opB(a, i, salt ^ 0x1234567u);
    uint32_t want = (uint32_t)e[4 * i] | (uint32_t)e[4 * i + 1] << 8 | (uint32_t)e[4 * i + 2] << 16 |
                    (uint32_t)e[4 * i + 3] << 24;
    uint32_t got = model(fx().T, a, b);
    if (got != want && bad++ < 5) MESSAGE(output << ": a=" << a << " b=" << b << " want " << want << " got " << got);
  }
  return bad;
}

}  // namespace

TEST_CASE("tables load") { REQUIRE(fx().ok); }

TEST_CASE("f32 multiply on bits") {
  CHECK(sfu_fmul(0x3f800000u, 0x40000000u, false) == 0x40000000u);
  CHECK(sfu_fmul(0x7f800000u, 0x00000000u, false) == kSfuNaN);
  CHECK(sfu_fmul(0x00000001u, 0x3f000000u, false) == 0x00000000u);   // 2^-150: tie to even
  CHECK(sfu_fmul(0x00000003u, 0x3f000000u, false) == 0x00000002u);   // 1.5 * 2^-149: tie to even
  CHECK(sfu_fmul(0x7f7fffffu, 0x40000000u, false) == 0x7f800000u);
  CHECK(sfu_fmul(0x00400000u, 0x3f800000u, true) == 0x00000000u);    // denormal operand flushed
  // .ftz decides on the value rounded to 24 bits with an unbounded exponent: 2^-126 - 2^-150 is exact there, so
  // tiny and flushed (rounded into the denormal grid it would have become 2^-126); 2^-126 * (1 - 2^-46) rounds up
  // to 2^-126 and is kept
  CHECK(sfu_fmul(0x00ffffffu, 0x3f000000u, true) == 0x00000000u);
  CHECK(sfu_fmul(0x00ffffffu, 0x3f000000u, false) == 0x00800000u);
  CHECK(sfu_fmul(0x80800001u, 0x3f7ffffeu, true) == 0x80800000u);
}

TEST_CASE("div.full.f32, div.approx.f32, div.full.ftz.f32, div.approx.ftz.f32: every value of ops/f32_div") {
  REQUIRE(fx().ok);
  CHECK(differing("div_full", [](const SfuTables& T, uint32_t a, uint32_t b) { return sfu_div_full(T, a, b, false); }) == 0);
  CHECK(differing("div_approx", [](const SfuTables& T, uint32_t a, uint32_t b) { return sfu_div_approx(T, a, b, false); }) == 0);
  CHECK(differing("div_full_ftz", [](const SfuTables& T, uint32_t a, uint32_t b) { return sfu_div_full(T, a, b, true); }) == 0);
  CHECK(differing("div_approx_ftz", [](const SfuTables& T, uint32_t a, uint32_t b) { return sfu_div_approx(T, a, b, true); }) == 0);
}

TEST_CASE("documented special cases (libdevice __nv_fast_fdividef)") {
  REQUIRE(fx().ok);
  for (bool ftz : {false, true}) {
    CHECK(sfu_div_approx(fx().T, 0x3f800000u, 0x7f000000u, ftz) == 0x00000000u);   // 1 / 2^127 = 0
    CHECK(sfu_div_approx(fx().T, 0x7f800000u, 0x7f000000u, ftz) == kSfuNaN);       // inf / 2^127 = NaN
    CHECK(sfu_div_full(fx().T, 0x3f800000u, 0x7f000000u, ftz) == (ftz ? 0u : 0x00400000u));   // full range
    CHECK(sfu_div_full(fx().T, 0x40000000u, 0x40000000u, ftz) == 0x3f800000u);
  }
}
