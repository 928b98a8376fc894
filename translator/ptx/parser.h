// PTX lexer + parser entry points.
#pragma once
#include "ast.h"

namespace ptx {

struct ParseOptions {
  bool keepLoc = false;  // keep .loc directives in function bodies (otherwise they are skipped, faster)
};

// Parses the whole buffer `buf` of `sm`. Errors go to `diags` (file:line:col with the offending text); parsing
// recovers at the next ';' or '}' where it can, and never crashes or hangs on any input.
// Returns true when no error was reported.
bool parseModule(const SourceManager& sm, int buf, DiagEngine& diags, Module& out, const ParseOptions& opt = {});

}  // namespace ptx
