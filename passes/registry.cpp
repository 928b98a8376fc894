#include <algorithm>

#include "barrier_mem.h"
#include "contract.h"
#include "exact_marks.h"
#include "pair_sust.h"
#include "pass.h"

namespace p2g {

const std::vector<PassInfo>& passRegistry() {
  static const std::vector<PassInfo> r = {
      {"contract", "fuse mul + add/sub into fma exactly where ptxas does (HAZARDS.md #4)", runContract},
      {"exact_f32", "f32 operations on integer-decoded values, independent of device denormal flushing (HAZARDS.md #5)", runExactF32},
      {"exact_fma", "fma/mad with one rounding on devices that do not fuse (HAZARDS.md #3)", runExactFma},
      {"exact_rounding", "per-instruction .rz/.rm/.rp emulated by one integer rounding (HAZARDS.md #6)", runExactRounding},
      {"exact_divsqrt", "correctly rounded div/sqrt/rcp .rn/.rz/.rm/.rp (HAZARDS.md #7)", runExactDivSqrt},
      {"exact_nan", "canonical NaN, PTX min/max and unordered setp rules (HAZARDS.md #14)", runExactNan},
      {"exact_half", "f16/bf16 conversions in integer code, no foldable float16_t (HAZARDS.md #1, #2)", runExactHalf},
      {"exact_fp8", "e4m3x2/e5m2x2 conversions in integer code (HAZARDS.md #13)", runExactFp8},
      {"exact_sfu", "NVIDIA's SFU approximations (.approx, div.full) by exact software models (HAZARDS.md #8)", runExactSfu},
      {"pair_sust", "neighbouring 16-bit surface stores as one pair store, a 32-bit word where it fits (speed only)", runPairSust},
      {"barrier_mem", "CTA barriers order buffer and image memory only where accesses across them may meet (speed only)", runBarrierMem},
  };
  return r;
}

const PassInfo* findPass(const std::string& name) {
  for (auto& p : passRegistry())
    if (name == p.name) return &p;
  return nullptr;
}

std::vector<std::string> defaultPipeline() {
  return {"contract", "exact_f32", "exact_fma", "exact_rounding", "exact_divsqrt", "exact_nan", "exact_half", "exact_fp8", "exact_sfu", "pair_sust", "barrier_mem"};
}

// --native keeps contract (it is PTX semantics, not a device workaround), the NaN rules, the half and fp8
// conversions (no native equivalent is known identical), and drops the passes whose device operation may be
// identical on some device (measure before relying on it).
const std::vector<NativeOmit>& nativeOmits() {
  static const std::vector<NativeOmit> v = {{"exact_f32", "#5 f32 denormals (NVIDIA Vulkan flushes)"},
                                            {"exact_fma", "#3 fma not fused (lavapipe)"},
                                            {"exact_rounding", "#6 .rz/.rm/.rp rounded to nearest"},
                                            {"exact_divsqrt", "#7 div/sqrt/rcp precision of the device"},
                                            {"exact_sfu", "#8 SFU approximations (the device's exp2/inversesqrt/...)"}};
  return v;
}

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
