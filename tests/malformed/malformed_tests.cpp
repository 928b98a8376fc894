// Malformed PTX: every NN_name.ptx here starts with `// CHECK: LINE:COL: error: MESSAGE`, the first error the
// parser must report. Also: generated inputs too big to commit (a 1 MB line), and robustness sweeps (every prefix
// of every input, random byte damage) that must end with a diagnostic, never a crash or a hang.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "parser.h"

using namespace ptx;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Result {
  bool ok = false;
  std::vector<std::string> errors;  // "line:col: error: message", in report order
  std::vector<std::string> formatted;
  std::vector<std::pair<uint32_t, std::string>> where;  // column and source line (copied: the buffer dies)
};

Result parseText(const std::string& name, std::string text) {
  SourceManager sm;
  int buf = sm.add(name, std::move(text));
  DiagEngine diags(sm);
  Module m;
  Result r;
  r.ok = parseModule(sm, buf, diags, m);
  for (auto& d : diags.all()) {
    if (d.sev != Severity::Error) continue;
    LineCol lc = sm.resolve(d.span.begin);
    r.errors.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": error: " + d.message);
    r.formatted.push_back(diags.format(d));
    r.where.push_back({lc.col, std::string(lc.lineText)});
  }
  return r;
}

// The formatted diagnostic is: header line, the source line, then a caret under column `col`.
void checkCaret(const std::string& formatted, const std::pair<uint32_t, std::string>& lc) {
  std::vector<std::string> lines;
  std::stringstream ss(formatted);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[1] == lc.second);
  CHECK(lines[2].find('^') == lc.first - 1);
}

std::vector<fs::path> cases() {
  std::vector<fs::path> v;
  for (auto& e : fs::directory_iterator(P2G_MALFORMED_DIR))
    if (e.path().extension() == ".ptx") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n";

}  // namespace

TEST_CASE("every malformed snippet reports its CHECK diagnostic first") {
  auto files = cases();
  CHECK(files.size() >= 24);
  for (auto& path : files) {
    INFO(path.filename().string());
    std::string text = readFile(path);
    const std::string tag = "// CHECK: ";
    REQUIRE(text.rfind(tag, 0) == 0);
    std::string want = text.substr(tag.size(), text.find('\n') - tag.size());
    Result r = parseText(path.filename().string(), text);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0] == want);
    CHECK(r.formatted[0].rfind(path.filename().string() + ":" + want, 0) == 0);
    checkCaret(r.formatted[0], r.where[0]);
  }
}

TEST_CASE("a 1 MB line without a ';'") {
  std::string line = "\tadd.s32 %r1";
  line.reserve(1 << 20);
  while (line.size() < (1u << 20)) line += ", %r2";
  Result r = parseText("long.ptx", std::string(kHeader) + line + "\n\tret;\n}\n");
  CHECK_FALSE(r.ok);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0] == "6:" + std::to_string(line.size() + 1) + ": error: expected ';' after instruction");
  checkCaret(r.formatted[0], r.where[0]);
}

TEST_CASE("a 1 MB identifier is clipped in the message") {
  std::string name(1 << 20, 'x');
  Result r = parseText("ident.ptx", std::string(kHeader) + "\t.reg .b33 " + name + ";\n}\n");
  CHECK_FALSE(r.ok);
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors[0].size() < 200);
}

TEST_CASE("an error storm stops at the error limit") {
  std::string body;
  for (int i = 0; i < 10000; ++i) body += "\tadd.s32 %r1 %r2;\n";
  Result r = parseText("storm.ptx", std::string(kHeader) + body + "}\n");
  CHECK_FALSE(r.ok);
  CHECK(r.errors.size() == 50);
}

TEST_CASE("every prefix of every input parses to an answer") {
  // Truncation is the commonest real damage (a killed compiler, a partial copy). Each prefix must parse without
  // crashing; a prefix that cuts a function in half must be an error.
  std::vector<fs::path> inputs = cases();
  for (auto& e : fs::directory_iterator(P2G_PARSER_DATA))
    if (e.path().extension() == ".ptx") inputs.push_back(e.path());
  size_t parsed = 0, failed = 0;
  for (auto& path : inputs) {
    std::string text = readFile(path);
    size_t step = text.size() > 4000 ? 3 : 1;
    for (size_t n = 0; n < text.size(); n += step) {
      Result r = parseText("prefix.ptx", text.substr(0, n));
      ++parsed;
      failed += !r.ok;
    }
  }
  CHECK(parsed > 1000);
  CHECK(failed > parsed / 2);
}

TEST_CASE("random byte damage never crashes") {
  std::string base = readFile(fs::path(P2G_PARSER_DATA) / "globals.ptx");
  REQUIRE(base.size() > 1000);
  std::mt19937 rng(12345);
  const std::string alphabet = "{}[]();,.:%$@!<>=+-_|\"/*0123456789fdxXU \n\t\x00\xff";
  int broken = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    std::string t = base;
    int edits = 1 + int(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(pos, 1 + rng() % 16); break;
        default: t.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (t.empty()) t = "x";
    }
    broken += !parseText("fuzz.ptx", t).ok;
  }
  CHECK(broken > 0);
}
