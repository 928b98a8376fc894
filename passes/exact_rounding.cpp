// exact_rounding (HAZARDS row 6): per-instruction .rz/.rm/.rp on float add/sub/mul/fma/div/sqrt/rcp/cvt.
//
// Evidence: GLSL has no per-instruction rounding mode; NVIDIA Vulkan supports an RTZ execution mode for f32 but
// lavapipe does not, and a mode per instruction needs emulation anyway. The marked lowering rounds the exact (or
// round-to-odd) double result once in integer code in the requested mode (p2g_narrow). Unmarked, the emitter
// rounds to nearest (what a plain GLSL operation does) and says so in a warning.
#include "exact_marks.h"

namespace p2g {

PassResult runExactRounding(ir::Function& f, std::string&) {
  return markAll(f, kMarkRound, [](const ir::Inst& in) {
    return isFloatInst(in) && hasAnyMod(in, {"rz", "rm", "rp"});
  });
}

}  // namespace p2g
