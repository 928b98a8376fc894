// SFU models (translator/emit/sfu_models.h) against the ground truth collected on the H200
// (ptx_corpus/sfu/data, written by ptx_corpus/sfu/run.sh collect): every collected slice of every modelled
// instruction (2^23 inputs each), the 16-bit tables (all 65,536 inputs), and special operands.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "sfu_data.h"
#include "sfu_guard.h"
#include "sfu_models.h"
#include "../../ptx_corpus/sfu/sfu_ops.h"

namespace {

struct Fixture {
  sfu_data::Store data{SFU_DATA_DIR};
  std::vector<uint8_t> blob = sfu_data::readFile(SFU_TABLES);
  SfuTables T;
  bool ok = sfu_load_tables(blob.data(), blob.size(), &T);
};
Fixture& fx() { static Fixture f; return f; }


}  // namespace

TEST_CASE("op numbering matches the probe's") {
  CHECK(SFU_NUM_OP32 == NUM_OP32);
  CHECK(SFU_NUM_OP16 == NUM_OP16);
  CHECK(std::string(kOp32Name[SFU_EX2_FTZ]) == "ex2.approx.ftz.f32");
  CHECK(std::string(kOp16Name[SFU_EX2_BF16]) == "ex2.approx.ftz.bf16");
}

TEST_CASE("tables load") {
  REQUIRE(fx().ok);
  CHECK(fx().T.t[SFU_T_RCP].k == 7);
}

TEST_CASE("every collected slice of a modelled instruction is reproduced exactly") {
  REQUIRE(fx().ok);
  int slices = 0;
  for (auto& kv : fx().data.members) {
    const std::string& n = kv.first;
    if (n.rfind("s32_", 0) != 0) continue;
    size_t b = n.find('_', 4);
    std::string op = n.substr(4, b - 4);
    int id = -1;
    for (int i = 0; i < NUM_OP32; i++) if (op == kOp32Name[i]) id = i;
    REQUIRE(id >= 0);
    if (!sfu_model32_has(id)) continue;
    int sign = n[b + 1] == 'n', E = atoi(n.c_str() + b + 4);
    std::vector<uint32_t> v = fx().data.slice(op, sign, E);
    REQUIRE(v.size() == (1u << 23));
    uint64_t bad = 0;
    uint32_t first = 0;
    for (uint32_t m = 0; m < v.size(); m++) {
      uint32_t x = ((uint32_t)sign << 31) | ((uint32_t)E << 23) | m;
      uint32_t r = sfu_model32(fx().T, id, x);
      if (r != v[m] && !bad++) first = x;
    }
    char where[32];
    snprintf(where, sizeof where, "%08x", first);
    INFO(n << ": first differing input " << where);
    CHECK(bad == 0);
    slices++;
  }
  MESSAGE(slices << " slices of 2^23 inputs checked");
  CHECK(slices >= 40);
}

TEST_CASE("16-bit forms: all 65,536 inputs") {
  REQUIRE(fx().ok);
  for (int op = 0; op < NUM_OP16; op++) {
    if (!sfu_model16_has(op)) continue;
    std::vector<uint16_t> t = fx().data.table16(kOp16Name[op]);
    REQUIRE(t.size() == 65536);
    int bad = 0;
    for (uint32_t x = 0; x < 65536; x++) bad += sfu_model16(fx().T, op, (uint16_t)x) != t[x];
    INFO(kOp16Name[op]);
    CHECK(bad == 0);
  }
}

TEST_CASE("16-bit forms are the f32 instruction truncated (measured rule)") {
  // tanh has no f32 model yet; the rule itself is checked on the collected f32 results.
  for (bool bf : {false, true}) {
    std::vector<uint16_t> t = fx().data.table16(bf ? "tanh.approx.bf16" : "tanh.approx.f16");
    std::vector<uint32_t> f = fx().data.table16f32("tanh.approx.f32", bf);
    REQUIRE(t.size() == 65536);
    REQUIRE(f.size() == 65536);
    int bad = 0;
    for (uint32_t x = 0; x < 65536; x++) {
      uint16_t r = bf ? (sfu_isnan(f[x]) ? (uint16_t)0x7fff : (uint16_t)(f[x] >> 16)) : sfu_f32_to_f16_rz(f[x], true);
      bad += r != t[x];
    }
    CHECK(bad == 0);
  }
}


TEST_CASE("the non-ftz forms equal the .ftz forms wherever the device's path takes them") {
  REQUIRE(fx().ok);
  const SfuTables& T = fx().T;
  auto rcp = [&](uint32_t x, bool ftz) { return sfu_rcp(T, x, ftz); };
  auto rsqrt = [&](uint32_t x, bool ftz) { return sfu_rsqrt(T, x, ftz); };
  auto sqrt = [&](uint32_t x, bool ftz) { return sfu_sqrt(T, x, ftz); };
  auto ex2 = [&](uint32_t x, bool ftz) { return sfu_ex2(T, x, ftz); };
  // x and 1/x normal: biased exponent 1..251
  checkGuard("rcp", rcp, [](uint32_t x) { return ((x >> 23) & 0xFFu) - 1u < 251u; }, {0, 1, 250, 251, 252, 253});
  // x positive and normal
  auto posNormal = [](uint32_t x) { return x - 0x00800000u < 0x7F000000u; };
  checkGuard("rsqrt", rsqrt, posNormal, {0, 1, 254});
  checkGuard("sqrt", sqrt, posNormal, {0, 1, 254});
  // x positive (NaN, +inf included) or x >= -125 (0xC2FA0000; biased exponent 133)
  checkGuard("ex2", ex2, [](uint32_t x) { return (x & 0x80000000u) == 0u || (x & 0x7FFFFFFFu) <= 0x42FA0000u; },
             {0, 133});
}

TEST_CASE("with the fact sfu-native, each non-ftz form is its model on every input") {
  REQUIRE(fx().ok);
  const SfuTables& T = fx().T;
  // rcp: a subnormal x or one of biased exponent 252..254 through 1 / its significand
  auto rcpPath = [&](uint32_t x) {
    uint32_t ax = x & 0x7FFFFFFFu, a = x, M = 0;
    int e = 0;
    bool big = ax - 1u < 0x7FFFFFu || (ax >> 23) - 252u < 3u;
    if (big) {
      sfu_split(ax, &M, &e);
      a = (x & 0x80000000u) | 0x3F800000u | (M & 0x7FFFFFu);
    }
    uint32_t b = sfu_rcp(T, a, true);
    return big ? sfuScaled(b, -e, x & 0x80000000u) : b;
  };
  checkPath("rcp", [&](uint32_t x) { return sfu_rcp(T, x, false); }, rcpPath, {0, 1, 251, 252, 253, 254, 255});
  // rsqrt and sqrt (p2g_sfu_root_arg): a subnormal x through its significand times 2^p, a negative one through a
  // NaN operand
  auto rootPath = [&](uint32_t x, bool inverse) {
    uint32_t a = x, M = 0;
    int e = 0, p = 0, h = 0;
    bool sub = (x & 0x7FFFFFFFu) - 1u < 0x7FFFFFu;
    if (sub && (x >> 31)) {
      a = 0x7FFFFFFFu;
      sub = false;
    } else if (sub) {
      sfu_split(x, &M, &e);
      p = e & 1;
      a = ((uint32_t)(127 + p) << 23) | (M & 0x7FFFFFu);
      h = (e - p) / 2;
    }
    uint32_t b = inverse ? sfu_rsqrt(T, a, true) : sfu_sqrt(T, a, true);
    return sub ? sfuScaled(b, inverse ? -h : h, 0u) : b;
  };
  checkPath("rsqrt", [&](uint32_t x) { return sfu_rsqrt(T, x, false); },
            [&](uint32_t x) { return rootPath(x, true); }, {0, 1, 254, 255});
  checkPath("sqrt", [&](uint32_t x) { return sfu_sqrt(T, x, false); },
            [&](uint32_t x) { return rootPath(x, false); }, {0, 1, 254, 255});
  // ex2: x < -126 through ex2(x / 2) squared (the model's own step), every other x the .ftz form
  auto ex2Path = [&](uint32_t x) {
    uint32_t ax = x & 0x7FFFFFFFu;
    bool sq = (x >> 31) && ax > 0x42FC0000u && ax <= 0x7F800000u;
    uint32_t h = sfu_ex2(T, sq ? x - 0x00800000u : x, true);
    if (!sq || !h) return h;
    uint64_t Mh = (h & 0x7FFFFFu) | 0x800000u;
    int eh = (int)(h >> 23) - 150;
    return sfu_round(Mh * Mh, 2 * eh, 0u);
  };
  checkPath("ex2", [&](uint32_t x) { return sfu_ex2(T, x, false); }, ex2Path, {0, 132, 133, 134, 255});
}

TEST_CASE("special operands (from the H200 summary)") {
  REQUIRE(fx().ok);
  const SfuTables& T = fx().T;
  struct Case { int op; uint32_t in, out; } cases[] = {
    {SFU_RCP_FTZ, 0x00000000, 0x7f800000}, {SFU_RCP_FTZ, 0x80000001, 0xff800000}, {SFU_RCP_FTZ, 0x7f7fffff, 0x00000000},
    {SFU_RCP, 0x7f7fffff, 0x00200000}, {SFU_RCP, 0x00400000, 0x7f000000}, {SFU_RCP, 0x007fffff, 0x7e800001},
    {SFU_RCP, 0x00000001, 0x7f800000}, {SFU_RCP_FTZ, 0x40400000, 0x3eaaaaab}, {SFU_RCP_FTZ, 0xffc00000, 0x7fffffff},
    {SFU_RSQRT_FTZ, 0x80000000, 0xff800000}, {SFU_RSQRT_FTZ, 0x807fffff, 0xff800000}, {SFU_RSQRT, 0x807fffff, 0x7fffffff},
    {SFU_RSQRT, 0x00000001, 0x64b504f2}, {SFU_RSQRT, 0x00400000, 0x5f3504f2}, {SFU_RSQRT_FTZ, 0xff800000, 0x7fffffff},
    {SFU_RSQRT_FTZ, 0x7f800000, 0x00000000}, {SFU_RSQRT_FTZ, 0x41100000, 0x3eaaaaaa},
    {SFU_SQRT_FTZ, 0x807fffff, 0x80000000}, {SFU_SQRT, 0x00000001, 0x1a3504f3}, {SFU_SQRT, 0x007fffff, 0x1fffffff},
    {SFU_SQRT_FTZ, 0x7f800000, 0x7f800000}, {SFU_SQRT_FTZ, 0x41200000, 0x404a62c2},
    {SFU_EX2_FTZ, 0x80000000, 0x3f800000}, {SFU_EX2_FTZ, 0x42ffffff, 0x7f7fffa8}, {SFU_EX2_FTZ, 0x43000000, 0x7f800000},
    {SFU_EX2_FTZ, 0xc2fc0000, 0x00800000}, {SFU_EX2_FTZ, 0xc2fe0000, 0x00000000}, {SFU_EX2, 0xc2fe0000, 0x003fffff},
    {SFU_EX2, 0xc3000000, 0x00200000}, {SFU_EX2, 0xc3150000, 0x00000001}, {SFU_EX2, 0xc3160000, 0x00000000},
    {SFU_EX2_FTZ, 0x3a800000, 0x3f801631}, {SFU_EX2_FTZ, 0x40490fdb, 0x410d331d}, {SFU_EX2_FTZ, 0xff800000, 0x00000000},
  };
  for (const Case& c : cases) {
    char in[16];
    snprintf(in, sizeof in, "%08x", c.in);
    INFO(kOp32Name[c.op] << " " << in);
    CHECK(sfu_model32(T, c.op, c.in) == c.out);
  }
}
