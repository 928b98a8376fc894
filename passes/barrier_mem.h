// barrier_mem (barrier_mem.cpp): which memory each CTA barrier must order (speed only; the bytes stay PTX's).
#pragma once
#include <string_view>

#include "pass.h"

namespace p2g {

// Marks (IR pseudo-modifiers, like pair_sust.h's) of a bar/barrier that need not order buffer and image memory:
// kMarkBarShared always (prelude.cpp p2g_bar_sync_s), kMarkBarParams when the kernel's pointer parameters point
// into distinct buffers (p2g_bar_sync_p, specialization constant P2G_PARAMS_DISJOINT).
inline constexpr std::string_view kMarkBarShared = "p2g.bar.shared";
inline constexpr std::string_view kMarkBarParams = "p2g.bar.params";

PassResult runBarrierMem(ir::Function& f, std::string& error);

}  // namespace p2g
