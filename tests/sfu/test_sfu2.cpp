// The lg2/sin/cos/tanh models (translator/emit/sfu_models2.h, tables translator/sfu/tables/sfu_tables2.bin) against
// the ground truth collected on the H200 (ptx_corpus/sfu/data): every collected slice of those instructions (2^23
// inputs each; the negated inputs through the exhaustively measured symmetry), the special operands recorded in
// summary.txt, and all 65,536 inputs of tanh.approx.{f16,bf16}. Differing counts are printed per slice.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "sfu_data.h"
#include "sfu_guard.h"
#include "sfu_models2.h"
#include "../../ptx_corpus/sfu/sfu_ops.h"

namespace {

struct Fixture {
  sfu_data::Store data{SFU_DATA_DIR};
  std::vector<uint8_t> blob = sfu_data::readFile(SFU_TABLES2);
  SfuTables2 T;
  bool ok = sfu_load_tables2(blob.data(), blob.size(), &T);
};
Fixture& fx() { static Fixture f; return f; }

int opId(const std::string& name) {
  for (int i = 0; i < NUM_OP32; i++) if (name == kOp32Name[i]) return i;
  return -1;
}

// Special operands from summary.txt: per instruction, the "specials (in -> out)" block.
std::vector<std::pair<int, std::pair<uint32_t, uint32_t>>> summarySpecials() {
  std::vector<std::pair<int, std::pair<uint32_t, uint32_t>>> out;
  std::ifstream f(std::string(SFU_DATA_DIR) + "/summary.txt");
  std::string line;
  int op = -1;
  bool in = false;
  while (std::getline(f, line)) {
    if (line.rfind("== ", 0) == 0) { op = opId(line.substr(3)); in = false; continue; }
    if (line.find("specials (in -> out)") != std::string::npos) { in = op >= 0; continue; }
    if (line.find("class histogram") != std::string::npos) { in = false; continue; }
    if (!in) continue;
    std::istringstream ss(line);
    std::string tok;
    while (ss >> tok) {
      unsigned a, b;
      size_t arrow = tok.find(")->");
      if (arrow == std::string::npos || sscanf(tok.c_str(), "%8x", &a) != 1 ||
          sscanf(tok.c_str() + arrow + 3, "%8x", &b) != 1)
        continue;
      out.push_back({op, {a, b}});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("tables2 load") {
  REQUIRE(fx().ok);
  CHECK(fx().T.t[SFU_T2_SINP].n == 23);
  CHECK(fx().T.t[SFU_T2_TANH_P0].n == 20);   // tanh on [1,2) depends on the top 20 mantissa bits (measured)
  // sin/cos and lg2: the recovered interpolator (64 segments, squarer column 19), no residuals or exceptions
  for (int t : {SFU_T2_SINP, SFU_T2_LG2P}) {
    CHECK(fx().T.t[t].interp == 1);
    CHECK(fx().T.t[t].k == 6);
    CHECK(fx().T.t[t].col == 19);
  }
}

TEST_CASE("truncated squarer: partial products of weight >= 2^col, brute force") {
  for (int col : {0, 5, 19, 20}) {
    int bad = 0;
    for (uint32_t x = 0; x < (1u << 17); x += (col == 19 ? 1 : 7)) {
      uint64_t s = 0;
      for (int i = 0; i < 17; i++)
        for (int j = i; j < 17; j++) {
          if (!((x >> i) & 1) || !((x >> j) & 1)) continue;
          uint64_t w = i == j ? 1ull << (2 * i) : 1ull << (i + j + 1);
          if (w >= (1ull << col)) s += w;
        }
      bad += sfu_sqtrunc(x, col) != (s >> col);
    }
    CHECK(bad == 0);
  }
  CHECK(sfu_sqtrunc(0x1ffff, 0) == 0x1ffffull * 0x1ffffull);   // col 0: the full square
}

TEST_CASE("every collected slice of lg2/sin/cos/tanh is reproduced exactly") {
  REQUIRE(fx().ok);
  int slices = 0;
  uint64_t total = 0;
  for (auto& kv : fx().data.members) {
    const std::string& n = kv.first;
    if (n.rfind("s32_", 0) != 0) continue;
    size_t b = n.find('_', 4);
    std::string op = n.substr(4, b - 4);
    int id = opId(op);
    REQUIRE(id >= 0);
    if (!sfu_model32_has2(id)) continue;
    int sign = n[b + 1] == 'n', E = atoi(n.c_str() + b + 4);
    std::vector<uint32_t> v = fx().data.slice(op, sign, E);
    REQUIRE(v.size() == (1u << 23));
    // The negated inputs: sin and tanh are exactly odd, cos exactly even, lg2 of a negative number is NaN
    // (-0, and -denormal under ftz: -inf) -- all measured over all 2^32 inputs (summary.txt); checked on every 7th
    // input.
    uint64_t bad = 0, badNeg = 0;
    uint32_t first = 0, firstNeg = 0;
    for (uint32_t m = 0; m < v.size(); m++) {
      uint32_t x = ((uint32_t)sign << 31) | ((uint32_t)E << 23) | m;
      if (sfu_model32_2(fx().T, id, x) != v[m] && !bad++) first = x;
      if (m % 7) continue;
      uint32_t nx = x ^ 0x80000000u, want;
      if (id == SFU_COS || id == SFU_COS_FTZ) want = v[m];
      else if (id == SFU_LG2 || id == SFU_LG2_FTZ) want = (E == 0 && (m == 0 || id == SFU_LG2_FTZ)) ? 0xff800000u : kSfuNaN;
      else want = sfu_isnan(v[m]) ? v[m] : v[m] ^ 0x80000000u;
      if (sfu_model32_2(fx().T, id, nx) != want && !badNeg++) firstNeg = nx;
    }
    char where[64];
    snprintf(where, sizeof where, "%08x / negated %08x", first, firstNeg);
    MESSAGE(n << ": " << bad << " of 8388608 differ, negated inputs " << badNeg << " of 1198373 differ"
              << (bad || badNeg ? std::string(" (first: ") + where + ")" : std::string()));
    CHECK(bad == 0);
    CHECK(badNeg == 0);
    total += bad + badNeg;
    slices++;
  }
  MESSAGE(slices << " slices of 2^23 inputs checked, " << total << " differing in all");
  CHECK(slices >= 75);
}

TEST_CASE("special operands recorded in summary.txt") {
  REQUIRE(fx().ok);
  auto sp = summarySpecials();
  int checked = 0, bad = 0;
  for (auto& c : sp) {
    if (!sfu_model32_has2(c.first)) continue;
    uint32_t got = sfu_model32_2(fx().T, c.first, c.second.first);
    char in[48];
    snprintf(in, sizeof in, "%08x -> %08x, model %08x", c.second.first, c.second.second, got);
    INFO(std::string(kOp32Name[c.first]) << " " << in);
    CHECK(got == c.second.second);
    bad += got != c.second.second;
    checked++;
  }
  MESSAGE(checked << " special operands checked, " << bad << " differing");
  CHECK(checked == 7 * 56);
}

TEST_CASE("tanh f32 on every f16 and bf16 input (t16f32 data)") {
  REQUIRE(fx().ok);
  for (bool bf : {false, true}) {
    std::vector<uint32_t> f = fx().data.table16f32("tanh.approx.f32", bf);
    REQUIRE(f.size() == 65536);
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
      uint32_t x = bf ? h << 16 : sfu_f16_to_f32((uint16_t)h);
      bad += sfu_tanh(fx().T, x) != f[h];
    }
    MESSAGE("tanh.approx.f32 on all " << std::string(bf ? "bf16" : "f16") << " inputs: " << bad << " of 65536 differ");
    CHECK(bad == 0);
  }
}

TEST_CASE("tanh.approx.f16 and tanh.approx.bf16: all 65,536 inputs") {
  REQUIRE(fx().ok);
  for (int op : {SFU_TANH_F16, SFU_TANH_BF16}) {
    std::vector<uint16_t> t = fx().data.table16(kOp16Name[op]);
    REQUIRE(t.size() == 65536);
    int bad = 0;
    for (uint32_t x = 0; x < 65536; x++) bad += sfu_model16_2(fx().T, op, (uint16_t)x) != t[x];
    MESSAGE(std::string(kOp16Name[op]) << ": " << bad << " of 65536 differ");
    CHECK(bad == 0);
  }
}


TEST_CASE("lg2: the non-ftz form equals the .ftz form wherever the device's path takes it") {
  REQUIRE(fx().ok);
  const SfuTables2& T = fx().T;
  // x positive and normal
  checkGuard("lg2", [&](uint32_t x, bool ftz) { return sfu_lg2(T, x, ftz); },
             [](uint32_t x) { return x - 0x00800000u < 0x7F000000u; }, {0, 1, 126, 127, 254});
}

TEST_CASE("with the fact sfu-native, lg2's non-ftz form is its model on every input") {
  REQUIRE(fx().ok);
  const SfuTables2& T = fx().T;
  // a subnormal x through lg2.ftz(x 2^24), then - 24 by an f32 add; a negative one NaN
  auto lg2Path = [&](uint32_t x) {
    uint32_t a = x;
    bool sub = (x & 0x7FFFFFFFu) - 1u < 0x7FFFFFu;
    if (sub) {
      if (x >> 31) return 0x7FFFFFFFu;
      uint32_t M;
      int e;
      sfu_split(x, &M, &e);
      a = ((uint32_t)(e + 24 + 127) << 23) | (M & 0x7FFFFFu);
    }
    uint32_t y = sfu_lg2(T, a, true);
    return sub ? sfu_d2f32bits(sfu_dadd(sfu_f32bits_to_d(y), -24.0), false) : y;
  };
  checkPath("lg2", [&](uint32_t x) { return sfu_lg2(T, x, false); }, lg2Path, {0, 1, 127, 254, 255});
}

TEST_CASE("exact conversions") {
  // sfu_d2f32bits: truncation and ties-to-even at the 24th bit, carries into the exponent.
  CHECK(sfu_d2f32bits(1.0, true) == 0x3f800000u);
  CHECK(sfu_d2f32bits(1.0 + 0x1p-24, false) == 0x3f800000u);           // tie, even stays
  CHECK(sfu_d2f32bits(1.0 + 0x1p-23 + 0x1p-24, false) == 0x3f800002u); // tie, odd rounds up
  CHECK(sfu_d2f32bits(2.0 - 0x1p-30, false) == 0x40000000u);           // carry into the exponent
  CHECK(sfu_d2f32bits(2.0 - 0x1p-30, true) == 0x3fffffffu);
  CHECK(sfu_d2f32bits(-3.0 - 0x1p-30, true) == 0xc0400000u);           // toward zero on the magnitude
  CHECK(sfu_f32bits_to_d(0x00000001u) == 0x1p-149);
  CHECK(sfu_f32bits_to_d(0xc0490fdbu) == -3.1415927410125732);
  // r = RZ(x * 0x3e22f983): x = 1 gives r = 0x3e22f983, F = floor(r * 2^25).
  CHECK(sfu_sincos_F(0x3f800000u) == (uint32_t)(0x1.45f306p-3 * 0x1p25));
}
