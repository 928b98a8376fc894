// Unit tests of runtime/common: JSON, scalar conversions, the input generator, case loading and validation,
// the parameter block, the diff and the manifest round trip.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

#include "case.h"
#include "diff.h"
#include "inputs.h"
#include "json.h"
#include "manifest.h"
#include "params.h"
#include "scalar.h"

using namespace p2g;

namespace {

// A fresh directory under /tmp for one test's case files, removed when the test ends.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/p2g-rt-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

void put(const std::string& path, const std::string& text) {
  std::string err;
  REQUIRE_MESSAGE(writeFile(path, text.data(), text.size(), err), err);
}

ManifestParam mp(const char* name, const char* type, uint32_t offset, uint32_t bytes, bool isArray = false) {
  ManifestParam p;
  p.name = name;
  p.type = type;
  p.offset = offset;
  p.bytes = bytes;
  p.align = isArray ? 8 : bytes;
  p.isArray = isArray;
  return p;
}

std::string caseJson(const std::string& params, const std::string& extra = "") {
  return R"({"kernel": "k", "grid": [2, 1, 1], "block": [64, 1, 1],
    "buffers": {"x": {"bytes": 1024, "init": {"zero": true}}, "out": {"bytes": 512}},
    "params": )" + params + extra + "}";
}

// Parses a case from text (no files needed) and returns the error, "" on success.
std::string parseErr(const std::string& text, CaseSpec* out = nullptr) {
  CaseSpec c;
  std::string err;
  bool ok = parseCase(text, "/tmp/case", c, err);
  if (out) *out = c;
  return ok ? "" : err;
}

}  // namespace

TEST_CASE("json: values, order, exact integers") {
  json::Value v;
  std::string err;
  REQUIRE(json::parse(R"({"b": [1, 2.5, -3e2, true, null, "s\u00e9\n"], "a": 18446744073709551615})", v, err));
  REQUIRE(v.isObject());
  CHECK(v.obj[0].first == "b");  // source order kept
  const json::Value* b = v.find("b");
  REQUIRE(b);
  CHECK(b->arr.size() == 6);
  CHECK(b->arr[1].num == 2.5);
  int64_t i;
  CHECK(b->arr[2].toI64(i));
  CHECK(i == -300);
  CHECK_FALSE(b->arr[1].toI64(i));
  CHECK(b->arr[5].str == "s\xc3\xa9\n");
  uint64_t u;
  REQUIRE(v.find("a")->toU64(u));
  CHECK(u == ~uint64_t(0));  // beyond a double's 53 bits, read exactly
  CHECK_FALSE(b->arr[2].toU64(u));
}

TEST_CASE("json: errors carry line:col") {
  json::Value v;
  std::string err;
  CHECK_FALSE(json::parse("{\n  \"a\": 1,\n  \"b\" 2\n}", v, err));
  CHECK(err.rfind("3:7:", 0) == 0);
  CHECK_FALSE(json::parse("{\"a\": 1, \"a\": 2}", v, err));
  CHECK(err.find("duplicate") != std::string::npos);
  CHECK_FALSE(json::parse("[1, 2", v, err));
  CHECK_FALSE(json::parse("01", v, err));
  CHECK_FALSE(json::parse("\"abc", v, err));
  CHECK_FALSE(json::parse(std::string(100000, '['), v, err));  // deep nesting: an error, not a stack overflow
  CHECK_FALSE(json::parse("", v, err));
}

TEST_CASE("f16: every half survives a round trip through double") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    double d = halfToDouble((uint16_t)h);
    uint16_t back = doubleToHalf(d);
    if (std::isnan(d))
      CHECK((back & 0x7C00) == 0x7C00);
    else if (back != h)
      FAIL_CHECK("half " << h << " came back as " << back);
  }
}

TEST_CASE("f16: midpoints round to even, overflow and underflow") {
  // Every midpoint between consecutive positive finite halves must round to the one with an even last bit.
  for (uint32_t h = 0; h < 0x7BFF; ++h) {
    double mid = (halfToDouble((uint16_t)h) + halfToDouble((uint16_t)(h + 1))) / 2;  // exact in double
    uint16_t want = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
    if (doubleToHalf(mid) != want) FAIL_CHECK("midpoint after " << h);
    CHECK(doubleToHalf(-mid) == (uint16_t)(want | 0x8000));
  }
  double maxHalf = halfToDouble(0x7BFF);
  double ulpTop = maxHalf - halfToDouble(0x7BFE);
  CHECK(doubleToHalf(maxHalf + ulpTop / 2) == 0x7C00);            // the tie above max rounds to even = inf
  CHECK(doubleToHalf(std::nextafter(maxHalf + ulpTop / 2, 0)) == 0x7BFF);
  CHECK(doubleToHalf(std::ldexp(1.0, -26)) == 0);                  // below half the smallest subnormal
  CHECK(doubleToHalf(-0.0) == 0x8000);
  CHECK((doubleToHalf(NAN) & 0x7FFF) > 0x7C00);
  // The value glslang folds wrongly (HAZARDS.md #1): RNE is one above round-toward-zero.
  double x = -0.041351;
  uint16_t rne = doubleToHalf(x);
  CHECK(std::fabs(halfToDouble(rne) - x) <= std::fabs(halfToDouble((uint16_t)(rne - 1)) - x));
}

TEST_CASE("bf16: matches the integer RNE of float bits") {
  SplitMix64 rng(99);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = (uint32_t)rng.next();
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    // Independent formula: add 0x7FFF plus the lowest kept bit, then truncate (overflow carries into inf).
    uint16_t want = (uint16_t)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
    if (doubleToBf16(f) != want) FAIL_CHECK("bf16 of bits " << bits);
  }
}

TEST_CASE("splitmix64 reference vector") {
  // The first outputs for seed 0 of Vigna's reference splitmix64.c; docs/CASE_INPUTS.md quotes them too.
  SplitMix64 r(0);
  CHECK(r.next() == 0xE220A8397B1DCDAFull);
  CHECK(r.next() == 0x6E789E6AA1B965F4ull);
}

TEST_CASE("inputs: random is deterministic and in range") {
  InitSpec in;
  in.kind = InitSpec::Kind::Random;
  in.type = ElemType::F32;
  in.seed = 7;
  in.hasRange = true;
  json::Value lo, hi;
  std::string err;
  REQUIRE(json::parse("-4.0", in.lo, err));
  REQUIRE(json::parse("4.0", in.hi, err));
  std::vector<uint8_t> a, b;
  REQUIRE(generateInit(in, 4096 + 3, "/tmp", "x", a, err));
  REQUIRE(generateInit(in, 4096 + 3, "/tmp", "x", b, err));
  CHECK(a == b);
  CHECK(a[4096] == 0);  // the partial trailing element stays zero
  float mn = 1e9f, mx = -1e9f;
  for (size_t i = 0; i < 1024; ++i) {
    float f;
    std::memcpy(&f, &a[i * 4], 4);
    mn = std::min(mn, f);
    mx = std::max(mx, f);
  }
  CHECK(mn >= -4.0f);
  CHECK(mx <= 4.0f);
  CHECK(mx - mn > 7.5f);  // spread over the range
  in.seed = 8;
  REQUIRE(generateInit(in, 4096, "/tmp", "x", b, err));
  CHECK(std::memcmp(a.data(), b.data(), 4096) != 0);

  // Integers: inclusive bounds, every value reached.
  InitSpec ii;
  ii.kind = InitSpec::Kind::Random;
  ii.type = ElemType::S16;
  ii.seed = 1;
  ii.hasRange = true;
  REQUIRE(json::parse("-3", ii.lo, err));
  REQUIRE(json::parse("3", ii.hi, err));
  REQUIRE(generateInit(ii, 2000, "/tmp", "y", a, err));
  std::set<int16_t> seen;
  for (size_t i = 0; i < 1000; ++i) {
    int16_t v;
    std::memcpy(&v, &a[i * 2], 2);
    seen.insert(v);
  }
  CHECK(seen.size() == 7);
  CHECK(*seen.begin() == -3);
  CHECK(*seen.rbegin() == 3);

  InitSpec bits;
  bits.kind = InitSpec::Kind::Random;
  bits.type = ElemType::Bits;
  bits.seed = 0;
  REQUIRE(generateInit(bits, 11, "/tmp", "z", a, err));
  SplitMix64 r(0);
  uint64_t w0 = r.next(), w1 = r.next();
  CHECK(std::memcmp(a.data(), &w0, 8) == 0);
  CHECK(std::memcmp(a.data() + 8, &w1, 3) == 0);
}

TEST_CASE("inputs: fill, iota, file") {
  CaseSpec c;
  std::string err;
  REQUIRE(parseErr(R"({"kernel":"k","grid":[1],"block":[1],"buffers":{
      "f": {"bytes": 10, "init": {"fill": {"type": "f16", "value": 1.0}}},
      "i": {"bytes": 12, "init": {"iota": {"type": "u32"}}},
      "h": {"bytes": 4, "init": {"fill": {"type": "f16", "value": {"bits": 15361}}}}}})", &c) == "");
  std::vector<uint8_t> out;
  REQUIRE(generateInit(c.buffers[0].init, 10, "/tmp", "f", out, err));
  for (int i = 0; i < 5; ++i) CHECK((out[2 * i] | out[2 * i + 1] << 8) == doubleToHalf(1.0));
  REQUIRE(generateInit(c.buffers[1].init, 12, "/tmp", "i", out, err));
  for (uint32_t i = 0; i < 3; ++i) {
    uint32_t v;
    std::memcpy(&v, &out[4 * i], 4);
    CHECK(v == i);
  }
  REQUIRE(generateInit(c.buffers[2].init, 4, "/tmp", "h", out, err));
  CHECK((out[0] | out[1] << 8) == 15361);

  TempDir td;
  std::string dir = td.path;
  put(dir + "/in.bin", "abc");
  InitSpec f;
  f.kind = InitSpec::Kind::File;
  f.file = "in.bin";
  REQUIRE(generateInit(f, 5, dir, "buffers.y", out, err));
  CHECK(out == std::vector<uint8_t>{'a', 'b', 'c', 0, 0});
  CHECK_FALSE(generateInit(f, 2, dir, "buffers.y", out, err));
  CHECK(err.find("buffers.y") != std::string::npos);
}

TEST_CASE("case: the CASE_FORMAT.md example parses") {
  CaseSpec c;
  std::string e = parseErr(R"({
  "kernel": "entry_name", "ptx": "kernel.ptx", "grid": [64, 1, 1], "block": [256, 1, 1], "dynamic_shared_bytes": 0,
  "buffers": {
    "x":   {"bytes": 65536, "init": {"random": {"seed": 7, "type": "f32", "lo": -4.0, "hi": 4.0}}},
    "y":   {"bytes": 65536, "init": {"file": "inputs/y.bin"}},
    "out": {"bytes": 65536, "init": {"zero": true}}
  },
  "textures": {"color": {"format": "rgba16f", "width": 64, "height": 36, "init": {"file": "inputs/color.bin"},
              "filter": "linear", "address": "clamp", "normalized": true}},
  "surfaces": {"dst": {"format": "rgba16f", "width": 128, "height": 72, "init": {"zero": true}}},
  "params": [
    {"buffer": "x"}, {"buffer": "out", "offset": 256}, {"u32": 16384}, {"f32": 0.5},
    {"struct": {"bytes": 328, "fields": [
      {"at": 200, "texture": "color"}, {"at": 272, "buffer": "y"}, {"at": 288, "surface": "dst"},
      {"at": 160, "f32": 1.0}, {"at": 32, "u8": 0}]}}
  ],
  "outputs": [{"buffer": "out", "type": "f32"}, {"surface": "dst", "type": "f16"}]
})", &c);
  REQUIRE(e == "");
  CHECK(c.kernel == "entry_name");
  CHECK(c.grid[0] == 64);
  CHECK(c.buffers.size() == 3);
  CHECK(c.textures.size() == 1);
  CHECK(c.textures[0].normalized);
  CHECK(c.params.size() == 5);
  CHECK(c.params[1].offset == 256);
  CHECK(c.params[4].fields.size() == 5);
  CHECK(c.outputs[1].surface);
  CHECK(c.outputs[1].type == ElemType::F16);
  CHECK(c.usesImages());
}

TEST_CASE("case: errors name the field") {
  auto has = [](const std::string& err, const std::string& part) {
    INFO(err);
    CHECK(err.find(part) != std::string::npos);
  };
  has(parseErr(caseJson(R"([{"buffer": "nope"}])")), "params[0]: unknown buffer \"nope\"");
  has(parseErr(caseJson(R"([{"texture": "t"}])")), "unknown texture");
  has(parseErr(caseJson(R"([{"buffer": "x", "offset": 2048}])")), "params[0].offset: 2048 is not inside buffer \"x\"");
  has(parseErr(caseJson("[]", R"(, "outputs": [{"buffer": "zz"}])")), "outputs[0].buffer: unknown buffer");
  has(parseErr(caseJson(R"([{"u32": -1}])")), "params[0].u32");
  has(parseErr(caseJson(R"([{"u8": 256}])")), "range of u8");
  has(parseErr(caseJson(R"([{"q32": 1}])")), "params[0]");
  has(parseErr(R"({"grid": [1], "block": [1]})"), "kernel");
  has(parseErr(R"({"kernel": "k", "grid": [0, 1, 1], "block": [1]})"), "grid.x is 0");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1025]})"), "block.x");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [32, 32, 2]})"), "more than 1024");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"b": {"bytes": 4,
      "init": {"random": {"seed": 1, "type": "f8"}}}}})"), "buffers.b.init.random.type");
  has(parseErr("{\"kernel\": \"k\",\n \"grid\": [1] \"block\": [1]}"), "case.json:2:");
}

TEST_CASE("case: unknown keys, empty outputs and pointers at a buffer's end are refused") {
  auto has = [](const std::string& err, const std::string& part) {
    INFO(err);
    CHECK(err.find(part) != std::string::npos);
  };
  // a misspelt key anywhere names itself and its path (the runner used to ignore it and zero-fill the buffer)
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"x": {"bytes": 4, "inti": {"zero": true}}},
      "params": []})"), "buffers.x.inti: unknown key (expected bytes, init)");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "bufers": {}})"), "bufers: unknown key");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"x": {"bytes": 4,
      "init": {"random": {"seed": 1, "type": "u8", "hi": 3, "low": 1}}}}})"), "buffers.x.init.random.low: unknown key");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"x": {"bytes": 4,
      "init": {"rand": {"seed": 1}}}}})"), "buffers.x.init.rand: unknown init kind");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"x": {"bytes": 4,
      "init": {"zero": false}}}})"), "buffers.x.init.zero: expected true");
  has(parseErr(caseJson(R"([{"buffer": "x", "ofset": 4}])")), "params[0].ofset: unknown key");
  has(parseErr(caseJson(R"([{"u32": 1, "offset": 4}])")), "params[0].offset: \"offset\" belongs to a buffer pointer");
  has(parseErr(caseJson(R"([{"struct": {"bytes": 8, "feilds": []}}])")), "params[0].struct.feilds: unknown key");
  has(parseErr(caseJson("[]", R"(, "outputs": [{"buffer": "out", "tpye": "f32"}])")), "outputs[0].tpye: unknown key");
  has(parseErr(caseJson("[]", R"(, "outputs": [{"buffer": "out", "surface": "out"}])")), "not both");
  has(parseErr(caseJson("[]", R"(, "textures": {"t": {"format": "r8", "width": 1, "height": 1, "fliter": "point"}})")),
      "textures.t.fliter: unknown key");
  has(parseErr(caseJson("[]", R"(, "surfaces": {"s": {"format": "r8", "width": 1, "height": 1, "filter": "point"}})")),
      "surfaces.s.filter: unknown key");
  has(parseErr(caseJson("[]", R"(, "textures": {"t": {"format": "r8", "width": 1, "height": 1, "normalized": 1}})")),
      "textures.t.normalized: expected true or false");
  has(parseErr(caseJson("[]", R"(, "frames": 2)")), "frames: not part of version 1");
  has(parseErr(caseJson("[]", R"(, "ops": {"out": 3})")), "ops.out: expected a string");
  CHECK(parseErr(caseJson("[]", R"(, "ops": {"out": "add.f32"})")) == "");  // informational (ptx_corpus/ops)
  // a case that compares nothing passes whatever the kernel does
  has(parseErr(caseJson("[]", R"(, "outputs": [])")), "outputs: names no output");
  has(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "params": []})"), "no buffer or surface to compare");
  // a pointer must point into its buffer; offset 0 is the buffer itself, even an empty one
  has(parseErr(caseJson(R"([{"buffer": "out", "offset": 512}])")), "params[0].offset: 512 is not inside buffer \"out\"");
  CHECK(parseErr(caseJson(R"([{"buffer": "out", "offset": 508}])")) == "");
  CHECK(parseErr(R"({"kernel": "k", "grid": [1], "block": [1], "buffers": {"e": {"bytes": 0}},
      "params": [{"buffer": "e"}]})") == "");
}

TEST_CASE("case: values against what the kernel does with them (manifest paramMap)") {
  Manifest m;
  m.params = {mp("p0", "u64", 0, 8), mp("p1", "u32", 8, 4), mp("p2", "b8", 16, 32, true), mp("p3", "u64", 48, 8),
              mp("p4", "f32", 56, 4), mp("p5", "b32", 60, 4)};
  auto field = [](uint32_t at, const char* type, const char* kind) {
    ManifestParamField f;
    f.offset = at;
    f.bytes = std::string(type) == "u64" ? 8 : 4;
    f.type = type;
    f.kind = kind;
    f.uses = {std::string(kind) == "buffer" ? "st.global.u32" : std::string(kind) == "texture" ? "tex.2d.v4.f32.f32"
                                                                                             : "add.s32"};
    return f;
  };
  m.paramMap = {field(0, "u64", "buffer"), field(8, "u32", "scalar"), field(16, "u64", "buffer"),
                field(24, "u64", "texture"), field(32, "f32", "scalar"), field(48, "u64", "scalar")};
  ManifestImage im;
  im.kind = "texture";
  im.offset = 24;
  im.dims = 2;
  m.images = {im};
  const std::string images = R"(, "textures": {"t": {"format": "r8", "width": 4, "height": 4},
      "t1": {"format": "r8", "width": 4, "height": 1, "dims": 1}},
      "surfaces": {"s": {"format": "r8", "width": 4, "height": 4}})";
  auto check = [&](const std::string& params) {
    CaseSpec c;
    std::string e = parseErr(caseJson(params, images), &c);
    REQUIRE_MESSAGE(e == "", e);
    std::string err;
    REQUIRE_MESSAGE(validateParams(c, m.params, err), err);
    return validateAgainstKernel(c, m, err) ? std::string() : err;
  };
  auto refused = [&](const std::string& params, const std::string& part) {
    std::string e = check(params);
    INFO(e);
    CHECK(e.find(part) != std::string::npos);
  };
  const std::string good = R"({"struct": {"bytes": 32, "fields": [{"at": 0, "buffer": "out"}, {"at": 8, "texture": "t"},
      {"at": 16, "f32": 1}]}})";
  CHECK(check(R"([{"buffer": "x"}, {"s32": -3}, )" + good + R"(, {"u64": 5}, {"f32": 2}, {"f32": 1}])") == "");
  CHECK(check(R"([{"buffer": "x"}, {"u32": 3}, )" + good + R"(, {"buffer": "x"}, {"f32": 2}, {"u32": 1}])") == "");
  // a number where the kernel dereferences a pointer (the probe's {"u64": 12345}: SIGSEGV on lavapipe)
  refused(R"([{"u64": 12345}, {"u32": 3}, )" + good + R"(, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[0] (p0): a scalar given for a value the kernel uses as a memory address (st.global.u32)");
  refused(R"([{"texture": "t"}, {"u32": 3}, )" + good + R"(, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[0] (p0): a texture given for a value the kernel uses as a memory address");
  // scalars: a float for an integer type, an integer for a float type
  refused(R"([{"buffer": "x"}, {"f32": 3}, )" + good + R"(, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[1] (p1): f32 given for a .u32 param; give an integer (u32 or s32)");
  refused(R"([{"buffer": "x"}, {"u32": 3}, )" + good + R"(, {"u64": 5}, {"u32": 2}, {"u32": 1}])",
          "params[4] (p4): u32 given for a .f32 param; give f32");
  // struct fields: addresses and handles of the right kind, and none missing
  refused(R"([{"buffer": "x"}, {"u32": 3}, {"struct": {"bytes": 32, "fields": [{"at": 0, "u64": 4096},
      {"at": 8, "texture": "t"}]}}, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[2].struct.fields[0]: a scalar given for a value the kernel uses as a memory address");
  refused(R"([{"buffer": "x"}, {"u32": 3}, {"struct": {"bytes": 32, "fields": [{"at": 0, "buffer": "x"},
      {"at": 8, "buffer": "x"}]}}, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[2].struct.fields[1]: a buffer given for a texture handle (tex.2d.v4.f32.f32); give {\"texture\": name}");
  refused(R"([{"buffer": "x"}, {"u32": 3}, {"struct": {"bytes": 32, "fields": [{"at": 0, "buffer": "x"},
      {"at": 8, "surface": "s"}]}}, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "a surface given for a texture handle");
  refused(R"([{"buffer": "x"}, {"u32": 3}, {"struct": {"bytes": 32, "fields": [{"at": 8, "texture": "t"}]}},
      {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[2] (p2).struct: no field at byte 0, which the kernel uses as a memory address (st.global.u32)");
  // an image whose dimensions differ from the instructions that read it
  refused(R"([{"buffer": "x"}, {"u32": 3}, {"struct": {"bytes": 32, "fields": [{"at": 0, "buffer": "x"},
      {"at": 8, "texture": "t1"}]}}, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "texture \"t1\" has 1 dimension(s), but the kernel uses it as 2D");
  // a parameter declared .ptr is a pointer even when the kernel's use was not traced
  m.params[3].isPtr = true;
  refused(R"([{"buffer": "x"}, {"u32": 3}, )" + good + R"(, {"u64": 5}, {"f32": 2}, {"u32": 1}])",
          "params[3] (p3): a scalar given for a value the kernel uses as a memory address (declared .ptr)");
}

TEST_CASE("case: params against the PTX layout") {
  std::vector<ManifestParam> layout = {mp("p0", "u64", 0, 8), mp("p1", "u32", 8, 4), mp("p2", "b8", 16, 32, true)};
  auto check = [&](const std::string& params) {
    CaseSpec c;
    std::string e = parseErr(caseJson(params), &c);
    REQUIRE_MESSAGE(e == "", e);
    std::string err;
    return validateParams(c, layout, err) ? std::string() : err;
  };
  CHECK(check(R"([{"buffer": "x"}, {"u32": 1}, {"struct": {"bytes": 32}}])") == "");
  std::string e = check(R"([{"buffer": "x"}, {"u32": 1}])");
  CHECK(e.find("params has 2 entries") != std::string::npos);
  e = check(R"([{"u32": 5}, {"u32": 1}, {"struct": {"bytes": 32}}])");
  CHECK(e.find("params[0] (p0): u32 given for a 8-byte .u64 param") != std::string::npos);
  e = check(R"([{"buffer": "x"}, {"buffer": "x"}, {"struct": {"bytes": 32}}])");
  CHECK(e.find("params[1] (p1): buffer pointer (8 bytes) given for a 4-byte .u32 param") != std::string::npos);
  e = check(R"([{"buffer": "x"}, {"u32": 1}, {"struct": {"bytes": 24}}])");
  CHECK(e.find("struct of 24 bytes given for a 32-byte .b8[32] param") != std::string::npos);
  e = check(R"([{"buffer": "x"}, {"u32": 1}, {"struct": {"bytes": 32, "fields": [{"at": 28, "u64": 1}]}}])");
  CHECK(e.find("outside the 32-byte struct") != std::string::npos);
  e = check(R"([{"buffer": "x"}, {"u32": 1}, {"struct": {"bytes": 32, "fields": [{"at": 8, "u64": 1},
               {"at": 12, "f32": 1}]}}])");
  CHECK(e.find("params[2].struct.fields[1]: field at byte 12 overlaps") != std::string::npos);
}

TEST_CASE("params: block bytes") {
  std::vector<ManifestParam> layout = {mp("a", "u64", 0, 8), mp("n", "u16", 8, 2), mp("s", "b8", 16, 24, true),
                                       mp("h", "f16", 40, 2)};
  CaseSpec c;
  REQUIRE(parseErr(caseJson(R"([{"buffer": "out", "offset": 16}, {"s16": -2},
      {"struct": {"bytes": 24, "fields": [{"at": 4, "f32": 0.5}, {"at": 16, "buffer": "x"}]}}, {"f16": 2.0}])"), &c) == "");
  std::string err;
  std::vector<uint8_t> blk;
  auto addr = [](char kind, const std::string& n) -> uint64_t { return n == "x" ? 0x1000 : 0x2000; };
  REQUIRE_MESSAGE(buildParamBlock(c, layout, 48, addr, blk, err), err);
  REQUIRE(blk.size() == 48);
  uint64_t a, s16;
  std::memcpy(&a, &blk[0], 8);
  CHECK(a == 0x2000 + 16);
  CHECK((blk[8] | blk[9] << 8) == 0xFFFE);
  CHECK(blk[10] == 0);
  float f;
  std::memcpy(&f, &blk[20], 4);
  CHECK(f == 0.5f);
  std::memcpy(&s16, &blk[32], 8);
  CHECK(s16 == 0x1000);
  CHECK((blk[40] | blk[41] << 8) == doubleToHalf(2.0));
  CHECK_FALSE(buildParamBlock(c, layout, 40, addr, blk, err));  // layout past the declared block size
}

TEST_CASE("loadCase: files") {
  TempDir td;
  std::string dir = td.path;
  put(dir + "/case.json", R"({"kernel": "k", "grid": [1], "block": [1],
      "buffers": {"b": {"bytes": 4, "init": {"file": "in.bin"}}}, "params": [{"buffer": "b"}]})");
  CaseSpec c;
  std::string err;
  CHECK_FALSE(loadCase(dir, c, err));
  CHECK(err.find("missing PTX file") != std::string::npos);
  put(dir + "/kernel.ptx", "// empty\n");
  CHECK_FALSE(loadCase(dir, c, err));
  CHECK(err.find("buffers.b.init.file: cannot read") != std::string::npos);
  put(dir + "/in.bin", "12345");
  CHECK_FALSE(loadCase(dir, c, err));
  CHECK(err.find("5 bytes, more than the 4 of buffers.b") != std::string::npos);
  put(dir + "/in.bin", "12");
  CHECK_MESSAGE(loadCase(dir, c, err), err);
  CHECK(c.outputs.size() == 1);  // default: every buffer
  CHECK_FALSE(loadCase("/nonexistent/case", c, err));
}

TEST_CASE("diff: counts, ulp, psnr") {
  std::vector<float> e = {1.0f, -2.0f, 0.0f, 3.5f}, a = e;
  auto run = [&](ElemType t = ElemType::F32) {
    return diffBytes((const uint8_t*)a.data(), (const uint8_t*)e.data(), a.size() * 4, t);
  };
  DiffStats d = run();
  CHECK(d.identical());
  CHECK(std::isinf(d.psnr));
  CHECK(formatDiff(d) == "identical");
  a[0] = std::nextafter(1.0f, 2.0f);
  a[2] = -std::numeric_limits<float>::denorm_min();  // -tiny vs +0: one ulp apart across zero
  d = run();
  CHECK(d.differing == 2);
  CHECK(d.total == 4);
  CHECK(d.maxUlp == 1);
  CHECK(d.psnr > 100);
  a[1] = -2.5f;
  d = run();
  CHECK(d.maxUlp == (1u << 21));  // -2 -> -2.5 is a quarter of the binade [2,4), which holds 2^23 values
  CHECK(d.psnr < 30);
  CHECK(formatDiff(d).find("3/4 differ, max ulp 2097152, PSNR") == 0);

  int32_t x[2] = {-5, 7}, y[2] = {5, 7};
  DiffStats di = diffBytes((const uint8_t*)x, (const uint8_t*)y, 8, ElemType::S32);
  CHECK(di.differing == 1);
  CHECK(di.maxUlp == 10);
  DiffStats du = diffBytes((const uint8_t*)x, (const uint8_t*)y, 8, ElemType::U32);
  CHECK(du.maxUlp == (uint64_t)(uint32_t)-5 - 5);
  uint8_t p[3] = {1, 2, 3}, q[3] = {1, 2, 4};
  DiffStats dp = diffBytes(p, q, 3, ElemType::U16);  // one whole element and a trailing byte
  CHECK(dp.total == 2);
  CHECK(dp.differing == 1);
}

TEST_CASE("manifest: JSON round trip and errors") {
  Manifest m;
  m.entry = "_Z3addPfS_i";
  m.ptx = "k \"q\".ptx";
  m.params = {mp("p0", "u64", 0, 8), mp("p1", "b8", 8, 24, true)};
  m.params[0].isPtr = true;
  m.paramBytes = 32;
  m.staticSharedBytes = 1024;
  m.dynamicShared = true;
  m.reqntid[0] = 128;
  m.features = {"int64", "float16"};
  m.glsl = "k.comp";
  m.spirv = "k.spv";
  m.warnings = {"line1\nline2"};
  m.globalsBytes = 16;
  m.globalsInit = {0x00, 0xAB, 0x7F};
  Manifest r;
  std::string err;
  REQUIRE_MESSAGE(manifestFromJson(manifestToJson(m), r, err), err);
  CHECK(r.entry == m.entry);
  CHECK(r.ptx == m.ptx);
  REQUIRE(r.params.size() == 2);
  CHECK(r.params[0].isPtr);
  CHECK(r.params[1].isArray);
  CHECK(r.params[1].offset == 8);
  CHECK(r.params[1].bytes == 24);
  CHECK(r.paramBytes == 32);
  CHECK(r.staticSharedBytes == 1024);
  CHECK(r.dynamicShared);
  CHECK(r.reqntid[0] == 128);
  CHECK(r.features == m.features);
  CHECK(r.warnings == m.warnings);
  CHECK(r.globalsBytes == 16);
  CHECK(r.globalsInit == m.globalsInit);
  CHECK(manifestToJson(r) == manifestToJson(m));
  CHECK_FALSE(manifestFromJson("{\"params\": []}", r, err));
  CHECK(err.find("entry") != std::string::npos);
  CHECK_FALSE(manifestFromJson("{\"entry\": \"e\", \"params\": [{\"name\": \"a\", \"offset\": -1, \"bytes\": 4}]}", r, err));
  CHECK(err.find("offset") != std::string::npos);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "globalsBytes": 1, "globalsInit": "0a0b"})", r, err));
  CHECK(err.find("longer than globalsBytes") != std::string::npos);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "globalsBytes": 4, "globalsInit": "0g"})", r, err));
  // the loop budget guard's counter word: present only with loops, inside the globals buffer, aligned
  REQUIRE_MESSAGE(manifestFromJson(manifestToJson(m), r, err), err);
  CHECK_FALSE(r.loopGuard);
  CHECK(manifestToJson(m).find("loopGuard") == std::string::npos);
  CHECK(manifestToJson(m).find("checkBounds") == std::string::npos);
  m.checkBounds = true;
  m.globalVarBytes = 3;
  REQUIRE_MESSAGE(manifestFromJson(manifestToJson(m), r, err), err);
  CHECK(r.checkBounds);
  CHECK(r.globalVarBytes == 3);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "globalsBytes": 4, "checkBounds": {"globalVarBytes": 8}})", r, err));
  CHECK(err.find("globalVarBytes") != std::string::npos);
  m.checkBounds = false;
  m.loopGuard = true;
  m.loopGuardAt = 12;
  REQUIRE_MESSAGE(manifestFromJson(manifestToJson(m), r, err), err);
  CHECK(r.loopGuard);
  CHECK(r.loopGuardAt == 12);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "globalsBytes": 4, "loopGuard": 4})", r, err));
  CHECK(err.find("loopGuard") != std::string::npos);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "globalsBytes": 8, "loopGuard": 2})", r, err));
  // the thread count barriers name: absent when 0, kept otherwise
  CHECK(manifestToJson(m).find("blockThreads") == std::string::npos);
  m.blockThreads = 256;
  REQUIRE_MESSAGE(manifestFromJson(manifestToJson(m), r, err), err);
  CHECK(r.blockThreads == 256);
  CHECK_FALSE(manifestFromJson(R"({"entry": "e", "blockThreads": -1})", r, err));
}

TEST_CASE("case: mutated case.json never crashes and always explains a refusal") {
  const std::string base = caseJson(R"([{"buffer": "x", "offset": 4}, {"u32": 7}, {"f16": 0.5},
      {"struct": {"bytes": 16, "fields": [{"at": 8, "buffer": "out"}, {"at": 0, "s32": -1}]}}])",
                                    R"(, "outputs": [{"buffer": "out", "type": "f32"}])");
  REQUIRE(parseErr(base) == "");
  SplitMix64 rng(2024);
  const char alphabet[] = "{}[]:,\"0123456789-.eE abcxyz\\\n";
  int refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string t = base;
    int edits = 1 + (int)(rng.next() % 4);
    for (int k = 0; k < edits; ++k) {
      size_t pos = rng.next() % t.size();
      switch (rng.next() % 3) {
        case 0: t[pos] = alphabet[rng.next() % (sizeof alphabet - 1)]; break;
        case 1: t.erase(pos, 1 + rng.next() % 8); break;
        default: t.resize(pos); break;
      }
      if (t.empty()) t = "{";
    }
    CaseSpec c;
    std::string err;
    if (!parseCase(t, "/tmp/case", c, err)) {
      ++refused;
      if (err.empty()) FAIL_CHECK("refused without a message: " << t);
    }
  }
  CHECK(refused > 1000);  // most mutations break the document; all of them were explained
}
