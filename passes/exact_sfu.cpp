// exact_sfu (HAZARDS row 8): NVIDIA's approximate instructions (rcp/rsqrt/sqrt/ex2 .approx f32, the 16-bit ex2
// forms, div.approx/div.full f32) are computed by the software models of translator/emit/sfu_models.h, transcribed
// to GLSL in sfu_prelude.cpp. Unmarked, they become the device's exp2/inversesqrt/sqrt/division.
//
// Evidence: docs/SFU.md. The hardware results are table lookups with interpolation whose bits no GLSL builtin
// promises (Vulkan allows 3 ulp for exp2 and 2 ulp for inversesqrt); lavapipe's exp2 differs from ex2.approx on
// most inputs (ptx_corpus/rrlite/k_output's tokens_out, 17,044 of 57,600 values, before this pass). The models
// are verified over all 2^32 inputs on the H200 (ptx_corpus/sfu/data/verify.txt).
#include "exact_marks.h"

namespace p2g {

bool isSfuInst(const ir::Inst& in) {
  if (!in.hasMod("approx") && !(in.op == "div" && in.hasMod("full"))) return false;
  if (in.op == "div") return in.hasMod("f32");
  static const char* const ops[] = {"rcp", "rsqrt", "sqrt", "ex2", "lg2", "sin", "cos", "tanh"};
  for (const char* o : ops)
    if (in.op == o) return hasAnyMod(in, {"f32", "f16", "f16x2", "bf16", "bf16x2"});
  return false;
}

PassResult runExactSfu(ir::Function& f, std::string&) { return markAll(f, kMarkSfu, isSfuInst); }

}  // namespace p2g
