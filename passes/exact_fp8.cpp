// exact_fp8 (HAZARDS row 13): cvt to and from e4m3x2/e5m2x2 emulated in integer code.
//
// Evidence: no Vulkan device here has fp8 types. PTX: cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2 rounds to nearest even
// including subnormals, NaN gives 0x7F, |x| above the largest finite value (448 / 57344, infinities included)
// saturates to it; .relu makes negative results +0. Unmarked, fp8 conversions do not translate.
#include "exact_marks.h"

namespace p2g {

PassResult runExactFp8(ir::Function& f, std::string&) {
  return markAll(f, kMarkFp8, [](const ir::Inst& in) { return in.op == "cvt" && hasAnyMod(in, {"e4m3x2", "e5m2x2"}); });
}

}  // namespace p2g
