// Textures and surfaces: where handles come from (manifest `images`), refusals with their line, the address modes
// of the generated code, and a point-sampled case on lavapipe compared with a CPU model of CUDA's rules.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "case.h"
#include "images.h"
#include "inputs.h"
#include "run.h"
#include "translate.h"

using namespace p2g;
namespace fs = std::filesystem;

namespace {

struct Translated {
  bool ok = false;
  std::string diags;
  std::vector<EntryResult> res;
};

Translated translatePtx(const std::string& text) {
  ptx::SourceManager sm;
  int buf = sm.add("test.ptx", text);
  ptx::DiagEngine diags(sm);
  Translated t;
  TranslateOptions opt;
  t.ok = translateBuffer(sm, buf, opt, diags, t.res);
  t.diags = diags.formatAll();
  return t;
}

const char* kHeader = ".version 8.7\n.target sm_90\n.address_size 64\n";

TranslateFn translateFn() {
  return [](const std::string& path, const std::string& entry, TranslatedKernel& out, std::string& diagText) {
    ptx::SourceManager sm;
    std::string err;
    int buf = sm.addFile(path, err);
    if (buf < 0) {
      diagText = err;
      return false;
    }
    ptx::DiagEngine diags(sm);
    TranslateOptions opt;
    opt.entry = entry;
    std::vector<EntryResult> res;
    bool ok = translateBuffer(sm, buf, opt, diags, res);
    diagText = diags.formatAll();
    if (!ok || res.empty()) return false;
    out.manifest = res[0].manifest;
    out.spirv = res[0].spirv;
    return true;
  };
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::string s;
  REQUIRE(readFile(path, s));
  return std::vector<uint8_t>(s.begin(), s.end());
}

float f32At(const std::vector<uint8_t>& b, size_t i) {
  float f;
  std::memcpy(&f, b.data() + 4 * i, 4);
  return f;
}

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST_CASE("handles: parameters, struct fields, vector loads and address arithmetic") {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_t, .param .align 8 .b8 k_p[64], .param .u64 k_out)
{
  .reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<12>; .reg .b16 %rs<4>;
  ld.param.u64 %rd1, [k_t];
  ld.param.v2.u64 {%rd2, %rd3}, [k_p+16];
  mov.u64 %rd4, k_p;
  add.s64 %rd5, %rd4, 40;
  ld.param.u64 %rd6, [%rd5+8];
  mov.b64 %rd7, %rd6;
  mov.f32 %f1, 0f3F000000;
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1}];
  tld4.r.2d.v4.f32.f32 {%f6, %f7, %f8, %f9}, [%rd3, {%f1, %f1}];
  txq.width.b32 %r1, [%rd2];
  mov.u32 %r2, 0;
  suld.b.2d.b32.zero {%r3}, [%rd7, {%r2, %r2}];
  sust.b.2d.b32.trap [%rd7, {%r2, %r2}], {%r3};
  ret;
}
)";
  Translated t = translatePtx(ptx);
  INFO(t.diags);
  REQUIRE(t.ok);
  const auto& im = t.res[0].manifest.images;
  REQUIRE(im.size() == 4);
  // Sorted by parameter-block offset: k_t at 0, k_p at 8 (+16, +24, +48).
  CHECK(im[0].kind == "texture");
  CHECK(im[0].offset == 0);
  CHECK(im[0].param == "k_t");
  CHECK(im[0].uses == std::vector<std::string>{"tex.2d.v4.f32.f32"});
  CHECK(im[1].offset == 8 + 16);
  CHECK(im[1].uses == std::vector<std::string>{"txq.width.b32"});
  CHECK(im[2].offset == 8 + 24);
  CHECK(im[2].uses == std::vector<std::string>{"tld4.r.2d.v4.f32.f32"});
  CHECK(im[3].kind == "surface");
  CHECK(im[3].offset == 8 + 48);
  CHECK(im[3].param == "k_p");
  CHECK(im[3].uses.size() == 2);
  for (size_t i = 0; i < im.size(); ++i) CHECK(im[i].slot == i);
  // The map survives the manifest's JSON round trip.
  Manifest back;
  std::string err;
  REQUIRE(manifestFromJson(manifestToJson(t.res[0].manifest), back, err));
  REQUIRE(back.images.size() == 4);
  CHECK(back.images[3].offset == 56);
  CHECK(back.images[2].uses[0] == "tld4.r.2d.v4.f32.f32");
}

TEST_CASE("handles: one that does not come from a parameter is refused at its line") {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_tab)
{
  .reg .f32 %f<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_tab];
  ld.global.u64 %rd2, [%rd1];
  mov.f32 %f1, 0f00000000;
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd2, {%f1, %f1}];
  ret;
}
)";
  Translated t = translatePtx(ptx);
  CHECK_FALSE(t.ok);
  CHECK(t.diags.find("test.ptx:11:3: error: cannot tell which kernel parameter holds the texture handle") !=
        std::string::npos);
  CHECK(t.diags.find("ld.global.u64") != std::string::npos);

  // The same parameter used as a texture and as a surface is a contradiction.
  std::string both = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_h)
{
  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_h];
  mov.f32 %f1, 0f00000000;
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1}];
  mov.u32 %r1, 0;
  sust.b.2d.b32.trap [%rd1, {%r1, %r1}], {%r1};
  ret;
}
)";
  t = translatePtx(both);
  CHECK_FALSE(t.ok);
  CHECK(t.diags.find("used as a surface here and as a texture elsewhere") != std::string::npos);

  // Forms with no lowering say so instead of emitting something wrong.
  std::string cube = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_h)
{
  .reg .f32 %f<8>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_h];
  mov.f32 %f1, 0f00000000;
  tex.cube.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1, %f1, %f1}];
  ret;
}
)";
  t = translatePtx(cube);
  CHECK_FALSE(t.ok);
  CHECK(t.diags.find("unsupported modifier '.cube' of 'tex'") != std::string::npos);
}

TEST_CASE("texture reads between f32 operations stay inside one guarded region") {
  // A 2D texture the device may sample (manifest.h deviceSampled) is read through its sampler p2g_hw<slot>, a
  // global of the module. The region pass must know that name (emitter.cpp typeOf): an unknown one makes it leave
  // the whole run to one guard per operation, as it did for K's 647-line run and bench/tex_heavy's loop body
  // until 2026-12-07 (210 and 85 guarded operations in main()).
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_tex, .param .u64 k_out, .param .f32 k_s)
{
  .reg .f32 %f<16>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_tex];
  ld.param.u64 %rd2, [k_out];
  ld.param.f32 %f1, [k_s];
  mul.f32 %f2, %f1, %f1;
  add.f32 %f3, %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f3, %f2}];
  mul.f32 %f8, %f4, %f1;
  fma.rn.f32 %f9, %f5, %f2, %f8;
  add.f32 %f10, %f9, %f6;
  st.global.f32 [%rd2], %f10;
  st.global.f32 [%rd2+4], %f10;
  ret;
}
)";
  Translated t = translatePtx(ptx);
  REQUIRE(t.ok);
  REQUIRE(t.res.size() == 1);
  const std::string& g = t.res[0].glsl;
  size_t mainAt = g.find("\nvoid main()");
  REQUIRE(mainAt != std::string::npos);
  std::string body = g.substr(mainAt);
  CHECK(body.find("p2g_tex2_first(p2g_hw0") != std::string::npos);  // the first pass's form (test below)
  CHECK(body.find("if (p2g_redo()) p2g_check_1(") != std::string::npos);
  // no operation of the run left to its own guard (the exact forms end in ", false)")
  CHECK(body.find(", false)") == std::string::npos);
}

TEST_CASE("a guarded region reads textures through the device's sampler only, or asks for the replay") {
  // A region's first pass (main()) and its check (p2g_check_<n>, region_guard.cpp) read textures with the forms
  // p2g_tex2_first / p2g_tex2_chk ..., which hold no software filter: lavapipe's compiler inlined one per read
  // before it folded the dead pass away. A slot the device does not sample gives zeros and fails the pass's test
  // (p2g_u = 0, p2g_m = 0), so the exact replay reads it. On lavapipe with the fact f32-fast forced both passes are
  // live and the slot is not device-sampled: the output must be the emulated run's, for s = 0.75 (the first
  // pass's test would pass: only the texture asks for the replay) and s = 2^-50 (an entering value below 2^-40
  // and an exact zero result, s - s, fail the first pass; the check lets both through, s * s = 2^-100 being
  // normal: only the texture asks for the replay).
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 k_tex, .param .u64 k_out, .param .f32 k_s)
{
  .reg .f32 %f<16>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_tex];
  ld.param.u64 %rd2, [k_out];
  ld.param.f32 %f1, [k_s];
  mul.f32 %f2, %f1, %f1;
  add.f32 %f3, %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f3, %f2}];
  mul.f32 %f8, %f4, %f1;
  add.f32 %f9, %f5, %f8;
  add.f32 %f10, %f9, %f6;
  sub.f32 %f11, %f1, %f1;
  add.f32 %f12, %f10, %f11;
  st.global.f32 [%rd2], %f12;
  st.global.f32 [%rd2+4], %f2;
  ret;
}
)";
  Translated t = translatePtx(ptx);
  REQUIRE(t.ok);
  REQUIRE(t.res.size() == 1);
  const std::string& g = t.res[0].glsl;
  size_t checkAt = g.find("void p2g_check_1("), mainAt = g.find("\nvoid main()");
  REQUIRE(checkAt != std::string::npos);
  REQUIRE(mainAt != std::string::npos);
  std::string check = g.substr(checkAt, g.find("\n}\n", checkAt) - checkAt);
  CHECK(check.find("p2g_tex2_chk(p2g_hw0") != std::string::npos);
  CHECK(check.find("p2g_tex2(") == std::string::npos);
  std::string body = g.substr(mainAt);
  CHECK(body.find("p2g_tex2_first(p2g_hw0") != std::string::npos);
  CHECK(body.find("p2g_tex2(") == std::string::npos);

  fs::path dir = fs::temp_directory_path() / "p2g_tex_check_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "inputs");
  std::ofstream(dir / "kernel.ptx") << ptx;
  std::vector<float> texels = {1.5f, 2.25f, 3.125f, 4.0f, 5.5f, 6.75f, 7.0f, 8.5f};  // 2x1 rgba32f
  std::ofstream(dir / "inputs" / "t.bin", std::ios::binary).write((const char*)texels.data(), 32);
  for (const char* sv : {"0.75", "8.881784197001252e-16"}) {
    std::string param = sv;
    CAPTURE(param);
    std::ofstream(dir / "case.json") << R"({"kernel": "k", "grid": [1,1,1], "block": [1,1,1],
      "textures": {"t": {"format": "rgba32f", "width": 2, "height": 1, "filter": "linear", "address": "clamp",
                         "normalized": true, "init": {"file": "inputs/t.bin"}}},
      "buffers": {"out": {"bytes": 8}},
      "params": [{"texture": "t"}, {"buffer": "out"}, {"f32": )" << sv << "}]}";
    std::vector<uint8_t> got[2];
    for (int forced = 0; forced < 2; ++forced) {
      fs::path outDir = dir / ("out" + std::to_string(forced));
      fs::remove_all(outDir);
      RunOptions opt;
      opt.outDir = outDir.string();
      if (forced) opt.forcedFacts = {"f32-fast"};
      std::ostringstream log;
      opt.log = &log;
      runCases({dir.string()}, opt, translateFn());
      INFO(log.str());
      got[forced] = readBytes((outDir / dir.filename() / "out.bin").string());
      REQUIRE(got[forced].size() == 8);
    }
    // the texels' sum (zeros taken from a pass that read no texture would give about 0)
    CHECK(f32At(got[0], 0) > 1.0f);
    CHECK(got[1] == got[0]);
  }
  fs::remove_all(dir);
}

TEST_CASE("images: case validation and descriptor records") {
  ImageSpec s;
  s.name = "t";
  s.format = "rgba16f";
  s.width = 13;
  s.height = 7;
  s.filter = "linear";
  s.address = "wrap";
  s.normalized = false;
  std::string err;
  CHECK_FALSE(checkImageSpec(s, true, "textures.t", err));
  CHECK(err.find("normalized") != std::string::npos);
  s.normalized = true;
  CHECK(checkImageSpec(s, true, "textures.t", err));
  s.format = "r32ui";
  CHECK_FALSE(checkImageSpec(s, true, "textures.t", err));
  CHECK(err.find("linear filtering needs a float or unorm format") != std::string::npos);
  s.format = "rgba16f";
  s.filter = "cubic";
  CHECK_FALSE(checkImageSpec(s, true, "textures.t", err));
  s.filter = "point";
  std::vector<uint8_t> r = imageRecord(s, false, 0x1234567890ull);
  REQUIRE(r.size() == kImageRecordBytes);
  uint64_t addr;
  uint32_t w[16];
  std::memcpy(&addr, r.data(), 8);
  std::memcpy(w, r.data(), 64);
  CHECK(addr == 0x1234567890ull);
  CHECK(w[2] == 13);                           // width
  CHECK(w[3] == 7);                            // height
  CHECK(w[4] == 1);                            // depth of a 2D image
  CHECK(w[5] == (uint32_t)TexFormat::RGBA16F);
  CHECK(w[6] == 8);                            // texel bytes
  CHECK(w[7] == 13 * 8);                       // row pitch
  CHECK(w[10] == (uint32_t)TexAddress::Wrap);  // CUaddress_mode numbering
  CHECK(w[13] == 1);                           // normalized
  CHECK(w[14] == (2u << 8));                   // 2 dimensions, not layered, texture
}

// The image state (images.h imageState): made from the record's words, it holds each of them unchanged in its field.
TEST_CASE("images: the image state of every format, filter, address mode and layout") {
  const char* formats[] = {"r8", "rg8", "rgba8", "r16f", "rg16f", "rgba16f", "r32f", "rg32f", "rgba32f", "r32ui",
                           "r11g11b10f"};
  int n = 0;
  for (const char* f : formats)
    for (const char* filter : {"point", "linear"})
      for (const char* address : {"clamp", "wrap", "mirror", "border"})
        for (int layout = 0; layout < 4; ++layout)  // 2D, 1D, layered 2D, 3D
          for (bool surface : {false, true}) {
            ImageSpec s;
            s.format = f;
            s.width = 5;
            s.height = layout == 1 ? 1 : 3;
            s.dims = layout == 1 ? 1 : layout == 3 ? 3 : 2;
            s.depth = layout >= 2 ? 4 : 0;
            s.layered = layout == 2;
            s.filter = filter;
            s.address = address;
            s.normalized = std::string(address) == "wrap" || std::string(address) == "mirror";
            std::string err;
            if (!checkImageSpec(s, !surface, "t", err)) continue;
            std::vector<uint8_t> r = imageRecord(s, surface, 0x1000);
            uint32_t w[16];
            std::memcpy(w, r.data(), 64);
            uint32_t st = imageState(r);
            CAPTURE(f);
            CAPTURE(filter);
            CAPTURE(address);
            CAPTURE(layout);
            REQUIRE((st >> 31) == 1u);
            CHECK((st & 15u) == w[5]);                     // format
            CHECK(((st >> 4) & 7u) == w[15]);              // channels
            CHECK(((st >> 8) & 7u) * w[15] == w[6]);       // bytes per channel x channels = texel bytes
            CHECK(((st >> 12) & 1u) == w[9]);              // filter
            CHECK(((st >> 13) & 3u) == w[10]);             // address modes
            CHECK(((st >> 15) & 3u) == w[11]);
            CHECK(((st >> 17) & 3u) == w[12]);
            CHECK(((st >> 19) & 1u) == w[13]);             // normalized
            CHECK(((st >> 20) & 0x3FFu) == w[14]);         // flags
            ++n;
          }
  CHECK(n > 300);
  // a record the state cannot hold stays unknown (0): the shader then reads the record
  ImageSpec s;
  s.format = "r8";
  s.width = s.height = 2;
  std::vector<uint8_t> r = imageRecord(s, false, 0);
  r[20] = 16;  // a format code above 15
  CHECK(imageState(r) == 0u);
  CHECK(imageState(std::vector<uint8_t>(32, 0)) == 0u);
}

// The shader's decoding of the image state (tex_prelude.cpp p2g_img_state) against the record: a kernel reads every
// attribute txq can report and one texel of each image, once with the states set (the default) and once with
// PTX2GLSL_NO_IMAGE_STATE=1 (every field from the record); both runs give the same bytes, and the attributes are
// the case's.
TEST_CASE("image states on lavapipe: the same values as the records") {
  fs::path dir = fs::temp_directory_path() / "p2g_tex_state_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "inputs");
  std::string ptx = std::string(kHeader) + R"(
.visible .entry st(.param .u64 s_t, .param .u64 s_out)
{
  .reg .b32 %r<24>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [s_t];
  ld.param.u64 %rd2, [s_out];
  txq.normalized_coords.b32 %r1, [%rd1];
  txq.filter_mode.b32 %r2, [%rd1];
  txq.addr_mode_0.b32 %r3, [%rd1];
  txq.addr_mode_1.b32 %r4, [%rd1];
  txq.addr_mode_2.b32 %r5, [%rd1];
  txq.depth.b32 %r6, [%rd1];
  txq.array_size.b32 %r7, [%rd1];
  txq.width.b32 %r8, [%rd1];
  mov.u32 %r9, 1;
  mov.u32 %r10, 0;
  tex.2d.v4.u32.s32 {%r11, %r12, %r13, %r14}, [%rd1, {%r9, %r10}];
  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd2+32], {%r11, %r12, %r13, %r14};
  ret;
}
)";
  std::ofstream(dir / "kernel.ptx") << ptx;
  struct Variant {
    const char *format, *filter, *address;
    bool normalized;
  };
  const Variant vs[] = {{"r8", "point", "clamp", false},   {"rg16f", "linear", "border", false},
                        {"rgba8", "linear", "wrap", true},  {"rgba32f", "point", "mirror", true},
                        {"r32ui", "point", "border", true}, {"rgba16f", "linear", "clamp", true}};
  for (const Variant& v : vs) {
    CAPTURE(v.format);
    TexFormat f;
    REQUIRE(parseTexFormat(v.format, f));
    std::vector<uint8_t> texels(12 * texelBytes(f));
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 37 + 11);
    std::ofstream(dir / "inputs" / "t.bin", std::ios::binary).write((const char*)texels.data(), long(texels.size()));
    std::ostringstream cj;
    cj << R"({"kernel": "st", "grid": [1,1,1], "block": [1,1,1],
      "textures": {"t": {"format": ")" << v.format << R"(", "width": 4, "height": 3, "filter": ")" << v.filter
       << R"(", "address": ")" << v.address << R"(", "normalized": )" << (v.normalized ? "true" : "false")
       << R"(, "init": {"file": "inputs/t.bin"}}},
      "buffers": {"out": {"bytes": 48}},
      "params": [{"texture": "t"}, {"buffer": "out"}]})";
    std::ofstream(dir / "case.json") << cj.str();
    std::vector<uint8_t> got[2];
    for (int known = 0; known < 2; ++known) {
      if (known) unsetenv("PTX2GLSL_NO_IMAGE_STATE");
      else setenv("PTX2GLSL_NO_IMAGE_STATE", "1", 1);
      fs::path outDir = dir / ("out" + std::to_string(known));
      RunOptions opt;
      opt.outDir = outDir.string();
      std::ostringstream log;
      opt.log = &log;
      runCases({dir.string()}, opt, translateFn());
      INFO(log.str());
      got[known] = readBytes((outDir / dir.filename() / "out.bin").string());
      REQUIRE(got[known].size() == 48);
    }
    unsetenv("PTX2GLSL_NO_IMAGE_STATE");
    CHECK(got[0] == got[1]);
    uint32_t w[12];
    std::memcpy(w, got[1].data(), 48);
    std::string a = v.address;
    uint32_t mode = a == "wrap" ? 0u : a == "mirror" ? 1u : a == "clamp" ? 3u : 4u;  // PTX's numbering
    CHECK(w[0] == (v.normalized ? 1u : 0u));
    CHECK(w[1] == (std::string(v.filter) == "linear" ? 1u : 0u));
    CHECK(w[2] == mode);
    CHECK(w[3] == mode);
    CHECK(w[4] == mode);
    CHECK(w[5] == 0u);  // depth of a 2D texture (measured on the H200: tex/txq_dims)
    CHECK(w[6] == 1u);
    CHECK(w[7] == 4u);
  }
  fs::remove_all(dir);
}

// CUDA's address modes on integer texel indices (programming guide, "Texture Memory").
static int cudaAddress(int i, int n, TexAddress m) {
  switch (m) {
    case TexAddress::Wrap: return ((i % n) + n) % n;
    case TexAddress::Mirror: {
      int p = ((i % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
    }
    case TexAddress::Border: return i < 0 || i >= n ? -1 : i;
    case TexAddress::Clamp: return std::min(std::max(i, 0), n - 1);
  }
  return -1;
}

// A case written by the test in a temporary folder: a 1D r32f texture of 5 texels holding 10, 11, ..., sampled at
// the centres of texels -20..20 with normalized coordinates, under each address mode.
TEST_CASE("address modes of the generated code on lavapipe") {
  fs::path dir = fs::temp_directory_path() / "p2g_tex_address_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "inputs");
  std::string ptx = std::string(kHeader) + R"(
.visible .entry addr(.param .u64 a_t, .param .u64 a_out)
{
  .reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a_t];
  ld.param.u64 %rd2, [a_out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0fC1A00000;
  add.f32 %f3, %f2, 0f3F000000;
  div.rn.f32 %f4, %f3, 0f40A00000;
  tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f4}];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f5;
  ret;
}
)";
  std::ofstream(dir / "kernel.ptx") << ptx;
  std::vector<float> texels = {10, 11, 12, 13, 14};
  std::ofstream(dir / "inputs" / "t.bin", std::ios::binary).write((const char*)texels.data(), 20);
  for (TexAddress mode : {TexAddress::Clamp, TexAddress::Wrap, TexAddress::Mirror, TexAddress::Border}) {
    const char* names[] = {"wrap", "clamp", "mirror", "border"};
    std::string name = names[(int)mode];
    CAPTURE(name);
    std::ostringstream cj;
    cj << R"({"kernel": "addr", "grid": [1,1,1], "block": [41,1,1],
      "textures": {"t": {"format": "r32f", "width": 5, "height": 1, "dims": 1, "filter": "point", "address": ")"
       << name << R"(", "normalized": true, "init": {"file": "inputs/t.bin"}}},
      "buffers": {"out": {"bytes": 164}},
      "params": [{"texture": "t"}, {"buffer": "out"}]})";
    std::ofstream(dir / "case.json") << cj.str();
    fs::path outDir = dir / "out";
    RunOptions opt;
    opt.outDir = outDir.string();
    std::ostringstream log;
    opt.log = &log;
    runCases({dir.string()}, opt, translateFn());  // no expected/: the comparison is below
    INFO(log.str());
    std::vector<uint8_t> got = readBytes((outDir / dir.filename() / "out.bin").string());
    REQUIRE(got.size() == 164);
    for (int k = 0; k < 41; ++k) {
      int idx = cudaAddress(k - 20, 5, mode);
      float want = idx < 0 ? 0.0f : texels[idx];
      CAPTURE(k);
      CHECK(f32At(got, k) == want);
    }
  }
  fs::remove_all(dir);
}

// Every 8-bit unorm value reads as the correctly rounded float(b) / 255.0f (the shader computes it in integer code).
TEST_CASE("unorm8 decoding on lavapipe: all 256 values") {
  fs::path dir = fs::temp_directory_path() / "p2g_tex_unorm8_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "inputs");
  std::string ptx = std::string(kHeader) + R"(
.visible .entry u8(.param .u64 u_t, .param .u64 u_out)
{
  .reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [u_t];
  ld.param.u64 %rd2, [u_out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0f3F000000;
  tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2}];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f5;
  ret;
}
)";
  std::ofstream(dir / "kernel.ptx") << ptx;
  std::vector<uint8_t> texels(256);
  for (int b = 0; b < 256; ++b) texels[b] = uint8_t(b);
  std::ofstream(dir / "inputs" / "t.bin", std::ios::binary).write((const char*)texels.data(), 256);
  std::ofstream(dir / "case.json") << R"({"kernel": "u8", "grid": [1,1,1], "block": [256,1,1],
    "textures": {"t": {"format": "r8", "width": 256, "height": 1, "dims": 1, "init": {"file": "inputs/t.bin"}}},
    "buffers": {"out": {"bytes": 1024}}, "params": [{"texture": "t"}, {"buffer": "out"}]})";
  RunOptions opt;
  opt.outDir = (dir / "out").string();
  std::ostringstream log;
  opt.log = &log;
  runCases({dir.string()}, opt, translateFn());
  INFO(log.str());
  std::vector<uint8_t> got = readBytes((dir / "out" / dir.filename() / "out.bin").string());
  REQUIRE(got.size() == 1024);
  int differ = 0;
  for (int b = 0; b < 256; ++b) differ += bitsOf(f32At(got, b)) != bitsOf(float(b) / 255.0f);
  CHECK(differ == 0);
  fs::remove_all(dir);
}

// Linear filtering of an 8-bit unorm texture returns the 16-bit unorm u = S + round(S / 256) (ties up) of the
// integer sum S = sum w * byte, as the correctly rounded f32 of u / 65535 (measured on the H200:
// ptx_corpus/tex/tex2d_linear, docs/TEXTURES.md). Texel b holds b, and x = b + 0.5 + a / 256 gives the footprint
// (b, b + 1) with weights (256 - a, a), so S = 256 b + a: thread i samples S = i, every sum from 0 to 65279.
TEST_CASE("unorm8 linear filtering on lavapipe: every 16-bit sum") {
  fs::path dir = fs::temp_directory_path() / "p2g_tex_unorm8_lin_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "inputs");
  std::string ptx = std::string(kHeader) + R"(
.visible .entry u8lin(.param .u64 u_t, .param .u64 u_out)
{
  .reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [u_t];
  ld.param.u64 %rd2, [u_out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  shl.b32 %r3, %r2, 8;
  add.s32 %r4, %r3, %r1;
  cvt.rn.f32.u32 %f1, %r4;
  fma.rn.f32 %f2, %f1, 0f3B800000, 0f3F000000;
  tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2}];
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f5;
  ret;
}
)";
  std::ofstream(dir / "kernel.ptx") << ptx;
  std::vector<uint8_t> texels(256);
  for (int b = 0; b < 256; ++b) texels[b] = uint8_t(b);
  std::ofstream(dir / "inputs" / "t.bin", std::ios::binary).write((const char*)texels.data(), 256);
  std::ofstream(dir / "case.json") << R"({"kernel": "u8lin", "grid": [255,1,1], "block": [256,1,1],
    "textures": {"t": {"format": "r8", "width": 256, "height": 1, "dims": 1, "filter": "linear",
                       "init": {"file": "inputs/t.bin"}}},
    "buffers": {"out": {"bytes": 261120}}, "params": [{"texture": "t"}, {"buffer": "out"}]})";
  RunOptions opt;
  opt.outDir = (dir / "out").string();
  std::ostringstream log;
  opt.log = &log;
  runCases({dir.string()}, opt, translateFn());
  INFO(log.str());
  std::vector<uint8_t> got = readBytes((dir / "out" / dir.filename() / "out.bin").string());
  REQUIRE(got.size() == 261120);
  int differ = 0;
  for (int i = 0; i < 65280; ++i) {
    int u = i + ((i + 128) >> 8);
    // u / 65535 is never a tie of f32 rounding, nor close enough to one for the double rounding to matter
    float want = float(double(u) / 65535.0);
    if (bitsOf(f32At(got, i)) != bitsOf(want) && differ++ < 5) MESSAGE("S=" << i << " got " << f32At(got, i) << " want " << want);
  }
  CHECK(differ == 0);
  fs::remove_all(dir);
}

// CPU model of point sampling as measured on the H200 (docs/TEXTURES.md, "Measured"): the f32 coordinate, denormals
// flushed to zero, is rounded down to fixed point with 20 fractional bits and only then scaled by the size
// (normalized coordinates), exactly; the texel is the integer part. Channels the format lacks read as 0, alpha too.
// The model mirrors the rule independently of the GLSL; the corpus case checks both against NVIDIA's bytes.
struct ModelTex {
  ImageSpec spec;
  std::vector<uint8_t> bytes;
  uint32_t fetch(int x, int y, int c) const {
    TexFormat f;
    parseTexFormat(spec.format, f);
    const FormatInfo& info = formatInfo(f);
    if ((uint32_t)c >= info.channels) return 0;
    size_t off = ((size_t)y * spec.width + x) * texelBytes(f) + c * info.channelBytes;
    if (info.channelBytes == 1) return bitsOf(float(bytes[off]) / 255.0f);
    if (info.channelBytes == 2) return bitsOf(float(halfToDouble(uint16_t(bytes[off] | bytes[off + 1] << 8))));
    uint32_t u;
    std::memcpy(&u, bytes.data() + off, 4);
    return u;
  }
  uint32_t sample(float x, float y, int c) const {
    TexAddress m;
    parseTexAddress(spec.address, m);
    auto texel = [&](float a, uint32_t n) {
      double d = std::fabs(a) < 1.17549435e-38f ? 0.0 : std::clamp((double)a, -4194304.0, 4194304.0);
      int64_t fix = (int64_t)std::floor(d * 1048576.0);
      return (int)((spec.normalized ? fix * (int64_t)n : fix) >> 20);
    };
    int ix = cudaAddress(texel(x, spec.width), spec.width, m), iy = cudaAddress(texel(y, spec.height), spec.height, m);
    if (ix < 0 || iy < 0) return 0;
    return fetch(ix, iy, c);
  }
};

TEST_CASE("tex2d_point on lavapipe equals the CPU model of point sampling") {
  std::string caseDir = std::string(P2G_SOURCE_DIR) + "/ptx_corpus/tex/tex2d_point";
  CaseSpec c;
  std::string err;
  REQUIRE_MESSAGE(loadCase(caseDir, c, err), err);
  fs::path outDir = fs::temp_directory_path() / "p2g_tex_point_test";
  fs::remove_all(outDir);
  RunOptions opt;
  opt.outDir = outDir.string();
  std::ostringstream log;
  opt.log = &log;
  runCases({caseDir}, opt, translateFn());
  INFO(log.str());
  std::vector<uint8_t> got = readBytes((outDir / "tex2d_point" / "out.bin").string());
  std::vector<ModelTex> tex(c.textures.size());
  for (size_t i = 0; i < tex.size(); ++i) {
    tex[i].spec = c.textures[i];
    REQUIRE(generateInit(c.textures[i].init, imageBytes(c.textures[i]), c.dir, "t", tex[i].bytes, err));
  }
  std::vector<uint8_t> xy = readBytes(caseDir + "/inputs/xy.bin"), uv = readBytes(caseDir + "/inputs/uv.bin");
  int n = 2048, differ = 0;
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < 5; ++t) {
      const std::vector<uint8_t>& coords = t == 0 ? xy : uv;  // texture 0 takes unnormalized coordinates
      float x = f32At(coords, 2 * i), y = f32At(coords, 2 * i + 1);
      for (int ch = 0; ch < 4; ++ch) {
        uint32_t want = tex[t].sample(x, y, ch), have = bitsOf(f32At(got, (size_t)(i * 5 + t) * 4 + ch));
        if (want != have && ++differ <= 5)
          MESSAGE("thread " << i << " texture " << c.textures[t].name << " channel " << ch << " at (" << x << ", " << y
                            << "): got " << std::hex << have << " want " << want << std::dec);
      }
    }
  CHECK(differ == 0);
  fs::remove_all(outDir);
}
