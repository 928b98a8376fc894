// A file's entries translated on several threads (translate.cpp translateParsed, TranslateOptions::threads) give
// what one thread gives: the same entries in the file's order, the same GLSL and SPIR-V, the same messages in the
// same order.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "translate.h"

using namespace p2g;

namespace {

// `n` small kernels k0..k<n-1>; those in `bad` hold an instruction the translator refuses.
std::string module(int n, const std::vector<int>& bad) {
  std::string s = ".version 8.0\n.target sm_90\n.address_size 64\n";
  for (int k = 0; k < n; ++k) {
    std::string i = std::to_string(k);
    bool b = false;
    for (int x : bad) b = b || x == k;
    s += ".visible .entry k" + i + "(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n" +
         "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n" +
         "  add.s32 %r2, %r1, " + i + ";\n" + (b ? "  frobnicate.b32 %r3, %r2;\n" : "") +
         "  st.global.u32 [%rd2], %r2;\n  ret;\n}\n";
  }
  return s;
}

struct Run {
  bool ok = false;
  std::vector<EntryResult> res;
  std::string messages;
};

Run translate(const std::string& text, int threads) {
  ptx::SourceManager sm;
  int buf = sm.add("multi.ptx", text);
  ptx::DiagEngine d(sm);
  Run r;
  TranslateOptions opt;
  opt.threads = threads;
  r.ok = translateBuffer(sm, buf, opt, d, r.res);
  r.messages = d.formatAll();
  return r;
}

}  // namespace

TEST_CASE("entries on several threads: the same results in the file's order as on one thread") {
  std::string text = module(7, {});
  Run one = translate(text, 1), many = translate(text, 3);
  CHECK(one.ok);
  CHECK(many.ok);
  REQUIRE(one.res.size() == 7);
  REQUIRE(many.res.size() == 7);
  for (size_t k = 0; k < 7; ++k) {
    CHECK(many.res[k].name == "k" + std::to_string(k));
    CHECK(many.res[k].glsl == one.res[k].glsl);
    CHECK(many.res[k].spirv == one.res[k].spirv);
    CHECK(!many.res[k].spirv.empty());
  }
  CHECK(many.messages == one.messages);
}

TEST_CASE("entries on several threads: refused entries report in the file's order, the rest translate") {
  std::string text = module(6, {2, 4});
  Run one = translate(text, 1), many = translate(text, 4);
  CHECK_FALSE(one.ok);
  CHECK_FALSE(many.ok);
  CHECK(many.messages == one.messages);
  size_t first = many.messages.find("frobnicate"), second = many.messages.find("frobnicate", first + 1);
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  // k2's line is named before k4's
  std::vector<std::string> at;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 10, "frobnicate") == 0) at.push_back("multi.ptx:" + std::to_string(line) + ":");
    line += text[i] == '\n';
  }
  REQUIRE(at.size() == 2);
  CHECK(many.messages.find(at[0]) < many.messages.find(at[1]));
  CHECK(many.messages.find(at[1]) != std::string::npos);
  CHECK(many.res.size() == one.res.size());
  for (size_t k = 0; k < many.res.size() && k < one.res.size(); ++k) CHECK(many.res[k].name == one.res[k].name);
}
