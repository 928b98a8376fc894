// Shared by the libFuzzer targets of tests/fuzz (docs/FUZZING.md): what counts as a finding besides a crash, a
// sanitizer report, a hang or a leak, which libFuzzer catches itself.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "source.h"

namespace p2g::fuzz {

// Bad input must end in a clear diagnostic; "internal error" means the translator broke its own invariants
// (invalid IR after lifting, a structurizer failure, GLSL that glslang rejects, SPIR-V that spirv-val rejects).
// Abort so libFuzzer saves the input as a crash.
inline void abortOnInternalError(const ptx::DiagEngine& diags) {
  for (auto& d : diags.all()) {
    if (d.message.find("internal error") != std::string::npos) {
      fprintf(stderr, "fuzz: translator reported an internal error:\n%s\n", diags.format(d).c_str());
      abort();
    }
  }
}

}  // namespace p2g::fuzz
