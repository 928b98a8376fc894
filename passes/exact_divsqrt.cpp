// exact_divsqrt (HAZARDS row 7): div/sqrt/rcp.f32 and .f64 with a rounding modifier are correctly rounded.
//
// Evidence: Vulkan allows 2.5 ulp for division and inherits sqrt from inversesqrt; on NVIDIA Vulkan `1.0/x` equals
// rcp.approx.ftz and differs from rcp.rn on 580k of 4.2M sampled inputs. The marked lowering divides the
// significands with 64-bit integer division (p2g_div32) and takes an integer square root checked by exact squares
// (p2g_sqrt32), then rounds once in integer code: no device division or sqrt precision is involved. f64: long
// division and a digit-by-digit root of the significands (p2g_ddiv_r, p2g_dsqrt_r), rounded once by p2g_dround.
#include "exact_marks.h"

namespace p2g {

PassResult runExactDivSqrt(ir::Function& f, std::string&) {
  return markAll(f, kMarkCrDiv, [](const ir::Inst& in) {
    return (in.op == "div" || in.op == "sqrt" || in.op == "rcp") && hasAnyMod(in, {"f32", "f64"}) &&
           hasAnyMod(in, {"rn", "rz", "rm", "rp"});
  });
}

}  // namespace p2g
