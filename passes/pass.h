// The pass registry (STYLE.md 1-4): every IR pass is registered once, with a name (the file name and the
// --passes flag value) and a one-line description that `ptx2glsl passes` prints.
#pragma once
#include <string>
#include <vector>

#include "ir.h"

namespace p2g {

enum class PassResult { Unchanged, Changed, Failed };

struct PassInfo {
  const char* name;
  const char* description;
  PassResult (*run)(ir::Function& f, std::string& error);
};

const std::vector<PassInfo>& passRegistry();
const PassInfo* findPass(const std::string& name);

struct PipelineOptions {
  std::vector<std::string> passes;  // empty: the default pipeline
  bool validateEach = false;        // ir::validate after every pass; names the pass that broke the IR
  bool dumpEach = false;            // IR text after every pass into `log`
  std::vector<std::string> disabled;  // passes removed from the default pipeline (tests, bisection)
};

// Runs the pipeline. Returns false with `error` naming the failing pass. `log` gets one line per pass
// ("contract: changed") plus dumps when asked.
bool runPipeline(ir::Function& f, const PipelineOptions& opt, std::string& log, std::string& error);

std::vector<std::string> defaultPipeline();

}  // namespace p2g
