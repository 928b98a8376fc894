// Prints the prelude text of the named GLSL helpers (translator/emit/prelude.cpp), dependencies included, so that
// host tests can compile the helpers written in the GLSL subset that is also C++ (see f64_ref.cpp).
//   usage: dump_prelude NAME...
#include <cstdio>
#include <set>
#include <string>

#include "emitter.h"

int main(int argc, char** argv) {
  std::set<std::string> names, features;
  for (int i = 1; i < argc; ++i) names.insert(argv[i]);
  std::string s = p2g::preludeText(names, features);
  if (s.empty()) {
    std::fprintf(stderr, "dump_prelude: no such helper\n");
    return 1;
  }
  std::fputs(s.c_str(), stdout);
  return 0;
}
