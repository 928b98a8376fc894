// --check-bounds: a memory check in the generated shader, in the spirit of compute-sanitizer's memcheck.
//
// With EmitOptions::checkBounds every ld/ldu/st/atom/red whose address is not provably inside its state space at
// translation time runs only after a check (the instruction is wrapped in `if (p2g_chk_*(...))`):
//   - global (and generic addresses without a window tag): against the buffers the runtime bound, whose bases and
//     sizes are specialization constants (docs/ABI.md, "--check-bounds");
//   - shared: against the static size plus the dynamic size (specialization constant 3);
//   - local, const and the kernel's parameter block: against their sizes.
// An access outside is skipped (a load leaves its destination unchanged) and counted; each thread keeps its first
// one in private variables, and writes them to the bounds buffer (a third push constant `uint64_t bounds`) when it
// returns: the first thread there records its access (thread, block, address, size, PTX line) for the runtime to
// report, and the runtime refuses the case's results.
// Why this shape (measured on lavapipe, docs/RUNNER_SAFETY.md): llvmpipe runs both sides of a divergent branch
// under a mask, so whatever a check could do is paid at every check. A first version read a 64-entry table from
// memory (an unrolled binary search) and recorded a violation with atomics at the check: transpose_2d ran 15x
// slower and rrlite/k_output did not finish 2 blocks in 300 s (0.9 s without checks). Constants and private
// variables cost a few compares per live buffer. The checks contain no loop (lavapipe's loop budget counts every
// loop iteration: docs/HAZARDS_IMPLEMENTED.md). Without checkBounds nothing here is emitted.
#pragma once
#include <cstdint>
#include <string>

#include "emitter.h"

namespace p2g {

// The bounds buffer's layout (kBoundsSlots, kBoundsSpecId, kBoundsBytes, BoundsSpace) is part of the ABI in manifest.h.

// The GLSL declarations and check functions (after the push constant block and the specialization constants).
std::string boundsCheckText(const ir::Function& f);
// What main() runs before each return and at its end: the thread's out-of-bounds accesses go to the bounds buffer.
inline const char* kBoundsFlush = "p2g_cb_flush();";

// The condition to test before instruction `in` (PTX line `line`), or "" when it accesses no memory or the access
// is in bounds by construction (a variable's address plus a constant offset inside the variable's space).
std::string boundsCondition(Emitter& E, const ir::Inst& in, uint32_t line);

}  // namespace p2g
