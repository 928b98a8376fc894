// Structurize: turns a control-flow graph into structured statements (if/else, loops, break/continue, return)
// for a language without goto (GLSL).
//
// Contract.
//   Needs:      a CFG of N blocks, block 0 the entry; succ[b] lists b's successors in terminator order:
//               0 successors = the block returns; 1 = it jumps; 2 = a conditional branch (succ[0] taken when the
//               condition holds, succ[1] otherwise); k > 2 = a multiway branch (brx.idx) selecting succ[i].
//               Blocks unreachable from the entry may be present; they are dropped.
//   Guarantees: executing the result runs exactly the same sequence of block bodies as walking the CFG, for
//               every choice of branch outcomes, with no program-counter loop for reducible graphs: if/else,
//               loops, single-level break/continue and returns only. Irreducible graphs are handled by a
//               correct fallback (a dispatcher over an integer variable), still with no goto. Each block body
//               is emitted at least once (blocks may be duplicated only when the fallback chooses to).
//               Deterministic: the same CFG gives the same tree.
//   Keeps:      block numbering (nodes refer to the caller's block ids).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace p2g {

struct Cfg {
  std::vector<std::vector<int>> succ;  // succ[b]: successors in terminator order
};

// One node of the structured program.
//   Seq        children run in order.
//   Block      run the body of `block` (its instructions, not its terminator).
//   If         if (cond) children[0] else children[1] (children[1] may be an empty Seq).
//   Loop       loop { children[0] } forever; left only by Break or Return.
//   Break      leave the innermost Loop.        Continue   next iteration of the innermost Loop.
//   Return     leave the function.
//   SetVar     var[varIndex] = value (structurizer's own integer variables, initialised to 0).
// Conditions (If):
//   Branch     "the terminator of `block` selects successor `succIndex`" (for a 2-way branch, succIndex 0 = the
//              branch condition holds, 1 = it does not).
//   VarEq      var[varIndex] == value.
//   Not        negation of children... kept simple: `negate` flips any condition.
struct SCond {
  enum class Kind : uint8_t { Branch, VarEq } kind = Kind::Branch;
  bool negate = false;
  int block = -1, succIndex = 0;   // Branch
  int varIndex = -1, value = 0;    // VarEq
};

struct SNode {
  enum class Kind : uint8_t { Seq, Block, If, Loop, Break, Continue, Return, SetVar } kind = Kind::Seq;
  int block = -1;                  // Block
  SCond cond;                      // If
  int varIndex = -1, value = 0;    // SetVar
  std::vector<SNode> children;
};

struct StructurizeResult {
  SNode root;
  int numVars = 0;                 // integer variables used by VarEq/SetVar
  bool usedFallback = false;       // the graph was irreducible
  std::string error;               // non-empty on failure (bad input)
  bool tooDeep = false;            // the failure is the nesting limit (kMaxStructureNesting): valid input the
                                   // output could not nest as deep as needed; `errorBlock` is where (-1: unknown)
  int errorBlock = -1;
};

// How deep ifs and loops may nest in the result: deeper control flow is refused (tooDeep). The layout recurses
// once per level, and the GLSL compilers that read the output nest as deep: glslang's parser runs out of stack
// ("memory exhausted") at about 1,250 nested ifs (glslangValidator 11 on Debian 12, measured 2026-12-01 with
// `if (x != i) { x += 1u; ...` nested N deep: 1,200 compile, 2,000 do not; the message comes at line 2,503).
constexpr int kMaxStructureNesting = 1000;

StructurizeResult structurize(const Cfg& cfg);

// Renders a tree as indented pseudo-code (tests and --dump).
std::string dumpTree(const SNode& n);

}  // namespace p2g
