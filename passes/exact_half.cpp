// exact_half (HAZARDS rows 1, 2): conversions to and from f16/bf16 in integer code, constants as bit patterns.
//
// Evidence: glslang folds float16_t(-0.041351) to 0xA94A (round toward zero, KhronosGroup/glslang#4241; RNE gives
// 0xA94B), and NVIDIA's Vulkan driver and RADV remove the rounding of float(float16_t(x)). The marked lowering
// rounds through p2g_narrow and widens through p2g_h2d/p2g_bf2d (integer code the compilers cannot fold away and
// that rounds constants the same way as run-time values). Unmarked, cvt uses packHalf2x16/unpackHalf2x16.
#include "exact_marks.h"

namespace p2g {

PassResult runExactHalf(ir::Function& f, std::string&) {
  return markAll(f, kMarkHalf, [](const ir::Inst& in) {
    return in.op == "cvt" && hasAnyMod(in, {"f16", "f16x2", "bf16", "bf16x2"});
  });
}

}  // namespace p2g
