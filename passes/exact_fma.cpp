// exact_fma (HAZARDS row 3): fma.f32/mad.f32 (and the fmas `contract` makes) with one rounding on every device.
//
// Evidence: lavapipe's GLSL fma(a, b, c) is not fused (a = b = 1+2^-12, c = -(1+2^-11): lavapipe 0, NVIDIA 2^-24);
// Vulkan only requires fma "as OpFMul then OpFAdd". PTX fma.rn is always fused. The marked lowering (p2g_fma) forms
// the product exactly in double, adds with rounding to odd and rounds once in integer code.
#include "exact_marks.h"

namespace p2g {

PassResult runExactFma(ir::Function& f, std::string&) {
  return markAll(f, kMarkFused, [](const ir::Inst& in) {
    return (in.op == "fma" || in.op == "mad") && hasAnyMod(in, {"f32", "f64"});
  });
}

}  // namespace p2g
