// Facts about PTX kernels that the build reports need without translating: instruction forms, their counts, the
// text of an entry, and which instruction a diagnostic points at.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ast.h"

namespace p2g::cli {

// "ld.global.nc.v4.f32": the opcode and its modifiers in source order.
std::string instrForm(const ptx::Instr& in);

// Instructions of the entry's own body (called .func bodies are counted where they are defined), by form.
std::map<std::string, unsigned> instrHistogram(const ptx::Function& fn);
unsigned instrCount(const ptx::Function& fn);

// The source text of a function, from its directive to the closing brace (identity of a kernel across builds:
// it does not change when other kernels move the entry to other lines).
std::string functionText(const ptx::Module& mod, const ptx::Function& fn, std::string_view buffer);

// Every instruction of a module by position, to name the instruction a diagnostic points into.
class InstrIndex {
 public:
  explicit InstrIndex(const ptx::Module& mod);
  // The instruction whose statement contains `p`; nullptr when none does.
  const ptx::Instr* find(const char* p) const;

 private:
  std::vector<const ptx::Instr*> instrs_;  // sorted by statement start
};

}  // namespace p2g::cli
