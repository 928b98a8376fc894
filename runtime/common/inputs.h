// The input generator: the bytes a buffer starts with. docs/CASE_INPUTS.md is the normative description; this is
// the one implementation every runner uses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "case.h"

namespace p2g {

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): a 64-bit state
// advanced by a fixed odd constant and a bijective finalizer. Chosen because it is tiny, has no bad seeds (0 is
// fine) and is easy to reimplement exactly in any language.
struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Fills `out` (resized to `bytes`) per `init`; `caseDir` resolves file paths. `what` names the buffer in errors.
bool generateInit(const InitSpec& init, uint64_t bytes, const std::string& caseDir, const std::string& what,
                  std::vector<uint8_t>& out, std::string& err);

}  // namespace p2g
