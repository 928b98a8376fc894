// Test support for the structurizer: random CFG generators, a reference reducibility check, and two
// interpreters (one walks the CFG, one runs the structured tree) driven by the same branch oracle, so that the
// traces of executed blocks can be compared exactly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "structurize.h"

namespace p2g::fuzz {

struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  uint64_t next();
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
};

// Random graph, 1..maxBlocks blocks, 0-3 successors biased towards compiler output (fallthrough to the next
// block, short forward branches, some back edges). Irreducible graphs occur.
Cfg randomCfg(Rng& rng, int maxBlocks);

// Graph lowered from a random structured program (if/else, while, do-while, infinite loops left by break,
// multi-level break/continue, early return, switch). Always reducible. Stops growing near targetBlocks.
Cfg structuredCfg(Rng& rng, int targetBlocks);

// Reference check by T1/T2 reduction (independent of the structurizer's SCC-based test), reachable part only.
bool isReducible(const Cfg& cfg);

// Execution of either form. Each block draws its branch choice on each visit from a deterministic sequence
// that depends on (seed, block, visit number), so both interpreters take the same decisions.
struct Trace {
  std::vector<int> blocks;
  bool returned = false;       // ended at a return (false: stopped by the step limit)
  std::string error;           // tree-only failures: fell off the end, runaway loop without blocks, bad var
};
Trace runCfg(const Cfg& cfg, uint64_t seed, int stepLimit);
Trace runTree(const StructurizeResult& r, const Cfg& cfg, uint64_t seed, int stepLimit);

// Static checks on a tree: Break/Continue only inside a Loop, variable indices below numVars, Branch conditions
// and Block nodes naming real blocks, every reachable block emitted. Returns an empty string when fine.
std::string checkTree(const StructurizeResult& r, const Cfg& cfg);

struct Stats {
  long graphs = 0, irreducible = 0, structured = 0, runs = 0, steps = 0, fallbacks = 0;
  std::string failure;         // first failure, with the graph and seed, empty if none
};
// Structurizes `count` graphs from `seed` (half random, half structured) and compares traces on several
// oracles each. Stops at the first failure.
Stats fuzz(uint64_t seed, long count, int maxBlocks, int oracles, int stepLimit);

std::string cfgText(const Cfg& cfg);

}  // namespace p2g::fuzz
