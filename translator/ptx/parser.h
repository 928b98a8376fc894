// PTX lexer + parser entry points.
#pragma once
#include "ast.h"

namespace ptx {

struct ParseOptions {
  bool keepLoc = false;  // keep .loc directives in function bodies (otherwise they are skipped, faster)
  // Parse and check every .entry body, but keep the statements of the last one only (the others are
  // Function::bodyDropped): a caller that handles one kernel at a time parses the other bodies again with
  // parseBody, so the memory held is two kernels' syntax trees at most, not the file's, and a file of one kernel is
  // parsed once (ptx2glsl translate). .func bodies are kept: any kernel may inline them.
  bool dropEntryBodies = false;
};

// Parses the whole buffer `buf` of `sm`. Errors go to `diags` (file:line:col with the offending text); parsing
// recovers at the next ';' or '}' where it can, and never crashes or hangs on any input.
// Returns true when no error was reported.
bool parseModule(const SourceManager& sm, int buf, DiagEngine& diags, Module& out, const ParseOptions& opt = {});

// Parses the body of `f` again into f.body (after parseModule with dropEntryBodies, which checked it: the same
// statements, no diagnostics). Returns false, with an error, when the body does not parse.
bool parseBody(const SourceManager& sm, int buf, DiagEngine& diags, Function& f, const ParseOptions& opt = {});

}  // namespace ptx
