// pair_sust (pair_sust.cpp): neighbouring scalar 16-bit surface stores as one pair store.
#pragma once
#include <string_view>

#include "pass.h"

namespace p2g {

// The mark of a pair store (an IR pseudo-modifier like exact_marks.h's): operands {A's address, A's value, B's
// value, B's address}; tex_prelude.cpp p2g_sust2 writes it.
inline constexpr std::string_view kMarkPair = "p2g.pair";

PassResult runPairSust(ir::Function& f, std::string& error);

}  // namespace p2g
