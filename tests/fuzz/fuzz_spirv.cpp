// libFuzzer target (c): the SPIR-V step on small inputs: PTX through the whole translator, then glslang and
// spirv-val on the GLSL it emits. Every GLSL the translator accepts to write must compile and validate, so a
// glslang or spirv-val rejection ("internal error") is a finding, like a crash. Inputs over 4 KiB are skipped
// (glslang dominates the time; fuzz_ptx covers large inputs of the front end).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "translate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace p2g;
  if (size > 4096) return -1;   // not added to the corpus
  ptx::SourceManager sm;
  int buf = sm.add("fuzz.ptx", std::string(reinterpret_cast<const char*>(data), size));
  ptx::DiagEngine diags(sm);
  TranslateOptions opt;
  std::vector<EntryResult> out;
  translateBuffer(sm, buf, opt, diags, out);
  fuzz::abortOnInternalError(diags);
  return 0;
}
