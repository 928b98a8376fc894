// contract: reproduces ptxas's floating-point contraction (HAZARDS.md #4).
//
// PTX mul + add/sub without rounding modifiers may be fused by ptxas into one fma; the bits differ, so the
// translator must fuse exactly where ptxas does. Measured on sm_90 through the CUDA driver JIT: a mul whose only
// use is an add/sub is fused (also with unrelated instructions between); a mul with a second use is not; .rn
// on either instruction forbids fusion.
// Needs: valid IR. Guarantees: each fused pair becomes one `fma.rn` marked `contracted` (a negated operand is
// materialised by an exact `neg`), the mul is removed; nothing else changes. Keeps: CFG, registers' meaning.
// Scope of the model: same basic block, same guard, same .ftz, mul without .sat, types f32/f64/f16/f16x2.
#pragma once
#include "pass.h"

namespace p2g {
PassResult runContract(ir::Function& f, std::string& error);
}
