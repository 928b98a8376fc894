// passes/pair_sust: which neighbouring 16-bit surface stores become one pair store (p2g_sust2), and which must not
// (something between them that reads or orders surface memory, or changes what the first store reads). The bytes
// of a pair on a device: ptx_corpus/tex/surf_pair and surf_pair_modes, against expected/ from NVIDIA.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "translate.h"

using namespace p2g;

namespace {

// A kernel storing %rs1 at byte x = 4 * tid and %rs2 at x | 2 of row 0, with `between` between the two stores and
// `second` as the second store (default: the neighbour of the first).
std::string kernel(const std::string& between, const std::string& second = "") {
  return ".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 s, .param .u64 g)\n{\n"
         "  .reg .pred %p<2>;\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
         "  ld.param.u64 %rd1, [s];\n  ld.param.u64 %rd2, [g];\n  cvta.to.global.u64 %rd3, %rd2;\n"
         "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, 0;\n  mov.u32 %r5, 1;\n"
         "  cvt.u16.u32 %rs1, %r1;\n  add.s16 %rs2, %rs1, 7;\n"
         "  sust.b.2d.b16.zero [%rd1, {%r2, %r3}], {%rs1};\n" +
         between + "  or.b32 %r4, %r2, 2;\n" +
         (second.empty() ? "  sust.b.2d.b16.zero [%rd1, {%r4, %r3}], {%rs2};\n" : second) + "  ret;\n}\n";
}

struct Out {
  bool ok = false;
  std::string glsl, messages;
};

Out translate(const std::string& text, bool disable = false) {
  ptx::SourceManager sm;
  int buf = sm.add("pair.ptx", text);
  ptx::DiagEngine d(sm);
  TranslateOptions opt;
  opt.spirv = true;
  opt.threads = 1;
  if (disable) opt.pipeline.disabled = {"pair_sust"};
  std::vector<EntryResult> res;
  Out o;
  o.ok = translateBuffer(sm, buf, opt, d, res);
  o.messages = d.formatAll();
  if (o.ok && !res.empty()) o.glsl = res[0].glsl;
  return o;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// calls in main() (the helpers above it also call p2g_sust)
std::string mainOf(const std::string& glsl) {
  size_t p = glsl.find("\nvoid main()");
  return p == std::string::npos ? "" : glsl.substr(p);
}

}  // namespace

TEST_CASE("neighbouring 16-bit surface stores become one pair store; SPIR-V compiles") {
  Out o = translate(kernel(""));
  REQUIRE_MESSAGE(o.ok, o.messages);
  std::string m = mainOf(o.glsl);
  CHECK(count(m, "p2g_sust2(") == 1);
  CHECK(count(m, "p2g_sust(") == 0);
  // both PTX lines stay annotated at the pair
  CHECK(count(m, "// ptx:") > 0);
  CHECK(count(m, "sust.b.2d.b16.zero \t[%rd1, {%r2, %r3}]") + count(m, "sust.b.2d.b16.zero [%rd1, {%r2, %r3}]") == 1);
}

TEST_CASE("global and shared memory between the stores do not stop the pairing") {
  Out o = translate(kernel("  st.global.u32 [%rd3], %r1;\n  ld.global.u32 %r6, [%rd3+4];\n"));
  REQUIRE_MESSAGE(o.ok, o.messages);
  CHECK(count(mainOf(o.glsl), "p2g_sust2(") == 1);
}

TEST_CASE("what stops the pairing") {
  const char* between[] = {
      "  suld.b.2d.b16.zero {%rs3}, [%rd1, {%r2, %r3}];\n",  // a surface load could read the first texel
      "  bar.sync 0;\n",                                       // the first store must be visible after the barrier
      "  membar.gl;\n",
      "  atom.global.add.u32 %r6, [%rd3], 1;\n",
      "  sust.b.2d.b16.zero [%rd1, {%r2, %r5}], {%rs1};\n",      // another surface store
      "  add.s16 %rs1, %rs1, 1;\n",                             // the first store's value changes
      "  add.s32 %r3, %r3, 0;\n",                               // its y changes
      "  mov.b64 %rd1, %rd2;\n",                                // its handle changes
  };
  for (const char* b : between) {
    CAPTURE(b);
    Out o = translate(kernel(b));
    REQUIRE_MESSAGE(o.ok, o.messages);
    std::string m = mainOf(o.glsl);
    CHECK(count(m, "p2g_sust2(") == 0);
    CHECK(count(m, "p2g_sust(") >= 2);
  }
}

TEST_CASE("stores that are not neighbours of one row stay apart") {
  const char* second[] = {
      "  sust.b.2d.b16.zero [%rd1, {%r4, %r5}], {%rs2};\n",      // another row
      "  sust.b.2d.b16.clamp [%rd1, {%r4, %r3}], {%rs2};\n",     // another mode
      "  sust.b.2d.b16.zero [%rd1, {%r2, %r3}], {%rs2};\n",      // the same texel
      "  add.s32 %r6, %r2, 4;\n  sust.b.2d.b16.zero [%rd1, {%r6, %r3}], {%rs2};\n",  // 4 bytes on
      "  sust.b.2d.b32.zero [%rd1, {%r4, %r3}], {%r1};\n",       // another width
  };
  for (const char* s : second) {
    CAPTURE(s);
    Out o = translate(kernel("", s));
    REQUIRE_MESSAGE(o.ok, o.messages);
    CHECK(count(mainOf(o.glsl), "p2g_sust2(") == 0);
  }
}

TEST_CASE("--disable-pass pair_sust keeps the two stores") {
  Out o = translate(kernel(""), true);
  REQUIRE_MESSAGE(o.ok, o.messages);
  std::string m = mainOf(o.glsl);
  CHECK(count(m, "p2g_sust2(") == 0);
  CHECK(count(m, "p2g_sust(") == 2);
}
