#include "card.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "binary.h"
#include "files.h"
#include "handles.h"
#include "json.h"
#include "lift.h"
#include "parser.h"

namespace p2g::cli {

bool buildCard(const ptx::SourceManager& sm, const ptx::Module& mod, const ptx::Function& fn, const std::string& ptxName,
               ptx::DiagEngine& diags, Card& out) {
  out = Card();
  out.entry = std::string(fn.name);
  out.ptx = ptxName;
  ir::Function f;
  if (!liftEntry(mod, fn, diags, f)) return false;
  out.paramBytes = f.paramBytes;
  out.params = f.params;
  // A handle that cannot be traced is an error for translation; the card lists the rest and says which failed.
  ptx::DiagEngine imageDiags(sm);
  std::vector<ManifestImage> images;
  resolveImageHandles(f, imageDiags, images);
  for (auto& d : imageDiags.all())
    if (d.sev == ptx::Severity::Error) {
      ptx::LineCol lc = d.span.begin ? sm.resolve(d.span.begin) : ptx::LineCol{};
      out.notes.push_back((lc.line ? "line " + std::to_string(lc.line) + ": " : std::string()) + d.message);
    }
  for (auto& im : images)
    if (!im.texref.empty()) out.texrefs.push_back(im);
  std::vector<ManifestParamField> map;
  std::map<uint32_t, ParamFieldSites> sites;
  mapParamBlock(f, images, map, &sites);
  auto lines = [&](const std::vector<ptx::Span>& spans) {
    std::vector<uint32_t> v;
    for (auto& s : spans) {
      uint32_t l = s.begin ? sm.resolve(s.begin).line : 0;
      if (l && std::find(v.begin(), v.end(), l) == v.end()) v.push_back(l);
    }
    std::sort(v.begin(), v.end());
    return v;
  };
  for (auto& m : map) {
    CardField cf;
    cf.field = m;
    for (auto& p : out.params)
      if (m.offset >= p.offset && m.offset < p.offset + p.bytes) cf.param = p.name;
    auto it = sites.find(m.offset);
    if (it != sites.end()) {
      cf.loads = unsigned(it->second.loads.size());
      cf.loadLines = lines(it->second.loads);
      cf.useLines = lines(it->second.uses);
    }
    out.fields.push_back(std::move(cf));
  }
  return true;
}

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string joinLines(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string jsonLines(const std::vector<uint32_t>& v) { return "[" + joinLines(v) + "]"; }

std::string jsonStrings(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json::quote(v[i]);
  return s + "]";
}

}  // namespace

std::string cardUsage(const CardField& f) {
  std::string s = f.loads == 1 ? "loaded once" : "loaded " + std::to_string(f.loads) + " times";
  const std::string& k = f.field.kind;
  std::string forms = join(f.field.uses, ", ");
  if (k == "texture") s += "; as a texture in " + forms;
  else if (k == "surface") s += "; as a surface in " + forms;
  else if (k == "buffer") s += "; as an address in " + forms;
  else if (!forms.empty()) s += "; as a value in " + forms;
  else s += "; the value is not used";
  return s;
}

std::string offsetsOfKind(const Card& c, const std::string& kind) {
  std::string s;
  for (auto& f : c.fields)
    if (f.field.kind == kind) s += (s.empty() ? "" : ", ") + std::to_string(f.field.offset);
  return s;
}

std::string cardMarkdown(const Card& c) {
  std::string o = "# Parameter block of `" + c.entry + "` (" + c.ptx + ")\n\n";
  o += "P = parameter block (" + std::to_string(c.paramBytes) + " bytes). Offsets below are absolute in P.\n";
  const char* kinds[][2] = {{"texture", "Textures"}, {"buffer", "Buffers"}, {"surface", "Surfaces"}, {"scalar", "Scalars"}};
  for (auto& k : kinds) {
    std::string offs = offsetsOfKind(c, k[0]);
    o += std::string(k[1]) + ": " + (offs.empty() ? "none" : offs) + ".\n";
  }
  for (auto& t : c.texrefs)
    o += "Module " + t.kind + " `" + t.texref + "`: as a " + t.kind + " in " + join(t.uses, ", ") + ".\n";
  for (auto& n : c.notes) o += "Not traced: " + n + "\n";
  o += "\n| parameter | offset | bytes | type |\n|---|---|---|---|\n";
  for (auto& p : c.params)
    o += "| " + mdCell(p.name) + " | " + std::to_string(p.offset) + " | " + std::to_string(p.bytes) + " | " +
         (p.isPtr ? "ptr " : "") + p.type + (p.isArray ? "[]" : "") + " |\n";
  o += "\n| offset | size | kind | type | uses | PTX lines (loads; uses) |\n|---|---|---|---|---|---|\n";
  for (auto& f : c.fields)
    o += "| " + std::to_string(f.field.offset) + " | " + std::to_string(f.field.bytes) + " | " + f.field.kind + " | " +
         f.field.type + " | " + mdCell(cardUsage(f)) + " | " + joinLines(f.loadLines) + "; " +
         joinLines(f.useLines) + " |\n";
  if (c.fields.empty()) o += "| - | - | - | - | no parameter is loaded at a constant offset | - |\n";
  return o;
}

std::string cardJson(const Card& c) {
  std::string o = "{\n";
  o += "  \"entry\": " + json::quote(c.entry) + ",\n";
  o += "  \"ptx\": " + json::quote(c.ptx) + ",\n";
  o += "  \"paramBytes\": " + std::to_string(c.paramBytes) + ",\n";
  o += "  \"params\": [";
  for (size_t i = 0; i < c.params.size(); ++i) {
    auto& p = c.params[i];
    o += std::string(i ? "," : "") + "\n    {\"name\": " + json::quote(p.name) + ", \"offset\": " +
         std::to_string(p.offset) + ", \"bytes\": " + std::to_string(p.bytes) + ", \"type\": " + json::quote(p.type) +
         ", \"isPtr\": " + (p.isPtr ? "true" : "false") + ", \"isArray\": " + (p.isArray ? "true" : "false") + "}";
  }
  o += c.params.empty() ? "],\n" : "\n  ],\n";
  for (const char* k : {"texture", "buffer", "surface", "scalar"}) {
    std::vector<std::string> offs;
    for (auto& f : c.fields)
      if (f.field.kind == k) offs.push_back(std::to_string(f.field.offset));
    o += "  \"" + std::string(k) + "s\": [" + join(offs, ", ") + "],\n";
  }
  o += "  \"texrefs\": [";
  for (size_t i = 0; i < c.texrefs.size(); ++i)
    o += std::string(i ? ", " : "") + "{\"name\": " + json::quote(c.texrefs[i].texref) + ", \"kind\": " +
         json::quote(c.texrefs[i].kind) + ", \"uses\": " + jsonStrings(c.texrefs[i].uses) + "}";
  o += "],\n  \"notes\": " + jsonStrings(c.notes) + ",\n";
  o += "  \"fields\": [";
  for (size_t i = 0; i < c.fields.size(); ++i) {
    auto& f = c.fields[i];
    o += std::string(i ? "," : "") + "\n    {\"offset\": " + std::to_string(f.field.offset) + ", \"bytes\": " +
         std::to_string(f.field.bytes) + ", \"kind\": " + json::quote(f.field.kind) + ", \"type\": " +
         json::quote(f.field.type) + ", \"param\": " + json::quote(f.param) + ", \"loads\": " +
         std::to_string(f.loads) + ", \"uses\": " + jsonStrings(f.field.uses) + ", \"usage\": " +
         json::quote(cardUsage(f)) + ", \"loadLines\": " + jsonLines(f.loadLines) + ", \"useLines\": " +
         jsonLines(f.useLines) + "}";
  }
  o += c.fields.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return o;
}

}  // namespace p2g::cli

namespace p2g::cli {

namespace {

const char* kCardHelp =
    "usage: ptx2glsl card FILE [--entry NAME] [--json]\n"
    "  The parameter-block card of each kernel (.entry) of FILE: every byte offset the kernel loads, with its size,\n"
    "  kind (texture / surface / buffer / scalar, from the translator's handle and address analysis), PTX type,\n"
    "  use (loaded once or N times; as a texture in tex/tld4, as a surface in suld/sust, as an address, as a\n"
    "  value) and the PTX lines of the loads and uses. FILE is a .ptx file or anything `extract` reads (every PTX\n"
    "  entry of a binary is carded).\n"
    "  --entry NAME   only this kernel\n"
    "  --json         JSON ({\"cards\": [...]}) instead of markdown\n"
    "Exit status 0; 1 when the file cannot be read or parsed, or has no such entry; 2 on bad usage.\n";

}  // namespace

int cmdCard(int argc, char** argv) {
  std::string file, entry;
  bool asJson = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      fputs(kCardHelp, stdout);
      return 0;
    }
    if (a == "--entry") {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl card: --entry needs a name\n");
        return 2;
      }
      entry = argv[++i];
    } else if (a == "--json") asJson = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl card: unknown option '%s'\n%s", a.c_str(), kCardHelp);
      return 2;
    } else if (file.empty()) file = a;
    else {
      fprintf(stderr, "ptx2glsl card: one input file expected, got '%s' too\n", a.c_str());
      return 2;
    }
  }
  if (file.empty()) {
    fputs(kCardHelp, stderr);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> texts;
  std::string err;
  if (!ptxTexts(file, texts, err)) {
    fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  std::vector<std::string> md, js;
  bool failed = false, found = false;
  for (auto& [name, text] : texts) {
    ptx::SourceManager sm;
    int buf = sm.add(name, std::move(text));
    ptx::DiagEngine diags(sm);
    ptx::Module mod;
    if (!ptx::parseModule(sm, buf, diags, mod)) {
      fputs(diags.formatAll().c_str(), stderr);
      failed = true;
      continue;
    }
    for (auto& fn : mod.functions) {
      if (!fn.isEntry || !fn.hasBody || (!entry.empty() && fn.name != entry)) continue;
      found = true;
      Card c;
      ptx::DiagEngine d(sm);
      if (!buildCard(sm, mod, fn, name, d, c)) {
        fputs(d.formatAll().c_str(), stderr);
        failed = true;
        continue;
      }
      md.push_back(cardMarkdown(c));
      js.push_back(cardJson(c));
    }
  }
  if (!found && !failed) {
    fprintf(stderr, "ptx2glsl card: error: %s: %s\n", file.c_str(),
            entry.empty() ? "no .entry with a body" : ("no .entry named '" + entry + "'").c_str());
    return 1;
  }
  if (failed) return 1;
  if (asJson) {
    std::string o = "{\"cards\": [\n";
    for (size_t i = 0; i < js.size(); ++i) o += (i ? ",\n" : "") + js[i];
    o += "]}\n";
    fputs(o.c_str(), stdout);
  } else {
    for (size_t i = 0; i < md.size(); ++i) printf("%s%s", i ? "\n" : "", md[i].c_str());
  }
  return 0;
}

}  // namespace p2g::cli
