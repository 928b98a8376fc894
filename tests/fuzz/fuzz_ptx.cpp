// libFuzzer target (a): the PTX front end and the translation to GLSL: parse, lift, passes, structurize, emit,
// and the formatting of every diagnostic (no glslang or spirv-val: fuzz_spirv covers that step on small inputs).
// A crash, a sanitizer report or an "internal error" diagnostic is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "translate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace p2g;
  ptx::SourceManager sm;
  int buf = sm.add("fuzz.ptx", std::string(reinterpret_cast<const char*>(data), size));
  ptx::DiagEngine diags(sm);
  TranslateOptions opt;
  opt.spirv = false;
  std::vector<EntryResult> out;
  translateBuffer(sm, buf, opt, diags, out);
  std::string text = diags.formatAll();   // the caret lines read the source again: NUL bytes, long lines, EOF
  fuzz::abortOnInternalError(diags);
  return 0;
}
