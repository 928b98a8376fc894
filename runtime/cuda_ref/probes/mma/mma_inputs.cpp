// Writes the inputs p2g-mma-probe feeds form FORM (mma_gen.h), as the probe's device buffers: a.bin, b.bin, c.bin,
// one uint32 per element, samples in order. tests/mma/replay.sh runs the probe's own PTX through ptx2glsl on these
// and compares D with what the probe measured on the GPU (the GLSL model against the hardware).
//   usage: p2g-mma-inputs FORM SAMPLES OUTDIR
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mma_gen.h"

using namespace mmaprobe;

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) == "--help") {
    fprintf(stderr, "usage: p2g-mma-inputs FORM SAMPLES OUTDIR\n");
    return 2;
  }
  int fi = atoi(argv[1]), samples = atoi(argv[2]);
  if (fi < 0 || fi >= kNumForms || samples <= 0) {
    fprintf(stderr, "p2g-mma-inputs: FORM must be 0..%d and SAMPLES positive\n", kNumForms - 1);
    return 2;
  }
  const Form& F = kForms[fi];
  std::vector<uint32_t> A, B, C;
  Sample s;
  for (int si = 0; si < samples; ++si) {
    generate(fi, uint64_t(si), s);
    A.insert(A.end(), s.a, s.a + F.m * F.k);
    B.insert(B.end(), s.b, s.b + F.k * F.n);
    C.insert(C.end(), s.c, s.c + F.m * F.n);
  }
  std::string dir = argv[3];
  for (auto& [name, v] : {std::pair<const char*, std::vector<uint32_t>*>{"a", &A}, {"b", &B}, {"c", &C}}) {
    std::string p = dir + "/" + name + ".bin";
    FILE* f = fopen(p.c_str(), "wb");
    if (!f || fwrite(v->data(), 4, v->size(), f) != v->size() || fclose(f) != 0) {
      fprintf(stderr, "p2g-mma-inputs: cannot write %s\n", p.c_str());
      return 1;
    }
  }
  return 0;
}
