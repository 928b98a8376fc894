// The tensor-core model (runtime/cuda_ref/probes/mma/mma_model.h, docs/MMA.md) with the parameters the fit chose,
// against the first samples the H200 measured for every implemented form (tests/mma/data/mma_<form>.bin: the
// first 64 samples of p2g-mma-probe's output, 2026-12-01), or any probe output folder (every sample in the files:
// on the NVIDIA machine, after `p2g-mma-probe DIR 65536`). Prints per form and class how many elements differ;
// exit 1 if any does. The GLSL lowering is checked by replay.sh.
//   usage: test_mma_model DATA_DIR
#include <cstdio>
#include <string>
#include <vector>

#include "mma_model.h"

using namespace mmaprobe;

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_mma_model DATA_DIR\n");
    return 2;
  }
  const int forms[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  long totalBad = 0, total = 0;
  for (int fi : forms) {
    const Form& F = kForms[fi];
    std::string path = std::string(argv[1]) + "/mma_" + std::to_string(fi) + ".bin";
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) {
      fprintf(stderr, "cannot read %s\n", path.c_str());
      return 1;
    }
    std::vector<uint32_t> D;
    uint32_t buf[4096];
    for (size_t got; (got = fread(buf, 4, 4096, f)) > 0;) D.insert(D.end(), buf, buf + got);
    fclose(f);
    size_t n = D.size();
    int samples = int(n / 128);
    long bad[kClasses] = {}, tot[kClasses] = {};
    Model M;  // the fitted model: F = 25, f32 toward zero, f16 to nearest even, K at once; FP8: the chain
    M.fp8Chain = F.a == El::E4M3 || F.a == El::E5M2;
    Sample s;
    for (int si = 0; si < samples; ++si) {
      generate(fi, uint64_t(si), s);
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
          uint32_t want;
          if (F.a == El::S8) {
            int64_t acc = int32_t(s.c[i * 8 + j]);
            for (int k = 0; k < F.k; ++k) acc += int64_t(int8_t(s.a[i * F.k + k])) * int8_t(s.b[k * 8 + j]);
            if (F.satfinite) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            want = uint32_t(uint64_t(acc));
          } else {
            want = evalModel(F, s, i, j, M);
          }
          ++tot[s.cls];
          if (want != D[size_t(si) * 128 + i * 8 + j]) ++bad[s.cls];
        }
    }
    printf("form %2d %-42s %d samples:", fi, F.name, samples);
    for (int c = 0; c < kClasses; ++c) {
      printf(" c%d %ld/%ld", c, bad[c], tot[c]);
      totalBad += bad[c];
      total += tot[c];
    }
    printf("\n");
    if (samples < 64) {
      fprintf(stderr, "%s: expected 64 samples\n", path.c_str());
      return 1;
    }
  }
  printf("%ld of %ld elements differ from the H200\n", totalBad, total);
  return totalBad ? 1 : 0;
}
