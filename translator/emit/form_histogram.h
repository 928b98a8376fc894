// `ptx2glsl ops --histogram FILE...`: every instruction form found in PTX files with the form check's verdict
// (forms.h), counted, and for each refused form what its handler alone does with it (emits it without a word,
// that is, the form was silently accepted before the check existed, or refuses it too). docs/MODIFIER_CHECK.md is
// made from its output.
#pragma once

namespace p2g {

int formHistogramCommand(int argc, char** argv);

}  // namespace p2g
