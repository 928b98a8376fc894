// REPORT.md and index.json of `ptx2glsl batch`, and reading index.json back for diff-build.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "batch.h"
#include "case.h"  // readFile
#include "files.h"
#include "json.h"

namespace p2g::cli {

namespace {

std::string fmtMs(double ms) {
  char b[32];
  snprintf(b, sizeof b, "%.1f", ms);
  return b;
}

struct CoverageRow {
  std::string form;
  unsigned kernels = 0;
  std::string firstKernel, firstAt;
};

// Refused instruction forms ranked by how many kernels each blocks (then by name); ties keep a stable order.
std::vector<CoverageRow> coverage(const BatchResult& res) {
  std::map<std::string, CoverageRow> rows;
  for (auto& k : res.kernels)
    for (auto& f : k.refusedForms) {
      CoverageRow& r = rows[f];
      r.form = f;
      if (r.kernels++ == 0) {
        r.firstKernel = k.id;
        r.firstAt = k.firstRefusedAt;
      }
    }
  std::vector<CoverageRow> v;
  for (auto& [f, r] : rows) v.push_back(r);
  std::stable_sort(v.begin(), v.end(), [](const CoverageRow& a, const CoverageRow& b) { return a.kernels > b.kernels; });
  return v;
}

std::vector<std::pair<std::string, unsigned>> otherReasons(const BatchResult& res) {
  std::map<std::string, unsigned> m;
  for (auto& k : res.kernels)
    for (auto& r : k.otherReasons) ++m[r];
  std::vector<std::pair<std::string, unsigned>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second > b.second; });
  return v;
}

unsigned countTranslated(const BatchResult& res) {
  unsigned n = 0;
  for (auto& k : res.kernels) n += k.translated;
  return n;
}

std::string jsonStrArray(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json::quote(v[i]);
  return s + "]";
}

}  // namespace

std::string batchReport(const BatchResult& res, const BatchOptions& opt) {
  unsigned ok = countTranslated(res), refused = unsigned(res.kernels.size()) - ok;
  std::string o = "# Batch translation report\n\n";
  o += "Inputs: " + std::to_string(res.ptxFiles) + " PTX file(s); " + std::to_string(res.binaries) +
       " binar" + (res.binaries == 1 ? "y" : "ies") + " (" + std::to_string(res.sources.size() - res.ptxFiles) +
       " PTX entries translated from them, " + std::to_string(res.elfEntries) + " ELF (SASS) entries not translated, " +
       std::to_string(res.binariesWithoutCode) + " without PTX); " + std::to_string(res.skippedFiles) +
       " other file(s) of the folders skipped.\n";
  o += "Kernels: " + std::to_string(res.kernels.size()) + ": " + std::to_string(ok) + " translated, " +
       std::to_string(refused) + " refused.\n";
  o += std::string("Mode: ") + (opt.native ? "native" : "exact") +
       (opt.spirv ? "; GLSL compiled to SPIR-V and validated" : "; GLSL only (--no-spirv)") + ".\n";
  o += "Paths `ptx/...` are PTX extracted from binaries, relative to this folder; each kernel's files are in\n"
       "`kernels/<id>/` (GLSL `.comp`, SPIR-V `.spv`, manifest `.json`, `card.md`/`card.json`, or `diagnostics.txt`).\n";
  if (!res.problems.empty()) {
    o += "\n## Inputs not read\n\n| input | error |\n|---|---|\n";
    for (auto& p : res.problems) o += "| " + mdCell(p.path) + " | " + mdCell(p.error) + " |\n";
  }
  o += "\n## Kernels\n\n| # | kernel | source | fatbin entry | target | status | PTX instructions | GLSL lines | "
       "param bytes |\n|---|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < res.kernels.size(); ++i) {
    auto& k = res.kernels[i];
    std::string status = k.translated ? "translated" : "refused";
    if (k.translated && k.warnings) status += " (" + std::to_string(k.warnings) + " not-yet-exact lowering(s))";
    o += "| " + std::to_string(i + 1) + " | `" + mdCell(k.entry) + "` | " + mdCell(k.source) + " | " +
         (k.fatbinEntry.empty() ? "-" : mdCell(k.fatbinEntry)) + " | " + (k.target.empty() ? "-" : k.target) + " | " +
         status + " | " + std::to_string(k.ptxInstructions) + " | " +
         (k.translated ? std::to_string(k.glslLines) : "-") + " | " + std::to_string(k.paramBytes) + " |\n";
  }
  if (refused) {
    o += "\n## Refused kernels: the first reason\n\n| kernel | id | first error |\n|---|---|---|\n";
    for (auto& k : res.kernels)
      if (!k.translated) o += "| `" + mdCell(k.entry) + "` | " + mdCell(k.id) + " | " + mdCell(k.reason) + " |\n";
  }
  auto cov = coverage(res);
  o += "\n## Coverage: refused instruction forms, by kernels blocked\n\n";
  if (cov.empty()) o += "No kernel was refused at an instruction.\n";
  else {
    o += "| rank | instruction form | kernels blocked | first kernel (where) |\n|---|---|---|---|\n";
    for (size_t i = 0; i < cov.size(); ++i)
      o += "| " + std::to_string(i + 1) + " | `" + mdCell(cov[i].form) + "` | " + std::to_string(cov[i].kernels) +
           " | " + mdCell(cov[i].firstKernel) + " (" + mdCell(cov[i].firstAt) + ") |\n";
  }
  auto other = otherReasons(res);
  if (!other.empty()) {
    o += "\n## Refusals not at an instruction\n\n| reason | kernels |\n|---|---|\n";
    for (auto& [r, n] : other) o += "| " + mdCell(r) + " | " + std::to_string(n) + " |\n";
  }
  // Times last, in their own section: everything above is the same for the same inputs.
  double sum = 0;
  for (auto& k : res.kernels) sum += k.translateMs + k.cardMs;
  o += "\n## Times\n\n";
  o += "-j " + std::to_string(res.jobs) + ": " + fmtMs(res.wallMs) + " ms for " + std::to_string(res.kernels.size()) +
       " kernels (reading the inputs " + fmtMs(res.collectMs) + " ms before that; parsing " + fmtMs(res.parsePhaseMs) +
       " ms, translating " + fmtMs(res.kernelPhaseMs) + " ms); the kernels' own times add up to " + fmtMs(sum) +
       " ms.\n\n";
  o += "| kernel id | parse ms (its file) | translate ms | card ms |\n|---|---|---|---|\n";
  for (auto& k : res.kernels)
    o += "| " + mdCell(k.id) + " | " + fmtMs(k.parseMs) + " | " + fmtMs(k.translateMs) + " | " + fmtMs(k.cardMs) + " |\n";
  return o;
}

std::string batchIndex(const BatchResult& res, const BatchOptions& opt, const std::vector<std::string>& inputs) {
  unsigned ok = countTranslated(res);
  std::string o = "{\n  \"tool\": \"ptx2glsl batch\",\n  \"version\": 1,\n";
  o += "  \"inputs\": " + jsonStrArray(inputs) + ",\n";
  o += std::string("  \"options\": {\"native\": ") + (opt.native ? "true" : "false") + ", \"spirv\": " +
       (opt.spirv ? "true" : "false") + "},\n";
  o += "  \"summary\": {\"kernels\": " + std::to_string(res.kernels.size()) + ", \"translated\": " + std::to_string(ok) +
       ", \"refused\": " + std::to_string(res.kernels.size() - ok) + ", \"ptxFiles\": " + std::to_string(res.ptxFiles) +
       ", \"binaries\": " + std::to_string(res.binaries) + ", \"elfEntries\": " + std::to_string(res.elfEntries) +
       ", \"skippedFiles\": " + std::to_string(res.skippedFiles) + ", \"problems\": " +
       std::to_string(res.problems.size()) + "},\n";
  o += "  \"problems\": [";
  for (size_t i = 0; i < res.problems.size(); ++i)
    o += std::string(i ? ", " : "") + "{\"path\": " + json::quote(res.problems[i].path) + ", \"error\": " +
         json::quote(res.problems[i].error) + "}";
  o += "],\n  \"kernels\": [";
  for (size_t i = 0; i < res.kernels.size(); ++i) {
    auto& k = res.kernels[i];
    o += std::string(i ? "," : "") + "\n    {\"id\": " + json::quote(k.id) + ", \"key\": " + json::quote(k.key) +
         ", \"entry\": " + json::quote(k.entry) + ",\n     \"source\": " + json::quote(k.source) +
         ", \"fatbinEntry\": " + json::quote(k.fatbinEntry) + ", \"ptx\": " + json::quote(k.bufferName) +
         ", \"target\": " + json::quote(k.target) + ",\n     \"status\": " +
         json::quote(k.translated ? "translated" : "refused") + ", \"reason\": " + json::quote(k.reason) +
         ", \"refusedForms\": " + jsonStrArray(k.refusedForms) + ", \"otherReasons\": " + jsonStrArray(k.otherReasons) +
         ",\n     \"ptxInstructions\": " + std::to_string(k.ptxInstructions) + ", \"glslLines\": " +
         std::to_string(k.glslLines) + ", \"paramBytes\": " + std::to_string(k.paramBytes) + ", \"warnings\": " +
         std::to_string(k.warnings) + ", \"ptxHash\": " + json::quote(k.ptxHash) + ", \"glslHash\": " +
         json::quote(k.glslHash) + ",\n     \"files\": {";
    bool first = true;
    for (auto& [role, path] : k.files) {
      o += std::string(first ? "" : ", ") + json::quote(role) + ": " + json::quote(path);
      first = false;
    }
    o += "},\n     \"histogram\": {";
    first = true;
    for (auto& [form, n] : k.histogram) {
      o += std::string(first ? "" : ", ") + json::quote(form) + ": " + std::to_string(n);
      first = false;
    }
    o += "},\n     \"times\": {\"parseMs\": " + fmtMs(k.parseMs) + ", \"translateMs\": " + fmtMs(k.translateMs) +
         ", \"cardMs\": " + fmtMs(k.cardMs) + "}}";
  }
  o += "\n  ],\n  \"coverage\": [";
  auto cov = coverage(res);
  for (size_t i = 0; i < cov.size(); ++i)
    o += std::string(i ? "," : "") + "\n    {\"form\": " + json::quote(cov[i].form) + ", \"kernels\": " +
         std::to_string(cov[i].kernels) + ", \"firstKernel\": " + json::quote(cov[i].firstKernel) + ", \"at\": " +
         json::quote(cov[i].firstAt) + "}";
  o += cov.empty() ? "],\n" : "\n  ],\n";
  o += "  \"times\": {\"jobs\": " + std::to_string(res.jobs) + ", \"wallMs\": " + fmtMs(res.wallMs) +
       ", \"collectMs\": " + fmtMs(res.collectMs) + ", \"parseMs\": " + fmtMs(res.parsePhaseMs) +
       ", \"translateMs\": " + fmtMs(res.kernelPhaseMs) + "}\n}\n";
  return o;
}

bool loadBatchIndex(const std::string& dir, BatchResult& res, std::string& err) {
  std::string text;
  std::string path = dir + "/index.json";
  if (!readFile(path, text)) {
    err = "cannot read " + path;
    return false;
  }
  json::Value v;
  if (!json::parse(text, v, err)) {
    err = path + ":" + err;
    return false;
  }
  const json::Value* tool = v.find("tool");
  const json::Value* kernels = v.find("kernels");
  if (!tool || !tool->isString() || tool->str != "ptx2glsl batch" || !kernels || !kernels->isArray()) {
    err = path + ": not the index of a ptx2glsl batch output";
    return false;
  }
  auto str = [](const json::Value& o, const char* k) {
    const json::Value* x = o.find(k);
    return x && x->isString() ? x->str : std::string();
  };
  auto num = [](const json::Value& o, const char* k) {
    const json::Value* x = o.find(k);
    uint64_t n = 0;
    if (x && x->isNumber()) x->toU64(n);
    return n;
  };
  for (auto& kv : kernels->arr) {
    KernelResult k;
    k.id = str(kv, "id");
    k.key = str(kv, "key");
    k.entry = str(kv, "entry");
    k.source = str(kv, "source");
    k.fatbinEntry = str(kv, "fatbinEntry");
    k.bufferName = str(kv, "ptx");
    k.target = str(kv, "target");
    k.translated = str(kv, "status") == "translated";
    k.reason = str(kv, "reason");
    k.ptxInstructions = unsigned(num(kv, "ptxInstructions"));
    k.glslLines = unsigned(num(kv, "glslLines"));
    k.paramBytes = uint32_t(num(kv, "paramBytes"));
    k.ptxHash = str(kv, "ptxHash");
    k.glslHash = str(kv, "glslHash");
    if (k.id.empty() || k.key.empty()) {
      err = path + ":" + kv.where() + ": a kernel without an id or key";
      return false;
    }
    if (const json::Value* h = kv.find("histogram"); h && h->isObject())
      for (auto& [form, n] : h->obj) {
        uint64_t c = 0;
        n.toU64(c);
        k.histogram[form] = unsigned(c);
      }
    if (const json::Value* f = kv.find("files"); f && f->isObject())
      for (auto& [role, p] : f->obj)
        if (p.isString()) k.files[role] = p.str;
    auto load = [&](const char* role, std::string& into) {
      auto it = k.files.find(role);
      if (it == k.files.end()) return true;
      if (readFile(dir + "/" + it->second, into)) return true;
      err = "cannot read " + dir + "/" + it->second + " (listed in " + path + ")";
      return false;
    };
    if (!load("glsl", k.glsl) || !load("card", k.cardJson) || !load("diagnostics", k.diagnostics)) return false;
    res.kernels.push_back(std::move(k));
  }
  return true;
}

}  // namespace p2g::cli
