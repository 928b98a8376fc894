// Lifting: PTX AST -> IR (registers typed, symbols resolved, basic blocks built, calls inlined).
#pragma once
#include "ast.h"
#include "ir.h"

namespace p2g {

// Lifts entry `fn` of `mod`. Calls to .func bodies are inlined (recursion is an error). Errors go to `diags`.
bool liftEntry(const ptx::Module& mod, const ptx::Function& fn, ptx::DiagEngine& diags, ir::Function& out);

}  // namespace p2g
