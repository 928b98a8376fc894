// fuzz_structurize: longer fuzzing runs of the structurizer than the unit test affords.
//   fuzz_structurize [--seed N] [--count N] [--max-blocks N] [--oracles N] [--steps N]
// Exit status 0 when every graph's trees replay the CFG's traces exactly, 1 on the first mismatch (printed with
// the graph and tree), 2 on bad arguments.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_support.h"

namespace {

bool parseNumber(const char* text, long& out) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < 0) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  long seed = 1, count = 10000, maxBlocks = 30, oracles = 4, steps = 2000;
  for (int i = 1; i < argc; ++i) {
    long* slot = nullptr;
    if (!std::strcmp(argv[i], "--seed")) slot = &seed;
    else if (!std::strcmp(argv[i], "--count")) slot = &count;
    else if (!std::strcmp(argv[i], "--max-blocks")) slot = &maxBlocks;
    else if (!std::strcmp(argv[i], "--oracles")) slot = &oracles;
    else if (!std::strcmp(argv[i], "--steps")) slot = &steps;
    if (!slot || i + 1 >= argc || !parseNumber(argv[i + 1], *slot)) {
      std::fprintf(stderr,
                   "usage: fuzz_structurize [--seed N] [--count N] [--max-blocks N] [--oracles N] [--steps N]\n"
                   "bad or incomplete argument: %s\n", argv[i]);
      return 2;
    }
    ++i;
  }
  if (maxBlocks < 1 || maxBlocks > 100000 || steps < 1 || oracles < 1) {
    std::fprintf(stderr, "fuzz_structurize: --max-blocks must be 1..100000, --steps and --oracles at least 1\n");
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  p2g::fuzz::Stats st = p2g::fuzz::fuzz(static_cast<uint64_t>(seed), count, static_cast<int>(maxBlocks),
                                        static_cast<int>(oracles), static_cast<int>(steps));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("fuzz_structurize seed %ld: %ld graphs (%ld structured, %ld irreducible, %ld via fallback), %ld runs, "
              "%ld steps, %.2f s\n",
              seed, st.graphs, st.structured, st.irreducible, st.fallbacks, st.runs, st.steps, secs);
  if (!st.failure.empty()) {
    std::printf("FAILURE: %s\n", st.failure.c_str());
    return 1;
  }
  return 0;
}
