// --check-bounds: a memory check in the generated shader, in the spirit of compute-sanitizer's memcheck.
//
// With EmitOptions::checkBounds every ld/ldu/st/atom/red whose address is not provably inside its state space at
// translation time runs only after a check (the instruction is wrapped in `if (p2g_chk_*(...))`):
//   - global (and generic addresses without a window tag): against the table of buffers the runtime bound, read
//     through a third push constant `uint64_t bounds` (docs/ABI.md, "--check-bounds");
//   - shared: against the static size plus the dynamic size (specialization constant 3);
//   - local, const and the kernel's parameter block: against their sizes.
// An access outside is skipped (a load leaves its destination unchanged), counted, and the first one is recorded
// with the thread, block, address, size and PTX line; the runtime reports it and refuses the case's results.
// The checks contain no loop (lavapipe's loop budget counts every loop iteration: docs/HAZARDS_IMPLEMENTED.md):
// the buffer table has a fixed 64 slots sorted by base address and is searched by an unrolled binary search.
// Without checkBounds nothing here is emitted and the shader is unchanged.
#pragma once
#include <cstdint>
#include <string>

#include "emitter.h"

namespace p2g {

// The bounds buffer's layout (kBoundsSlots, kBoundsTableAt, BoundsSpace) is part of the ABI in manifest.h.

// The GLSL declarations and check functions (after the push constant block and the specialization constants).
std::string boundsCheckText(const ir::Function& f);

// The condition to test before instruction `in` (PTX line `line`), or "" when it accesses no memory or the access
// is in bounds by construction (a variable's address plus a constant offset inside the variable's space).
std::string boundsCondition(Emitter& E, const ir::Inst& in, uint32_t line);

}  // namespace p2g
