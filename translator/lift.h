// Lifting: PTX AST -> IR (registers typed, symbols resolved, basic blocks built, calls inlined).
#pragma once
#include <functional>

#include "ast.h"
#include "forms.h"
#include "ir.h"

namespace p2g {

struct LiftOptions {
  // Sees every instruction's form verdict (forms.h) as it is lifted: `ptx2glsl ops --histogram`. Errors are
  // reported to the DiagEngine either way.
  std::function<void(const ptx::Instr&, const ir::Inst*, const ir::Function&, const FormResult&)> onForm;
  // false: calls are not inlined, and a .func may be lifted on its own (its parameters become registers and
  // local variables), so that each body is looked at once.
  bool inlineCalls = true;
};

// The most instructions one entry may have after its calls are inlined: a call tree that doubles at each level
// reaches billions long before the call-depth limit.
constexpr size_t kMaxLiftedInstructions = 1'000'000;

// Lifts entry `fn` of `mod`. Calls to .func bodies are inlined (recursion is an error). Every instruction is
// checked against the instruction table (forms.h) on the way. Errors go to `diags`.
bool liftEntry(const ptx::Module& mod, const ptx::Function& fn, ptx::DiagEngine& diags, ir::Function& out,
               const LiftOptions& opt = {});

}  // namespace p2g
