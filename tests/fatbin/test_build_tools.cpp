// Unit tests of the build tools' pieces: the Myers line diff (against a dynamic-programming LCS on random texts),
// the unified diff's hunks, the GLSL line-number normalisation, and the fatbin container parser on containers
// written here byte by byte from the layout in translator/fatbin/fatbin.h.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "batch.h"
#include "fatbin.h"
#include "textdiff.h"

using namespace p2g;

namespace {

size_t lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

std::vector<std::string> randomLines(std::mt19937& rng, size_t maxLen, int alphabet) {
  std::vector<std::string> v(rng() % (maxLen + 1));
  for (auto& s : v) s = std::string(1, char('a' + rng() % unsigned(alphabet)));
  return v;
}

void put(std::string& b, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b.push_back(char((v >> (8 * i)) & 0xff));
}

// A container holding one uncompressed PTX entry with `text` (NUL-padded to 8 bytes).
std::string ptxContainer(const std::string& text, uint32_t arch) {
  std::string payload = text + '\0';
  while (payload.size() % 8) payload.push_back('\0');
  std::string e;
  put(e, 1, 2);       // kind PTX
  put(e, 0x0101, 2);
  put(e, 64, 4);      // header size
  put(e, payload.size(), 8);
  put(e, 0, 4);       // not compressed
  put(e, 0, 4);       // no options
  put(e, 0, 2);       // minor
  put(e, 9, 2);       // major
  put(e, arch, 4);
  put(e, 0, 4);
  put(e, 0, 4);
  put(e, 0x11, 8);    // 64-bit, Linux
  put(e, 0, 8);
  put(e, 0, 8);
  std::string c;
  put(c, fatbin::kMagic, 4);
  put(c, 1, 2);
  put(c, 16, 2);
  put(c, e.size() + payload.size(), 8);
  return c + e + payload;
}

}  // namespace

TEST_CASE("Myers' edit script is a shortest one and rebuilds the new text") {
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 2000; ++iter) {
    auto a = randomLines(rng, 30, 1 + iter % 5), b = randomLines(rng, 30, 1 + iter % 5);
    auto ops = cli::diffLines(a, b);
    std::vector<std::string> rebuiltA, rebuiltB;
    size_t edits = 0;
    for (auto& o : ops) {
      if (o.kind != cli::DiffOp::Insert) rebuiltA.push_back(a[o.a]);
      if (o.kind != cli::DiffOp::Delete) rebuiltB.push_back(b[o.b]);
      if (o.kind == cli::DiffOp::Equal) CHECK(a[o.a] == b[o.b]);
      else ++edits;
    }
    REQUIRE(rebuiltA == a);
    REQUIRE(rebuiltB == b);
    // D = N + M - 2 LCS for a shortest script of insertions and deletions.
    REQUIRE(edits == a.size() + b.size() - 2 * lcs(a, b));
  }
}

TEST_CASE("Myers' diff gives up past maxD with a whole replacement") {
  std::vector<std::string> a, b;
  for (int i = 0; i < 50; ++i) a.push_back("a" + std::to_string(i)), b.push_back("b" + std::to_string(i));
  bool truncated = false;
  auto ops = cli::diffLines(a, b, 10, &truncated);
  CHECK(truncated);
  CHECK(ops.size() == 100);
}

TEST_CASE("unified diff hunks") {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += "line " + std::to_string(i) + "\n";
    b += (i == 5 ? std::string("changed 5") : i == 15 ? std::string("changed 15") : "line " + std::to_string(i)) + "\n";
  }
  std::string d = cli::unifiedDiff(a, b, "old", "new", 3);
  // Two changes 10 lines apart: two hunks of 3 context lines each side.
  CHECK(d == "--- old\n+++ new\n"
             "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+changed 5\n line 6\n line 7\n line 8\n"
             "@@ -12,7 +12,7 @@\n line 12\n line 13\n line 14\n-line 15\n+changed 15\n line 16\n line 17\n line 18\n");
  CHECK(cli::unifiedDiff(a, a, "x", "y") == "");
  // An insertion at the start of an empty text.
  CHECK(cli::unifiedDiff("", "x\n", "o", "n") == "--- o\n+++ n\n@@ -0,0 +1,1 @@\n+x\n");
}

TEST_CASE("GLSL annotations lose their PTX line numbers, nothing else") {
  std::string g = "  // ptx:24  ld.param.u64 %rd1, [p];\n  rd1 = x; // ptx:3 inside a line\n// 7 items\n"
                  "  // ptx:12\n  // ptx:5x\n";
  CHECK(cli::glslWithoutLineNumbers(g) == "  // ptx:N  ld.param.u64 %rd1, [p];\n  rd1 = x; // ptx:3 inside a line\n"
                                          "// 7 items\n  // ptx:N\n  // ptx:5x\n");
}

TEST_CASE("fatbin containers written from the documented layout parse back") {
  std::string text = ".version 9.0\n.target sm_90\n.address_size 64\n";
  std::string bytes = ptxContainer(text, 90) + ptxContainer(text + "\n", 80);
  std::vector<fatbin::Container> cs;
  std::vector<fatbin::Entry> es;
  uint64_t consumed = 0;
  std::string err;
  REQUIRE(fatbin::parseContainers(bytes, 0, bytes.size(), true, "test", cs, es, consumed, err));
  REQUIRE(cs.size() == 2);
  REQUIRE(es.size() == 2);
  CHECK(es[0].arch == 90);
  CHECK(es[1].arch == 80);
  CHECK(es[0].major == 9);
  CHECK(es[0].kind == fatbin::Kind::Ptx);
  std::string out;
  REQUIRE(fatbin::payload(bytes, es[0], out, err));
  CHECK(out == text);  // up to the first NUL
  REQUIRE(fatbin::payload(bytes, es[1], out, err));
  CHECK(out == text + "\n");
}

TEST_CASE("malformed containers name the offset and what was expected") {
  std::string good = ptxContainer(".version 9.0\n", 90);
  std::vector<fatbin::Container> cs;
  std::vector<fatbin::Entry> es;
  uint64_t consumed = 0;
  std::string err;
  auto parse = [&](const std::string& b) {
    cs.clear();
    es.clear();
    err.clear();
    return fatbin::parseContainers(b, 0, b.size(), true, "test", cs, es, consumed, err);
  };
  CHECK_FALSE(parse(good.substr(0, 10)));
  CHECK(err.find("at byte offset 0 (0x0): expected a 16-byte fatbin header") == 0);
  std::string bad = good;
  bad[0] = 0;
  CHECK_FALSE(parse(bad));
  CHECK(err.find("at byte offset 0 (0x0): expected the fatbin magic") == 0);
  bad = good;
  bad[16 + 8] = char(0xff);  // payload size of the entry
  CHECK_FALSE(parse(bad));
  CHECK(err.find("at byte offset 24 (0x18): expected an entry payload size of at most") == 0);
  bad = good;
  for (int i = 0; i < 8; ++i) bad[16 + 8 + i] = 0;
  CHECK_FALSE(parse(bad));
  CHECK(err.find("at byte offset 24 (0x18): expected a non-zero entry payload size") == 0);
  bad = good;
  bad[16 + 4] = 0;  // entry header size 0: must not loop
  CHECK_FALSE(parse(bad));
  CHECK(err.find("at byte offset 20 (0x14): expected an entry header size from 64") == 0);
  bad = good.substr(0, good.size() - 8);  // the container says more than there is
  CHECK_FALSE(parse(bad));
  CHECK(err.find("at byte offset 8 (0x8): expected a fatbin size of at most") == 0);
}
