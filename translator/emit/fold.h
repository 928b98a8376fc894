// Expression folding plan: which registers the emitter may leave unassigned, writing their value into their
// single use instead (the way SPIRV-Cross inlines single-use SSA values).
//
// Needs validated IR. Guarantees, for every register marked 1:
//  - it has exactly one definition and one use in the function (an instruction source or guard, or the branch
//    condition of a block), both in one block, the definition first, unguarded, with the register as its only
//    destination; so at the use the register holds the value of that definition in the same pass through the block;
//  - the definition is integer, bit or predicate work, or a copy (no float arithmetic: a float register is declared
//    `precise`, which keeps every rounding step of its value; written into an integer context the same operations
//    would lose NoContraction), or a plain load;
//  - no instruction from the definition up to and including the use writes a register the value reads, following
//    the values folded into it; for a value that reads memory, nothing in between (nor the use) touches memory,
//    synchronises or leaves the block's straight line.
// The emitter may still assign a marked register (when its handler's output does not allow the fold); the plan
// only says where folding is safe.
#pragma once
#include <cstdint>
#include <vector>

#include "ir.h"

namespace p2g {

std::vector<uint8_t> planFolds(const ir::Function& f);

}  // namespace p2g
