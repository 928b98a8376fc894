#include <algorithm>

#include "contract.h"
#include "pass.h"

namespace p2g {

const std::vector<PassInfo>& passRegistry() {
  static const std::vector<PassInfo> r = {
      {"contract", "fuse mul + add/sub into fma exactly where ptxas does (HAZARDS.md #4)", runContract},
  };
  return r;
}

const PassInfo* findPass(const std::string& name) {
  for (auto& p : passRegistry())
    if (name == p.name) return &p;
  return nullptr;
}

std::vector<std::string> defaultPipeline() { return {"contract"}; }

bool runPipeline(ir::Function& f, const PipelineOptions& opt, std::string& log, std::string& error) {
  std::vector<std::string> names = opt.passes.empty() ? defaultPipeline() : opt.passes;
  for (auto& n : names) {
    if (std::find(opt.disabled.begin(), opt.disabled.end(), n) != opt.disabled.end()) continue;
    const PassInfo* p = findPass(n);
    if (!p) {
      error = "unknown pass '" + n + "'";
      return false;
    }
    std::string err;
    PassResult r = p->run(f, err);
    log += n + ": " + (r == PassResult::Changed ? "changed" : r == PassResult::Unchanged ? "unchanged" : "failed") + "\n";
    if (r == PassResult::Failed) {
      error = "pass '" + n + "' failed: " + err;
      return false;
    }
    if (opt.validateEach) {
      std::string v = ir::validate(f);
      if (!v.empty()) {
        error = "IR invalid after pass '" + n + "': " + v;
        return false;
      }
    }
    if (opt.dumpEach) log += "--- IR after " + n + " ---\n" + ir::dump(f);
  }
  return true;
}

}  // namespace p2g
