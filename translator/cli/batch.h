// Batch translation: every kernel of a set of binaries, folders and PTX files, translated on N threads, with a
// report. Also the engine of diff-build, which compares two such sets.
//
// Threads: a source's parsed module and its SourceManager are shared read-only by the threads translating its
// entries (translateParsed); everything a kernel writes (diagnostics, IR, GLSL, SPIR-V) is its own. The
// translator's shared state is read-only after construction (function-local statics of tables, initialised
// thread-safely by C++) except glslang's process state, which glslang guards itself, and SourceManager's line
// table, built under a once-flag.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace p2g::cli {

// One PTX module to translate: a .ptx file, or a PTX entry of a binary.
struct Source {
  std::string id;            // unique and path-like: "ptx_corpus/basic/bit_ops/kernel", "data/libk.so/libk.2.sm_90"
  std::string path;          // the PTX file or the binary, as found
  std::string fatbinEntry;   // cuobjdump's name of the entry ("" for a PTX file)
  std::string bufferName;    // the name diagnostics and manifests use: the PTX path, or "ptx/<id>.ptx"
  std::string text;          // the PTX
  bool extracted = false;    // text came out of a binary (the batch writes it to ptx/<id>.ptx)
};

struct KernelResult {
  std::string id;            // source id + "/" + entry folder name: the kernel's folder under kernels/
  std::string key;           // identity across builds (diff-build): "<entry>@sm_NN", "#2" when repeated
  std::string entry, sourceId, source, fatbinEntry, target, bufferName;
  bool translated = false;
  std::string reason;        // the first error, one line
  std::vector<std::string> refusedForms;   // forms of the instructions the errors point at, distinct, sorted
  std::vector<std::string> otherReasons;   // errors not at an instruction (parse errors, ...)
  unsigned ptxInstructions = 0, glslLines = 0, warnings = 0;
  uint32_t paramBytes = 0;
  std::map<std::string, unsigned> histogram;
  std::string ptxHash, glslHash;
  std::string glsl, cardJson, diagnostics;  // kept in memory for diff-build (BatchOptions::keepText)
  std::map<std::string, std::string> files; // role -> path relative to the output folder
  double parseMs = 0, translateMs = 0, cardMs = 0;
  // Where the first refused instruction is, "file:line" (coverage report).
  std::string firstRefusedAt;
};

struct InputProblem {
  std::string path, error;
};

struct BatchOptions {
  int jobs = 1;
  bool native = false;
  bool spirv = true;
  bool progress = false;     // a progress bar (a terminal) instead of a line per kernel
  bool quiet = false;        // neither
  bool keepText = false;     // keep GLSL, card and diagnostics in KernelResult
  std::string writeDir;      // where workers write the kernels' files ("" = nowhere)
  std::vector<std::string> excludeDirs;   // not walked (the output folder)
};

struct BatchResult {
  std::vector<KernelResult> kernels;        // sorted by id
  std::vector<InputProblem> problems;
  std::vector<Source> sources;              // in id order (texts dropped after translation unless keepText)
  unsigned binaries = 0, ptxFiles = 0, elfEntries = 0, skippedFiles = 0, binariesWithoutCode = 0;
  double wallMs = 0;                        // runBatch, from the parse of the first source to the last kernel
  double collectMs = 0, parsePhaseMs = 0, kernelPhaseMs = 0;
  int jobs = 1;
};

// Expands INPUTs (binaries, folders walked recursively, PTX files) into sources. Unreadable or malformed inputs
// become problems; files of a folder that are neither PTX (by extension) nor binaries (by signature) are skipped.
void collectSources(const std::vector<std::string>& inputs, const BatchOptions& opt, BatchResult& res);

// Translates every kernel of res.sources on opt.jobs threads, filling res.kernels.
void runBatch(const BatchOptions& opt, BatchResult& res);

// REPORT.md and index.json of a batch (batch_report.cpp). Times go in their own section / field ("times"), so
// that everything else is the same for the same inputs whatever -j and the machine's speed.
std::string batchReport(const BatchResult& res, const BatchOptions& opt);
std::string batchIndex(const BatchResult& res, const BatchOptions& opt, const std::vector<std::string>& inputs);

// Reads a batch output folder's index.json back (for diff-build). Returns false with `err` when it is not one.
bool loadBatchIndex(const std::string& dir, BatchResult& res, std::string& err);

int defaultJobs();

// The GLSL with the PTX line numbers of its annotations ("// ptx:24  ld.param...") replaced by N: a kernel that only
// moved in its file (another kernel added before it) keeps this text.
std::string glslWithoutLineNumbers(const std::string& glsl);

}  // namespace p2g::cli
