// Parser stress driver: parses every .ptx of a corpus directory with the project's PTX front end.
//
// The corpus (tests/parse_stress/ptx) is real nvcc 13 output chosen for breadth of syntax, not for translation:
// fp8/bf16 conversions, wmma/mma/ldmatrix, textures and surfaces, cluster and bulk-copy forms, inline-asm scopes,
// call prototypes, .branchtargets, DWARF sections. A parser that accepts all of it is unlikely to meet a
// construct it cannot even read; what the translator must *lower* is a separate question, which is why the
// driver also prints the distinct opcode+modifier forms seen (the translation coverage to plan for).
//
// Modes:
//   parse_stress DIR|FILE...             parse each file; exit 1 when any file has a parse error
//   parse_stress --truncate DIR|FILE...  robustness: parse prefixes of each file cut at many points. A prefix
//                                        that leaves a '{' unclosed must be reported as an error (an unfinished
//                                        function is not a module); every prefix must parse without crashing
//                                        (ctest's TIMEOUT catches a hang).
// Options: --top N (forms listed, default 20), --quiet (no per-file lines for passing files).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "parser.h"

namespace fs = std::filesystem;

namespace {

struct Counts {
  size_t instrs = 0, labels = 0, decls = 0, directives = 0;
};

// Counts statements of a body, descending into nested `{ }` scopes (inline asm and call sequences open them),
// and tallies each instruction's form: the opcode and its modifiers in source order, e.g. "ld.global.nc.v4.f32".
void walk(const ptx::Block& b, Counts& c, std::map<std::string, size_t>& forms) {
  for (const ptx::Stmt& s : b.stmts) {
    if (auto* in = std::get_if<ptx::Instr>(&s)) {
      ++c.instrs;
      std::string form(in->opcode);
      for (auto m : in->mods) {
        form += '.';
        form += m;
      }
      ++forms[form];
    } else if (std::holds_alternative<ptx::Label>(s)) {
      ++c.labels;
    } else if (std::holds_alternative<ptx::VarDecl>(s)) {
      ++c.decls;
    } else if (std::holds_alternative<ptx::Directive>(s)) {
      ++c.directives;
    } else if (auto* blk = std::get_if<ptx::Block>(&s)) {
      walk(*blk, c, forms);
    }
  }
}

size_t countLocLines(std::string_view text) {
  size_t n = 0, pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line.substr(first).starts_with(".loc") &&
        (line.size() == first + 4 || line[first + 4] == ' ' || line[first + 4] == '\t'))
      ++n;
    pos = eol + 1;
  }
  return n;
}

size_t countLocDirectives(const ptx::Block& b) {
  size_t n = 0;
  for (const ptx::Stmt& s : b.stmts) {
    if (auto* d = std::get_if<ptx::Directive>(&s)) n += d->name == "loc";
    else if (auto* blk = std::get_if<ptx::Block>(&s)) n += countLocDirectives(*blk);
  }
  return n;
}

// Re-parses with ParseOptions::keepLoc: the -G and -lineinfo files carry a .loc before most instructions, and
// keeping them must neither change the instructions nor lose a .loc. Returns an error text, empty when fine.
std::string checkKeepLoc(const ptx::SourceManager& sm, int buf, size_t instrs) {
  ptx::DiagEngine diags(sm);
  ptx::Module mod;
  ptx::ParseOptions opt;
  opt.keepLoc = true;
  if (!ptx::parseModule(sm, buf, diags, mod, opt)) return "parse failed with keepLoc:\n" + diags.formatAll();
  Counts c;
  std::map<std::string, size_t> unused;
  size_t locs = 0;
  for (const auto& f : mod.functions) {
    walk(f.body, c, unused);
    locs += countLocDirectives(f.body);
  }
  size_t expected = countLocLines(sm.text(buf));
  if (c.instrs != instrs)
    return "keepLoc changed the instruction count: " + std::to_string(c.instrs) + " vs " + std::to_string(instrs);
  if (locs != expected)
    return "keepLoc kept " + std::to_string(locs) + " .loc directives, the file has " + std::to_string(expected);
  return {};
}

std::vector<std::string> collectFiles(const std::vector<std::string>& args, std::string& err) {
  std::vector<std::string> files;
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      for (const auto& e : fs::directory_iterator(a, ec))
        if (e.is_regular_file() && e.path().extension() == ".ptx") files.push_back(e.path().string());
      if (ec) err = "cannot list '" + a + "': " + ec.message();
    } else if (fs::is_regular_file(a, ec)) {
      files.push_back(a);
    } else {
      err = "no such file or directory: '" + a + "'";
    }
  }
  std::sort(files.begin(), files.end());  // deterministic output whatever the directory order
  return files;
}

// Parses every file once; prints one line per file and the diagnostics of failing ones.
int runParse(const std::vector<std::string>& files, size_t top, bool quiet) {
  std::map<std::string, size_t> forms;
  size_t failed = 0, totalInstrs = 0, totalFuncs = 0;
  for (const auto& path : files) {
    ptx::SourceManager sm;
    std::string err;
    int buf = sm.addFile(path, err);
    std::string name = fs::path(path).filename().string();
    if (buf < 0) {
      std::printf("FAIL %-24s %s\n", name.c_str(), err.c_str());
      ++failed;
      continue;
    }
    ptx::DiagEngine diags(sm);
    ptx::Module mod;
    bool ok = ptx::parseModule(sm, buf, diags, mod);
    Counts c;
    size_t entries = 0, funcs = 0;
    std::map<std::string, size_t> fileForms;
    for (const auto& f : mod.functions) {
      (f.isEntry ? entries : funcs) += 1;
      walk(f.body, c, fileForms);
    }
    // A parser that reports success but produced nothing from a non-empty kernel file is broken too.
    if (ok && (mod.functions.empty() || c.instrs == 0)) {
      ok = false;
      err = "parsed without error but found no functions or no instructions";
    }
    if (ok && diags.hasErrors()) {
      ok = false;
      err = "parseModule returned true but reported errors";
    }
    if (ok) err = checkKeepLoc(sm, buf, c.instrs);
    ok = ok && err.empty();
    if (ok) {
      for (auto& [k, v] : fileForms) forms[k] += v;
      totalInstrs += c.instrs;
      totalFuncs += entries + funcs;
    } else {
      ++failed;
    }
    if (!ok || !quiet)
      std::printf("%s %-24s instrs %6zu  entries %2zu  funcs %2zu  labels %5zu  decls %5zu  globals %3zu  forms %4zu\n",
                  ok ? "OK  " : "FAIL", name.c_str(), c.instrs, entries, funcs, c.labels, c.decls,
                  mod.globals.size(), fileForms.size());
    if (!err.empty()) std::printf("  %s\n", err.c_str());
    if (!diags.all().empty()) std::printf("%s", diags.formatAll().c_str());
  }

  std::vector<std::pair<std::string, size_t>> sorted(forms.begin(), forms.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.second > b.second; });
  std::printf("\n%zu files, %zu failed; %zu instructions in %zu functions of the files that parsed\n", files.size(),
              failed, totalInstrs, totalFuncs);
  std::map<std::string, size_t> opcodes;
  for (auto& [k, v] : forms) opcodes[k.substr(0, k.find('.'))] += v;
  std::printf("distinct opcode+modifier forms: %zu (distinct opcodes: %zu)\n", forms.size(), opcodes.size());
  std::printf("top %zu forms by count:\n", std::min(top, sorted.size()));
  for (size_t i = 0; i < sorted.size() && i < top; ++i)
    std::printf("  %7zu  %s\n", sorted[i].second, sorted[i].first.c_str());
  return failed ? 1 : 0;
}

// True when `text` leaves a '{' open. PTX has no string literals inside bodies (printf formats are .b8 arrays),
// only in .file/.pragma/.section names, so skipping comments and "..." is enough.
bool hasOpenBrace(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (ch == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t e = text.find("*/", i + 2);
      i = e == std::string_view::npos ? text.size() : e + 1;
    } else if (ch == '"') {
      size_t e = text.find('"', i + 1);
      i = e == std::string_view::npos ? text.size() : e;
    } else if (ch == '{') {
      ++depth;
    } else if (ch == '}') {
      --depth;
    }
  }
  return depth > 0;
}

// Cuts each file at ~`cuts` points (plus a few at the very start) and parses the prefix.
int runTruncate(const std::vector<std::string>& files, size_t cuts) {
  size_t parsed = 0, mustFail = 0, missed = 0;
  for (const auto& path : files) {
    ptx::SourceManager loader;
    std::string err;
    int full = loader.addFile(path, err);
    if (full < 0) {
      std::printf("FAIL %s: %s\n", path.c_str(), err.c_str());
      ++missed;
      continue;
    }
    std::string_view text = loader.text(full);
    std::vector<size_t> points = {0, 1, 7};
    for (size_t k = 1; k < cuts; ++k) points.push_back(text.size() * k / cuts);
    for (size_t cut : points) {
      if (cut > text.size()) continue;
      ptx::SourceManager sm;
      std::string name = fs::path(path).filename().string() + "@" + std::to_string(cut);
      int buf = sm.add(name, std::string(text.substr(0, cut)));
      ptx::DiagEngine diags(sm);
      ptx::Module mod;
      bool ok = ptx::parseModule(sm, buf, diags, mod);
      ++parsed;
      if (hasOpenBrace(text.substr(0, cut))) {
        ++mustFail;
        if (ok || !diags.hasErrors()) {
          ++missed;
          std::printf("MISSED %s: a prefix with an unclosed '{' parsed without error\n", name.c_str());
        }
      }
    }
  }
  std::printf("%zu truncated prefixes parsed without crashing; %zu had an unclosed '{' and %zu of those were "
              "accepted (must be 0)\n",
              parsed, mustFail, missed);
  return missed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  bool truncate = false, quiet = false;
  size_t top = 20;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--truncate") {
      truncate = true;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--top" && i + 1 < argc) {
      top = std::strtoul(argv[++i], nullptr, 10);
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [--truncate] [--quiet] [--top N] DIR|FILE...\n", argv[0]);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "parse_stress: unknown option '%s'\n", a.c_str());
      return 2;
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: %s [--truncate] [--quiet] [--top N] DIR|FILE...\n", argv[0]);
    return 2;
  }
  std::string err;
  std::vector<std::string> files = collectFiles(inputs, err);
  if (!err.empty()) {
    std::fprintf(stderr, "parse_stress: %s\n", err.c_str());
    return 2;
  }
  if (files.empty()) {
    std::fprintf(stderr, "parse_stress: no .ptx files found\n");
    return 2;
  }
  return truncate ? runTruncate(files, 40) : runParse(files, top, quiet);
}
