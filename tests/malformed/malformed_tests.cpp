// Malformed PTX: every NN_name.ptx here starts with `// CHECK: LINE:COL: error: MESSAGE`, the first error the
// parser must report. Also: generated inputs too big to commit (a 1 MB line), and robustness sweeps (every prefix
// of every input, random byte damage) that must end with a diagnostic, never a crash or a hang.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
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

// The source line as the diagnostic prints it, for inputs without UTF-8 text (the snippets here): control bytes,
// DEL and every byte above 0x7F as \xNN, so `col` bytes into the line are `screen(col)` columns.
std::string printed(const std::string& line, size_t upTo = std::string::npos) {
  std::string out;
  for (size_t i = 0; i < line.size() && i < upTo; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c >= 0x7F) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    } else {
      out += char(c);
    }
  }
  return out;
}

// The formatted diagnostic is: header line, the source line, then a caret under column `col`.
void checkCaret(const std::string& formatted, const std::pair<uint32_t, std::string>& lc) {
  std::vector<std::string> lines;
  std::stringstream ss(formatted);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  REQUIRE(lines.size() >= 3);
  CHECK(formatted.find('\0') == std::string::npos);
  CHECK(lines[1] == printed(lc.second));
  CHECK(lines[2].find('^') == printed(lc.second, lc.first - 1).size());
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

TEST_CASE("NUL and non-UTF-8 bytes are shown escaped; UTF-8 text is kept; the caret stays under its byte") {
  // a NUL, a stray \xff and UTF-8 text (in a comment) before the error: the line, the caret and every later
  // diagnostic must still come out
  using namespace std::string_literals;
  std::string line = "\tadd.s32 %r1, %r2, 1; /* caf\xc3\xa9 \x00 \xff */ #"s;
  Result r = parseText("bytes.ptx", std::string(kHeader) + "\t.reg .b32 %r<3>;\n" + line + ";\n\t.reg .b33 %x;\n}\n");
  CHECK_FALSE(r.ok);
  REQUIRE(r.formatted.size() >= 2);
  CHECK(r.errors[0] == "7:39: error: unexpected character '#'");
  std::vector<std::string> lines;
  std::stringstream ss(r.formatted[0]);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "\tadd.s32 %r1, %r2, 1; /* caf\xc3\xa9 \\x00 \\xff */ #;");
  // the caret under '#': the tab stays a tab; é is one column on screen; each escaped byte four
  CHECK(lines[2] == "\t" + std::string(std::string("add.s32 %r1, %r2, 1; /* cafe ").size() + 4 + 1 + 4 + 4, ' ') + "^");
  // the diagnostics after it are all there
  CHECK(r.errors[1].rfind("8:", 0) == 0);
}
