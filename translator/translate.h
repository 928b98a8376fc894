// The translator pipeline for one PTX file: parse -> lift -> passes -> structurize -> emit GLSL -> SPIR-V -> validate.
#pragma once
#include <string>
#include <vector>

#include "emitter.h"
#include "manifest.h"
#include "pass.h"
#include "ast.h"
#include "source.h"

namespace p2g {

struct TranslateOptions {
  std::string entry;           // only this entry ("" = every .entry)
  EmitOptions emit;
  PipelineOptions pipeline;
  bool spirv = true;           // compile and validate
  bool f16Variant = false;     // also the f16 module variant (EntryResult::spirvF16) of kernels with f16 arithmetic
  bool dumpIr = false;
  int threads = 0;             // entries translated at once (0 = one per core; results and messages in file order)
};

struct EntryResult {
  std::string name;
  std::string glsl;
  std::vector<uint32_t> spirv;
  std::vector<uint32_t> spirvF16;  // the f16 module variant (Manifest::spirvF16), empty when there is none
  Manifest manifest;
  std::string passLog;         // per-pass changed/unchanged (+ IR dumps when asked)
};

struct Timings {
  double parseMs = 0, glslangMs = 0, validateMs = 0;
  double liftMs = 0, passesMs = 0, structurizeMs = 0, emitMs = 0;  // PTX to GLSL after the parse, per stage
};

// Translates `ptxPath` (already loaded as buffer `buf` of `sm`). Errors and warnings go to `diags`; returns false
// on any error (and then `out` holds only what succeeded before it, for no caller writes partial results).
bool translateBuffer(const ptx::SourceManager& sm, int buf, const TranslateOptions& opt, ptx::DiagEngine& diags,
                     std::vector<EntryResult>& out, Timings* timings = nullptr);

// The same for a module already parsed from buffer `buf` (batch translation parses a file once and translates its
// entries on several threads: `mod` and `sm` are only read, so threads may share them, each with its own `diags`).
bool translateParsed(const ptx::SourceManager& sm, int buf, const ptx::Module& mod, const TranslateOptions& opt,
                     ptx::DiagEngine& diags, std::vector<EntryResult>& out, Timings* timings = nullptr);

}  // namespace p2g
