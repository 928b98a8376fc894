// libFuzzer target (b): case.json loading and validation (runtime/common: JSON, case format, launch shape,
// texture/surface specs, input generation, the parameter block against a translated kernel's layout), and the
// manifest reader. The layouts come from corpus kernels translated once at start-up (P2G_FUZZ_LAYOUT_PTX, set by
// tests/fuzz/CMakeLists.txt); a case is checked against the layout of the kernel it names, else against one
// picked by its length. Nothing is read from disk per input (the case folder does not exist, so "file" inits fail
// as they should); buffers over 1 MiB are not generated (the runner's own size limits are its business).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "case.h"
#include "images.h"
#include "inputs.h"
#include "manifest.h"
#include "params.h"
#include "translate.h"

namespace {

std::vector<p2g::Manifest> translateLayouts() {
  std::vector<p2g::Manifest> all;
  std::string list = P2G_FUZZ_LAYOUT_PTX;   // ';'-separated PTX paths
  size_t at = 0;
  while (at <= list.size()) {
    size_t end = list.find(';', at);
    if (end == std::string::npos) end = list.size();
    std::string path = list.substr(at, end - at);
    at = end + 1;
    if (path.empty()) continue;
    ptx::SourceManager sm;
    std::string err;
    int buf = sm.addFile(path, err);
    ptx::DiagEngine diags(sm);
    p2g::TranslateOptions opt;
    opt.spirv = false;
    std::vector<p2g::EntryResult> res;
    if (buf < 0 || !p2g::translateBuffer(sm, buf, opt, diags, res)) {
      fprintf(stderr, "fuzz_case: cannot translate %s: %s%s\n", path.c_str(), err.c_str(), diags.formatAll().c_str());
      abort();
    }
    for (auto& r : res) all.push_back(r.manifest);
  }
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace p2g;
  static const std::vector<Manifest> layouts = translateLayouts();
  std::string text(reinterpret_cast<const char*>(data), size);
  Manifest m;
  std::string merr;
  manifestFromJson(text, m, merr);

  CaseSpec c;
  std::string err;
  if (!parseCase(text, "/nonexistent/p2g-fuzz-case", c, err)) return 0;
  checkLaunchShape(c, err);
  for (auto& t : c.textures) checkImageSpec(t, true, "textures." + t.name, err);
  for (auto& s : c.surfaces) checkImageSpec(s, false, "surfaces." + s.name, err);
  for (auto& b : c.buffers) {
    if (b.bytes > (1u << 20)) continue;
    std::vector<uint8_t> bytes;
    generateInit(b.init, b.bytes, c.dir, "buffers." + b.name, bytes, err);
  }
  const Manifest* lay = &layouts[size % layouts.size()];
  for (auto& l : layouts)
    if (l.entry == c.kernel) lay = &l;
  if (!validateParams(c, lay->params, err)) return 0;
  std::vector<uint8_t> block;
  auto addressOf = [](char kind, const std::string& name) { return uint64_t(0x10000) * uint64_t(kind) + name.size(); };
  buildParamBlock(c, lay->params, lay->paramBytes, addressOf, block, err);
  return 0;
}
