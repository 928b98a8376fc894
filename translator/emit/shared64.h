// Shared variables that live in a 64-bit word array.
//
// Shared memory is one `uint smem[]` array because GLSL cannot alias a shared array with another type unless the
// device has VK_KHR_workgroup_memory_explicit_layout (lavapipe does not). 64-bit atomics need 64-bit storage, so a
// .shared variable whose every access is a scalar 64-bit ld/st/atom/red moves to a separate `uint64_t smem64[]`
// array. Which variable an access touches is found by address provenance: a register holds the address of variable
// V when it is defined by `mov r, V` or by add/sub/cvta of such a register and a non-address value. The split is
// made only when every shared access of the function has a known variable (otherwise nothing moves and 64-bit
// shared atomics stay refused).
#pragma once
#include <map>
#include <vector>

#include "ir.h"

namespace p2g {

struct Shared64Layout {
  std::vector<int> slotBase;               // per var: first smem64 index, -1 when the var stays in smem
  uint32_t words = 0;                      // smem64 length
  std::map<const ir::Inst*, int> accessVar;  // shared access -> variable (only filled when the split is made)
  bool isWide(int var) const { return var >= 0 && var < int(slotBase.size()) && slotBase[var] >= 0; }
};

Shared64Layout planShared64(const ir::Function& f);

}  // namespace p2g
