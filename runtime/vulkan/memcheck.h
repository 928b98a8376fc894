// Memory safety of a launch (docs/RUNNER_SAFETY.md): the guard zones of every buffer, checked after each dispatch,
// and the host side of --check-bounds (the table of buffers the shader checks global addresses against, and the
// report of the first out-of-bounds access it recorded; the layout is in manifest.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "device.h"

namespace p2g::vk {

// One buffer of a launch, named for messages ("buffer 'x'", "the parameter block", ...).
struct Region {
  std::string what;
  const Buffer* buf = nullptr;
  bool inTable = false;       // the kernel may address it with ld/st/atom: listed for --check-bounds
  uint64_t addressable = 0;   // how many of its bytes, from the start (the table entry's size)
};

// "" when every guard zone is intact; otherwise, for each damaged buffer: which, and the changed byte range as
// offsets from its start. A byte the kernel overwrote with the canary's own value is not seen.
std::string guardDamage(const std::vector<Region>& regions);

// The --check-bounds table: (base, size) of the regions with inTable, sorted by address, padded with zeros to
// kBoundsSlots pairs (the values of the specialization constants, manifest.h). False when there are more regions.
bool boundsTable(const std::vector<Region>& regions, std::vector<uint64_t>& table, std::string& err);
// Clears the report in the bounds buffer (before each dispatch).
void clearBoundsRecord(Buffer& bounds);

// After a dispatch: "" when the shader recorded no out-of-bounds access; otherwise the first one,
//   thread (x,y,z) block (x,y,z) wrote 4 bytes at offset 256 of buffer 'partial' (256 bytes), ptx line N
// followed by how many there were. A global address outside every buffer is reported with the nearest one.
std::string boundsReport(const Buffer& bounds, const std::vector<Region>& regions, uint32_t staticShared,
                         uint32_t dynamicShared);

}  // namespace p2g::vk
