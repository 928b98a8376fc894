#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>

#include "fuzz_support.h"
#include "structurize.h"

using p2g::Cfg;
using p2g::dumpTree;
using p2g::structurize;
using p2g::StructurizeResult;
namespace fz = p2g::fuzz;

namespace {

// Structurizes, checks the tree statically and replays it against the CFG on a few oracles.
StructurizeResult checked(const Cfg& cfg, int oracles = 8, int steps = 500) {
  StructurizeResult r = structurize(cfg);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  std::string e = fz::checkTree(r, cfg);
  CHECK_MESSAGE(e.empty(), e << "\n" << dumpTree(r.root));
  for (int o = 0; o < oracles; ++o) {
    fz::Trace a = fz::runCfg(cfg, 100 + o, steps), b = fz::runTree(r, cfg, 100 + o, steps);
    CHECK_MESSAGE(b.error.empty(), b.error << "\n" << dumpTree(r.root));
    CHECK_MESSAGE(a.blocks == b.blocks, "trace mismatch on oracle " << o << "\n" << dumpTree(r.root));
    CHECK(a.returned == b.returned);
  }
  return r;
}

int count(const std::string& text, const std::string& word) {
  int n = 0;
  for (size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("single block and straight line") {
  CHECK(dumpTree(checked({{{}}}).root) == "block 0\nreturn\n");
  CHECK(dumpTree(checked({{{1}, {2}, {}}}).root) == "block 0\nblock 1\nblock 2\nreturn\n");
}

TEST_CASE("diamond gives if/else and a join") {
  StructurizeResult r = checked({{{1, 2}, {3}, {3}, {}}});
  CHECK_FALSE(r.usedFallback);
  CHECK(r.numVars == 0);
  CHECK(dumpTree(r.root) ==
        "block 0\n"
        "if (b0 == 0) {\n"
        "  block 1\n"
        "} else {\n"
        "  block 2\n"
        "}\n"
        "block 3\n"
        "return\n");
}

TEST_CASE("if-then without else") {
  StructurizeResult r = checked({{{1, 2}, {2}, {}}});
  CHECK(dumpTree(r.root) == "block 0\nif (b0 == 0) {\n  block 1\n}\nblock 2\nreturn\n");
}

TEST_CASE("while loop: header test, body, exit after the loop") {
  // 0 -> 1; 1: body 2 or exit 3; 2 -> 1.
  StructurizeResult r = checked({{{1}, {2, 3}, {1}, {}}});
  CHECK_FALSE(r.usedFallback);
  CHECK(dumpTree(r.root) ==
        "block 0\n"
        "loop {\n"
        "  block 1\n"
        "  if (b1 != 0) {\n"
        "    break\n"
        "  }\n"
        "  block 2\n"
        "}\n"
        "block 3\n"
        "return\n");
}

TEST_CASE("self loop and loop whose header is the entry") {
  StructurizeResult r = checked({{{0, 1}, {}}});
  CHECK(dumpTree(r.root) == "loop {\n  block 0\n  if (b0 != 0) {\n    break\n  }\n}\nblock 1\nreturn\n");
  checked({{{1}, {0, 2}, {}}});
}

TEST_CASE("conditional branch whose two successors are the same block") {
  StructurizeResult r = checked({{{1, 1}, {}}});
  CHECK(dumpTree(r.root) == "block 0\nblock 1\nreturn\n");
}

TEST_CASE("infinite loop with no exit") {
  StructurizeResult r = checked({{{1}, {2}, {1}}});
  CHECK(dumpTree(r.root) == "block 0\nloop {\n  block 1\n  block 2\n}\n");
}

TEST_CASE("early return inside a loop") {
  // 1: loop header; 2 returns early; 3 continues; 4 after the loop.
  StructurizeResult r = checked({{{1}, {2, 4}, {5, 3}, {1}, {}, {}}});
  CHECK(count(dumpTree(r.root), "return") == 2);
  CHECK(r.numVars == 0);
}

TEST_CASE("multiway branch becomes a chain of ifs") {
  StructurizeResult r = checked({{{1, 2, 3}, {4}, {4}, {4}, {}}});
  std::string t = dumpTree(r.root);
  CHECK(count(t, "b0 == 0") == 1);
  CHECK(count(t, "b0 == 1") == 1);
  CHECK(count(t, "block ") == 5);
  // Duplicate targets in a switch.
  checked({{{1, 2, 1, 2}, {3}, {3}, {}}});
}

TEST_CASE("loop with exits to different targets") {
  // 1 header: exit to 4 or go to 2; 2: exit to 5 or 3; 3 -> 1; 4, 5 -> 6.
  StructurizeResult r = checked({{{1}, {2, 4}, {3, 5}, {1}, {6}, {6}, {}}});
  CHECK_FALSE(r.usedFallback);
  CHECK(count(dumpTree(r.root), "loop") == 1);
}

TEST_CASE("nested loops: break out of both and continue the outer one") {
  // 1 outer header, 2 inner header, 3 inner body: -> 2 (continue inner), 4 (leave both), 5;
  // 5: -> 1 (continue outer from inside the inner loop) or 2; 6 inner exit -> 1; 4 returns.
  Cfg cfg{{{1}, {2}, {3, 6}, {2, 4, 5}, {}, {1, 2}, {1}}};
  StructurizeResult r = checked(cfg, 16);
  CHECK_FALSE(r.usedFallback);
  CHECK(count(dumpTree(r.root), "loop {") == 2);
}

TEST_CASE("nested loops sharing the header's exit") {
  // Inner loop 2<->3 and outer loop 1..4 both exit to 5.
  checked({{{1}, {2, 5}, {3}, {2, 4}, {1, 5}, {}}}, 16);
}

TEST_CASE("crossing joins use the exit variable only where needed") {
  // 0 -> 1, 2; 1 -> 2, 3; 2 -> 3. Block 2 is reached from 0 and 1, block 3 from 1 and 2.
  StructurizeResult r = checked({{{1, 2}, {2, 3}, {3}, {}}});
  CHECK(r.numVars == 1);
  CHECK(count(dumpTree(r.root), "block ") == 4);
}

TEST_CASE("irreducible loop uses the dispatcher fallback") {
  // 0 enters the cycle 1 <-> 2 at either node.
  StructurizeResult r = checked({{{1, 2}, {2, 3}, {1, 3}, {}}}, 16);
  CHECK(r.usedFallback);
  CHECK(r.numVars >= 1);
  CHECK(count(dumpTree(r.root), "loop {") == 1);
  // Irreducible cycle that includes the entry, and a nested one.
  CHECK(checked({{{1, 2}, {2}, {0, 1, 3}, {}}}, 16).usedFallback);
  CHECK(checked({{{1, 3}, {2, 5}, {3, 1}, {4}, {2, 5}, {}}}, 16).usedFallback);
}

TEST_CASE("unreachable blocks are dropped") {
  StructurizeResult r = checked({{{2}, {1, 0}, {}}});
  CHECK(dumpTree(r.root) == "block 0\nblock 2\nreturn\n");
}

TEST_CASE("bad input gives an error, not a crash") {
  CHECK_FALSE(structurize({{{1}}}).error.empty());
  CHECK_FALSE(structurize({{{-1}}}).error.empty());
  CHECK_FALSE(structurize({{{0, 7}, {}}}).error.empty());
  CHECK_FALSE(structurize(Cfg{}).error.empty());
}

TEST_CASE("structured programs never use the fallback") {
  for (uint64_t s = 0; s < 300; ++s) {
    fz::Rng rng(s);
    Cfg cfg = fz::structuredCfg(rng, 40);
    StructurizeResult r = structurize(cfg);
    REQUIRE(r.error.empty());
    CHECK(fz::isReducible(cfg));
    CHECK_FALSE(r.usedFallback);
    // No dispatcher: the only variable is the exit variable, never tested against dispatcher slots.
    CHECK(r.numVars <= 1);
  }
}

TEST_CASE("fuzz: random and structured CFGs replay identically") {
  auto t0 = std::chrono::steady_clock::now();
  fz::Stats st = fz::fuzz(2024, 30000, 30, 3, 1000);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("structurize fuzz: %ld graphs (%ld structured, %ld irreducible, %ld via fallback), %ld runs, %ld steps,"
              " %.2f s\n",
              st.graphs, st.structured, st.irreducible, st.fallbacks, st.runs, st.steps, secs);
  CHECK_MESSAGE(st.failure.empty(), st.failure);
  CHECK(st.graphs == 30000);
  CHECK(st.irreducible > 100);  // the generator must keep exercising the fallback
  CHECK(st.steps > 100000);
}

TEST_CASE("large CFG: 5,000 blocks of loops and ifs") {
  fz::Rng rng(99);
  Cfg cfg = fz::structuredCfg(rng, 5000);
  REQUIRE(cfg.succ.size() >= 4900);
  auto t0 = std::chrono::steady_clock::now();
  StructurizeResult r = structurize(cfg);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("structurize: %zu-block CFG in %.3f s\n", cfg.succ.size(), secs);
  REQUIRE(r.error.empty());
  CHECK_FALSE(r.usedFallback);
  CHECK(fz::checkTree(r, cfg).empty());
  for (int o = 0; o < 4; ++o) {
    fz::Trace a = fz::runCfg(cfg, 7 + o, 200000), b = fz::runTree(r, cfg, 7 + o, 200000);
    CHECK(b.error.empty());
    CHECK(a.blocks == b.blocks);
    CHECK(a.returned == b.returned);
  }
}

TEST_CASE("long flat sequences use constant stack; absurd nesting is refused with an error") {
  // 60,000 blocks: a chain of 20,000 diamonds, flat in the output.
  Cfg diamonds;
  const int n = 60001;
  diamonds.succ.resize(n);
  for (int i = 0; i + 3 < n; i += 3) {
    diamonds.succ[i] = {i + 1, i + 2};
    diamonds.succ[i + 1] = {i + 3};
    diamonds.succ[i + 2] = {i + 3};
  }
  StructurizeResult r = structurize(diamonds);
  REQUIRE(r.error.empty());
  CHECK(fz::checkTree(r, diamonds).empty());
  fz::Trace a = fz::runCfg(diamonds, 3, 1000000), b = fz::runTree(r, diamonds, 3, 1000000);
  CHECK(a.blocks == b.blocks);
  CHECK(b.returned);
  // 20,000 nested ifs (each block either goes on or leaves to a shared exit): deeper than any consumer can walk.
  Cfg ladder;
  ladder.succ.resize(20000);
  for (int i = 0; i + 2 < 20000; ++i) ladder.succ[i] = {i + 1, 19999};
  StructurizeResult deep = structurize(ladder);
  CHECK(deep.error.find("nests deeper") != std::string::npos);
  CHECK(deep.tooDeep);
  CHECK(deep.errorBlock > 0);  // where: a block of the ladder
  // Just under the limit it is accepted.
  Cfg ok;
  const int m = p2g::kMaxStructureNesting - 10;
  ok.succ.resize(m);
  for (int i = 0; i + 2 < m; ++i) ok.succ[i] = {i + 1, m - 1};
  StructurizeResult fine = structurize(ok);
  CHECK(fine.error.empty());
  CHECK(fz::checkTree(fine, ok).empty());
}

TEST_CASE("a straight-line chain of 100,000 blocks (bra to the next label) is one flat sequence") {
  // Lifting makes a block per label; `bra L1; L1: bra L2; L2: ...` is a chain each of whose blocks has one
  // successor with one predecessor. Unreachable blocks that also jump into the chain (lifting's code after a
  // `bra`) must not keep it from merging.
  const int n = 100000;
  Cfg chain;
  chain.succ.resize(2 * n + 1);
  for (int i = 0; i < n; ++i) {
    chain.succ[i] = {i + 1};
    chain.succ[n + 1 + i] = {i + 1};  // unreachable
  }
  chain.succ[n] = {};
  StructurizeResult r = structurize(chain);
  REQUIRE(r.error.empty());
  CHECK(fz::checkTree(r, chain).empty());
  fz::Trace a = fz::runCfg(chain, 1, 1000000), b = fz::runTree(r, chain, 1, 1000000);
  CHECK(a.blocks == b.blocks);
  CHECK(b.returned);
  // A chain that loops back to its start, and one inside a loop.
  Cfg ring;
  ring.succ = {{1}, {2}, {3}, {4, 1}, {5}, {}};
  StructurizeResult rr = structurize(ring);
  REQUIRE(rr.error.empty());
  CHECK(fz::checkTree(rr, ring).empty());
  for (int o = 0; o < 8; ++o) {
    fz::Trace x = fz::runCfg(ring, o, 10000), y = fz::runTree(rr, ring, o, 10000);
    CHECK(x.blocks == y.blocks);
  }
}
