// exact_nan (HAZARDS row 14): NVIDIA's NaN results and the PTX rules for min/max, setp and sign operations.
//
// Evidence: PTX min/max return the non-NaN operand (.NaN forms propagate), -0 orders below +0; setp has ordered
// and unordered comparisons; NVIDIA's float units return the canonical NaN 0x7FFFFFFF, measured on the H200 for
// f32 arithmetic (f32_bits_convert rows 13-19) and for neg.f32 of a NaN with a payload (row 23). GLSL min/max of a
// NaN are undefined and a plain `<` is ordered. Unmarked, the emitter uses GLSL min/max, plain comparisons and
// leaves NaN payloads alone.
#include "exact_marks.h"

namespace p2g {

PassResult runExactNan(ir::Function& f, std::string&) {
  return markAll(f, kMarkNan, [](const ir::Inst& in) { return isFloatInst(in) && in.op != "cvt" && in.op != "mov"; });
}

}  // namespace p2g
