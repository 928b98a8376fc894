// The exact-mode passes (issue 3): one pass per bit-exactness hazard of ../shared/docs/HAZARDS.md. Each pass only
// marks the instructions its hazard concerns by appending one of the modifiers below to Inst::mods; the emitter
// (translator/emit/emit_float.cpp, emit_cvt.cpp) lowers a marked instruction exactly and an unmarked one with the
// device's own operation. So removing one pass (`--disable-pass NAME`) brings back exactly one hazard, which is how
// tests/ops shows that each pass is needed. `ptx2glsl --native` leaves out the passes listed in nativeOmits().
//
// Needs: valid IR (after `contract`, so contracted fmas are marked too). Guarantees: only mods grow; nothing else
// changes. Keeps: everything.
#pragma once
#include <string_view>
#include <vector>

#include "pass.h"

namespace p2g {

// The marks (IR pseudo-modifiers, never PTX syntax: the '.' inside keeps them apart from PTX modifiers).
inline constexpr std::string_view kMarkIeee = "p2g.ieee";      // f32 values decoded by integer code (row 5)
inline constexpr std::string_view kMarkFused = "p2g.fused";    // one rounding for fma/mad (row 3)
inline constexpr std::string_view kMarkRound = "p2g.round";    // honour .rz/.rm/.rp (row 6)
inline constexpr std::string_view kMarkCrDiv = "p2g.crdiv";    // correctly rounded div/sqrt/rcp (row 7)
inline constexpr std::string_view kMarkNan = "p2g.nan";        // NVIDIA's NaN, min/max and unordered rules (row 14)
inline constexpr std::string_view kMarkHalf = "p2g.h16";       // f16/bf16 conversions in integer code (rows 1, 2)
inline constexpr std::string_view kMarkFp8 = "p2g.fp8";        // fp8 conversions in integer code (row 13)
inline constexpr std::string_view kMarkSfu = "p2g.sfu";        // NVIDIA's SFU approximations as models (row 8)
inline constexpr std::string_view kMarkSignOnly = "p2g.signonly";  // neg/abs.f32 whose NaN no one sees (row 14)

PassResult runExactF32(ir::Function& f, std::string& error);
PassResult runExactFma(ir::Function& f, std::string& error);
PassResult runExactRounding(ir::Function& f, std::string& error);
PassResult runExactDivSqrt(ir::Function& f, std::string& error);
PassResult runExactNan(ir::Function& f, std::string& error);
PassResult runExactHalf(ir::Function& f, std::string& error);
PassResult runExactFp8(ir::Function& f, std::string& error);
PassResult runExactSfu(ir::Function& f, std::string& error);
bool isSfuInst(const ir::Inst& in);   // the instructions exact_sfu marks

// Shared by the passes: appends `mark` to every instruction `pick` selects; Changed when any was marked.
template <class Pick>
PassResult markAll(ir::Function& f, std::string_view mark, Pick pick) {
  bool changed = false;
  for (auto& b : f.blocks)
    for (auto& in : b.insts)
      if (pick(in) && !in.hasMod(mark)) {
        in.mods.push_back(mark);
        changed = true;
      }
  return changed ? PassResult::Changed : PassResult::Unchanged;
}

inline bool hasAnyMod(const ir::Inst& in, std::initializer_list<std::string_view> ms) {
  for (auto m : ms)
    if (in.hasMod(m)) return true;
  return false;
}
inline bool isFloatInst(const ir::Inst& in) {
  return hasAnyMod(in, {"f32", "f64", "f16", "f16x2", "bf16", "bf16x2"});
}

// The passes `--native` leaves out, with the hazard rows that this leaves open.
struct NativeOmit {
  const char* pass;
  const char* hazard;
};
const std::vector<NativeOmit>& nativeOmits();

}  // namespace p2g
