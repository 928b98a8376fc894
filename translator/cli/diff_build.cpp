// ptx2glsl diff-build OLD NEW: which kernels a new build added, removed, changed, and how a changed one changed
// (its parameter-block card, its instruction histogram, its GLSL).
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "batch.h"
#include "cli.h"
#include "files.h"
#include "json.h"
#include "textdiff.h"

namespace fs = std::filesystem;

namespace p2g::cli {

namespace {

const char* kHelp =
    "usage: ptx2glsl diff-build OLD NEW [-o DIR] [--json] [-j N]\n"
    "  OLD, NEW   each a binary (ELF, PE, .fatbin), a folder of PTX files and binaries, or a `ptx2glsl batch`\n"
    "             output folder (its index.json is read; nothing is translated again)\n"
    "  -o DIR     write DIR/REPORT.md and DIR/diff.json (DIR is replaced; it must be absent, empty or an earlier\n"
    "             diff-build output); without it the report is printed\n"
    "  --json     print the JSON instead of the markdown\n"
    "  -j N       translate on N threads (default: every core)\n"
    "Kernels are matched by entry name and PTX target (`name@sm_90`; `#2` numbers repeats in one build). A kernel\n"
    "is changed when its PTX text, its status, its parameter-block card, its instruction histogram or its GLSL\n"
    "(PTX line numbers of the annotations aside) differ; each changed kernel gets the card diff, the histogram diff\n"
    "and a unified diff of the GLSL.\n"
    "Exit status 0 when nothing changed; 1 when kernels were added, removed or changed; 2 on bad usage or an input\n"
    "that cannot be read.\n";

struct Build {
  std::string name;
  BatchResult res;
  std::map<std::string, const KernelResult*> byKey;
};

bool loadBuild(const std::string& path, int jobs, Build& b, std::string& err) {
  b.name = path;
  std::error_code ec;
  if (fs::is_directory(path, ec) && fs::exists(fs::path(path) / "index.json", ec)) {
    if (!loadBatchIndex(path, b.res, err)) return false;
  } else {
    BatchOptions opt;
    opt.jobs = jobs;
    opt.quiet = true;
    opt.keepText = true;
    collectSources({path}, opt, b.res);
    if (!b.res.problems.empty()) {
      err = b.res.problems[0].path + ": " + b.res.problems[0].error;
      return false;
    }
    runBatch(opt, b.res);
    if (!b.res.problems.empty()) {
      err = b.res.problems[0].path + ": " + b.res.problems[0].error;
      return false;
    }
  }
  for (auto& k : b.res.kernels) b.byKey[k.key] = &k;
  return true;
}

// The card as comparable lines (PTX line numbers left out: they move when other kernels do).
struct CardView {
  bool present = false;
  uint64_t paramBytes = 0;
  std::map<uint64_t, std::string> fields;  // offset -> "4 bytes f32 scalar: loaded once; as a value in ..."
  std::vector<std::string> params;
};

CardView viewCard(const std::string& text) {
  CardView c;
  json::Value v;
  std::string err;
  if (text.empty() || !json::parse(text, v, err)) return c;
  c.present = true;
  if (auto* p = v.find("paramBytes")) p->toU64(c.paramBytes);
  if (auto* ps = v.find("params"); ps && ps->isArray())
    for (auto& p : ps->arr) {
      auto s = [&](const char* k) {
        auto* x = p.find(k);
        return x ? (x->isString() ? x->str : x->str) : std::string();
      };
      c.params.push_back(s("name") + " at " + s("offset") + ", " + s("bytes") + " bytes, " + s("type"));
    }
  if (auto* fs = v.find("fields"); fs && fs->isArray())
    for (auto& f : fs->arr) {
      uint64_t off = 0;
      if (auto* o = f.find("offset")) o->toU64(off);
      auto s = [&](const char* k) {
        auto* x = f.find(k);
        return x ? x->str : std::string();
      };
      c.fields[off] = s("bytes") + " bytes " + s("type") + " " + s("kind") + ": " + s("usage");
    }
  return c;
}

std::vector<std::string> cardDiff(const std::string& oldText, const std::string& newText) {
  CardView a = viewCard(oldText), b = viewCard(newText);
  std::vector<std::string> out;
  if (a.present != b.present) {
    out.push_back(a.present ? "the new build has no card (the kernel does not lift)" : "the old build had no card");
    return out;
  }
  if (a.paramBytes != b.paramBytes)
    out.push_back("parameter block: " + std::to_string(a.paramBytes) + " -> " + std::to_string(b.paramBytes) + " bytes");
  std::set<std::string> pa(a.params.begin(), a.params.end()), pb(b.params.begin(), b.params.end());
  for (auto& p : a.params)
    if (!pb.count(p)) out.push_back("- parameter " + p);
  for (auto& p : b.params)
    if (!pa.count(p)) out.push_back("+ parameter " + p);
  std::set<uint64_t> offs;
  for (auto& [o, s] : a.fields) offs.insert(o);
  for (auto& [o, s] : b.fields) offs.insert(o);
  for (uint64_t o : offs) {
    auto ia = a.fields.find(o), ib = b.fields.find(o);
    std::string at = "offset " + std::to_string(o) + ": ";
    if (ib == b.fields.end()) out.push_back("- " + at + ia->second);
    else if (ia == a.fields.end()) out.push_back("+ " + at + ib->second);
    else if (ia->second != ib->second) {
      out.push_back("- " + at + ia->second);
      out.push_back("+ " + at + ib->second);
    }
  }
  return out;
}

std::vector<std::string> histogramDiff(const std::map<std::string, unsigned>& a, const std::map<std::string, unsigned>& b) {
  std::set<std::string> forms;
  for (auto& [f, n] : a) forms.insert(f);
  for (auto& [f, n] : b) forms.insert(f);
  std::vector<std::string> out;
  for (auto& f : forms) {
    auto ia = a.find(f), ib = b.find(f);
    unsigned na = ia == a.end() ? 0 : ia->second, nb = ib == b.end() ? 0 : ib->second;
    if (na != nb) out.push_back(f + ": " + std::to_string(na) + " -> " + std::to_string(nb));
  }
  return out;
}

// The message of a first error without its "file:line:col: " (paths and lines differ between builds).
std::string reasonMessage(const std::string& r) {
  size_t p = r.find("error: ");
  return p == std::string::npos ? r : r.substr(p);
}

struct Changed {
  std::string key, oldId, newId;
  std::vector<std::string> aspects, card, histogram;
  std::string glslDiff;
};

std::string jsonArr(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json::quote(v[i]);
  return s + "]";
}

std::string block(const std::vector<std::string>& lines) {
  std::string s = "```\n";
  for (auto& l : lines) s += l + "\n";
  return s + "```\n";
}

}  // namespace

int cmdDiffBuild(int argc, char** argv) {
  std::vector<std::string> args;
  std::string outDir;
  bool asJson = false;
  int jobs = defaultJobs();
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      fputs(kHelp, stdout);
      return 0;
    }
    if (a == "-o" || a == "-j") {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl diff-build: %s needs a value\n", a.c_str());
        return 2;
      }
      std::string v = argv[++i];
      if (a == "-o") outDir = v;
      else {
        char* end = nullptr;
        long n = strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 1 || n > 1024) {
          fprintf(stderr, "ptx2glsl diff-build: -j wants a number of threads from 1 to 1024, not '%s'\n", v.c_str());
          return 2;
        }
        jobs = int(n);
      }
    } else if (a == "--json") asJson = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl diff-build: unknown option '%s'\n%s", a.c_str(), kHelp);
      return 2;
    } else args.push_back(a);
  }
  if (args.size() != 2) {
    fputs(kHelp, stderr);
    return 2;
  }
  Build olds, news;
  std::string err;
  if (!loadBuild(args[0], jobs, olds, err) || !loadBuild(args[1], jobs, news, err)) {
    fprintf(stderr, "ptx2glsl diff-build: error: %s\n", err.c_str());
    return 2;
  }
  std::vector<std::string> added, removed, unchanged;
  std::vector<Changed> changed;
  for (auto& [key, k] : olds.byKey)
    if (!news.byKey.count(key)) removed.push_back(key);
  for (auto& [key, k] : news.byKey) {
    auto it = olds.byKey.find(key);
    if (it == olds.byKey.end()) {
      added.push_back(key);
      continue;
    }
    const KernelResult &a = *it->second, &b = *k;
    Changed c;
    c.key = key;
    c.oldId = a.id;
    c.newId = b.id;
    if (a.translated != b.translated || reasonMessage(a.reason) != reasonMessage(b.reason))
      c.aspects.push_back(std::string("status: ") + (a.translated ? "translated" : "refused") + " -> " +
                          (b.translated ? "translated" : "refused") +
                          (b.translated ? "" : " (" + reasonMessage(b.reason) + ")"));
    if (a.ptxHash != b.ptxHash) c.aspects.push_back("PTX text");
    c.card = cardDiff(a.cardJson, b.cardJson);
    if (!c.card.empty()) c.aspects.push_back("parameter-block card");
    c.histogram = histogramDiff(a.histogram, b.histogram);
    if (!c.histogram.empty()) c.aspects.push_back("instruction histogram");
    if (a.glslHash != b.glslHash) {
      c.aspects.push_back("GLSL");
      c.glslDiff = unifiedDiff(glslWithoutLineNumbers(a.glsl), glslWithoutLineNumbers(b.glsl), "old/" + a.id,
                               "new/" + b.id);
    }
    if (c.aspects.empty()) unchanged.push_back(key);
    else changed.push_back(std::move(c));
  }
  std::string md = "# Build diff\n\nOld: " + olds.name + " (" + std::to_string(olds.res.kernels.size()) +
                   " kernels). New: " + news.name + " (" + std::to_string(news.res.kernels.size()) + " kernels).\n";
  md += "Added " + std::to_string(added.size()) + ", removed " + std::to_string(removed.size()) + ", changed " +
        std::to_string(changed.size()) + ", unchanged " + std::to_string(unchanged.size()) + ".\n";
  md += "Kernels are matched by entry name and PTX target; GLSL diffs show the annotations' PTX line numbers as N.\n";
  auto list = [&](const char* title, const std::vector<std::string>& keys) {
    md += std::string("\n## ") + title + " (" + std::to_string(keys.size()) + ")\n\n";
    for (auto& k : keys) md += "- `" + k + "`\n";
    if (keys.empty()) md += "None.\n";
  };
  list("Added", added);
  list("Removed", removed);
  md += "\n## Changed (" + std::to_string(changed.size()) + ")\n";
  if (changed.empty()) md += "\nNone.\n";
  for (auto& c : changed) {
    md += "\n### `" + c.key + "`\n\nWhat differs: ";
    for (size_t i = 0; i < c.aspects.size(); ++i) md += (i ? "; " : "") + c.aspects[i];
    md += ". Old " + c.oldId + ", new " + c.newId + ".\n";
    if (!c.card.empty()) md += "\nParameter-block card:\n\n" + block(c.card);
    if (!c.histogram.empty()) md += "\nInstruction histogram (old -> new count):\n\n" + block(c.histogram);
    if (!c.glslDiff.empty()) md += "\nGLSL:\n\n```diff\n" + c.glslDiff + "```\n";
  }
  list("Unchanged", unchanged);
  std::string js = "{\n  \"tool\": \"ptx2glsl diff-build\",\n  \"old\": " + json::quote(olds.name) + ",\n  \"new\": " +
                   json::quote(news.name) + ",\n  \"summary\": {\"added\": " + std::to_string(added.size()) +
                   ", \"removed\": " + std::to_string(removed.size()) + ", \"changed\": " +
                   std::to_string(changed.size()) + ", \"unchanged\": " + std::to_string(unchanged.size()) + "},\n";
  js += "  \"added\": " + jsonArr(added) + ",\n  \"removed\": " + jsonArr(removed) + ",\n  \"unchanged\": " +
        jsonArr(unchanged) + ",\n  \"changed\": [";
  for (size_t i = 0; i < changed.size(); ++i) {
    auto& c = changed[i];
    js += std::string(i ? "," : "") + "\n    {\"key\": " + json::quote(c.key) + ", \"old\": " + json::quote(c.oldId) +
          ", \"new\": " + json::quote(c.newId) + ", \"aspects\": " + jsonArr(c.aspects) + ", \"card\": " +
          jsonArr(c.card) + ", \"histogram\": " + jsonArr(c.histogram) + ", \"glslDiff\": " + json::quote(c.glslDiff) +
          "}";
  }
  js += changed.empty() ? "]\n}\n" : "\n  ]\n}\n";
  int status = added.empty() && removed.empty() && changed.empty() ? 0 : 1;
  if (!outDir.empty()) {
    if (!checkReplaceable(outDir, "diff.json", err)) {
      fprintf(stderr, "ptx2glsl diff-build: error: %s\n", err.c_str());
      return 2;
    }
    std::string tmp = tempFolderFor(outDir);
    std::error_code ec;
    fs::remove_all(tmp, ec);
    if (!writeFileAt(tmp + "/REPORT.md", md, err) || !writeFileAt(tmp + "/diff.json", js, err) ||
        !swapFolder(tmp, outDir, err)) {
      fs::remove_all(tmp, ec);
      fprintf(stderr, "ptx2glsl diff-build: error: %s\n", err.c_str());
      return 2;
    }
    printf("added %zu, removed %zu, changed %zu, unchanged %zu; report: %s/REPORT.md\n", added.size(), removed.size(),
           changed.size(), unchanged.size(), outDir.c_str());
  } else {
    fputs(asJson ? js.c_str() : md.c_str(), stdout);
  }
  return status;
}

}  // namespace p2g::cli
