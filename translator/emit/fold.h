// Expression folding plan: which registers the emitter may leave unassigned, writing their value into their
// single use instead (the way SPIRV-Cross inlines single-use SSA values).
//
// Needs validated IR. Guarantees, for every register marked kFoldable:
//  - it has exactly one definition and one use in the function (an instruction source or guard, or the branch
//    condition of a block), both in one block, the definition first, unguarded, with the register as its only
//    destination or as one element of an unpacking mov's destination (`mov.b32 {lo, hi}, %r`); so at the use the
//    register holds the value of that definition in the same pass through the block;
//  - the definition is register work that touches no memory and no hidden state (integer, bit, predicate or float
//    arithmetic, conversions, copies), or a plain load. A float value is folded only when its text has no float
//    operator (the emitter checks: a helper call, a bit cast, a select), since out of its `precise` register an
//    operator would lose NoContraction;
//  - no instruction from the definition up to and including the use writes a register the value reads, following
//    the values folded into it; for a value that reads memory, nothing in between (nor the use) touches memory,
//    synchronises or leaves the block's straight line.
// A register marked kDead has one definition of that kind (no load), unguarded, and no use at all: its assignment
// may be left out.
// The emitter may still assign a marked register (when its handler's output does not allow the fold); the plan
// only says where folding is safe.
#pragma once
#include <cstdint>
#include <vector>

#include "ir.h"

namespace p2g {

enum : uint8_t { kFoldable = 1, kDead = 2 };

std::vector<uint8_t> planFolds(const ir::Function& f);

// The instruction names a float type among its modifiers (its result may be float work written as integer bits).
bool floatTyped(const ir::Inst& in);

}  // namespace p2g
