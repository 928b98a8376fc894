// Running cases on a Vulkan device: the `ptx2glsl run` and `ptx2glsl devices` commands.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "manifest.h"

namespace p2g {

struct TranslatedKernel {
  Manifest manifest;
  std::vector<uint32_t> spirv;
  std::vector<uint32_t> spirvF16;  // the f16 variant, taken where the fact f16-native holds (facts.h)
  bool wantF16 = false;  // set by the runner before translating: the device takes the f16 variant, so make it
};

// Translates entry `entry` of the PTX file at `ptxPath` in-process (provided by the translator). On failure returns
// false and puts the formatted diagnostics in `diagText`.
using TranslateFn =
    std::function<bool(const std::string& ptxPath, const std::string& entry, TranslatedKernel& out, std::string& diagText)>;

struct RunOptions {
  std::string device;      // "" or "lavapipe" (default), "nvidia", a device index, or a substring of the name
  std::string outDir;      // when set, each output's bytes go to outDir/<case>/<name>.bin
  int repeat = 1;          // dispatches timed with GPU timestamps; min/median printed when > 1
  int timeoutS = 600;      // a dispatch still running after this long is given up (it keeps its logical device;
                           // the cases after it run on a new one)
  bool deviceFacts = true;  // specialize the shader with the device's measured facts (runtime/vulkan/facts.h)
  bool validate = false;   // Vulkan validation layer on; every message is printed and counted, and fails the run
  bool pipelineStats = false;  // print the driver's statistics of each case's pipeline (registers, spills, ...)
  std::vector<std::string> forcedFacts;  // --fact NAME: facts forced on (vk::forceFacts), to measure them
  bool quiet = false;
  std::ostream* log = nullptr;  // where the per-output lines and the summary go; nullptr = std::cout
};

// Runs every case: loads and validates case.json against the manifest, builds inputs, dispatches, reads back,
// compares each output with expected/<name>.bin and prints one line per output:
//   <case> <output>: <differing>/<total> differ, max ulp <n>, PSNR <dB> | identical
// A case that fails (bad case.json, translation error, out-of-bounds access, timeout) prints its error and the
// run goes on with the next case; the output is flushed after each case. After a timeout the dispatch still runs
// on the old logical device, so the next cases get a new one. Returns 0 only when every output of every case is
// byte-identical (and, with --validate, the layer said nothing); 1 otherwise.
int runCases(const std::vector<std::string>& caseDirs, const RunOptions& opt, const TranslateFn& translate);

// Prints the Vulkan devices found (index, name, driver, subgroup size); returns 0.
int listDevices();

}  // namespace p2g
