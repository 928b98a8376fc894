// exact_f32 (HAZARDS row 5): f32 operations computed on integer-decoded values, never on the device's f32 units.
//
// Evidence: NVIDIA's Vulkan driver flushes f32 denormals (shaderDenormPreserveFloat32 = false; denormal * 1.0000001
// gave 0), lavapipe keeps them, and PTX without .ftz keeps them: ptx_corpus/basic/f32_bits_convert differed in
// 281/98304 values on NVIDIA Vulkan when add/mul/compare used native f32 ops. The device's f32 conversions
// (double(x), float(d)) flush too, so the marked lowering widens f32 bits to double in integer code (p2g_f2d),
// computes in double (exact, or rounded to odd) and rounds once in integer code (p2g_narrow); comparisons, min/max
// and .sat look at the decoded values or at the bits. fma/mad and div/sqrt/rcp belong to exact_fma and exact_divsqrt.
#include "exact_marks.h"

namespace p2g {

PassResult runExactF32(ir::Function& f, std::string&) {
  return markAll(f, kMarkIeee, [](const ir::Inst& in) {
    if (in.op == "fma" || in.op == "mad" || in.op == "div" || in.op == "sqrt" || in.op == "rcp") return false;
    return hasAnyMod(in, {"f32", "bf16", "bf16x2"});
  });
}

}  // namespace p2g
