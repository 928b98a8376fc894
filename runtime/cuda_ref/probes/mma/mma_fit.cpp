// Fits the tensor-core arithmetic model (mma_model.h, docs/MMA.md) to what p2g-mma-probe measured on the GPU:
// regenerates each sample's inputs (mma_gen.h), evaluates candidate models and prints, per form and candidate, how
// many D elements differ from the measurement (per sample class). Runs here, without a GPU.
//   usage: p2g-mma-fit DIR [FORM [SHOW]]   DIR holds mma_<form>.bin from the probe; SHOW > 0 prints that many
//          mismatching elements of the best candidate (inputs of the row/column, got, want)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mma_model.h"

using namespace mmaprobe;

namespace {

struct Res {
  Model m;
  long bad[kClasses] = {}, tot[kClasses] = {};
  long total() const {
    long a = 0;
    for (long b : bad) a += b;
    return a;
  }
};

Res score(int fi, const std::vector<uint32_t>& D, int samples, const Model& M) {
  const Form& F = kForms[fi];
  Res r{M};
  Sample s;
  size_t per = size_t(F.m) * F.n;
  for (int si = 0; si < samples; ++si) {
    generate(fi, si, s);
    for (int i = 0; i < F.m; ++i)
      for (int j = 0; j < F.n; ++j) {
        ++r.tot[s.cls];
        if (D[si * per + i * F.n + j] != evalModel(F, s, i, j, M)) ++r.bad[s.cls];
      }
  }
  return r;
}

void print(const Res& R) {
  printf("  F=%d fp8Chain=%d f32=%s f16=%s group=%d split=%d reverse=%d zeroExp=%d ftzOut=%d satInf=%d:", R.m.F, int(R.m.fp8Chain), R.m.rneF32 ? "rne" : "rz",
         R.m.rzF16 ? "rz" : "rne", R.m.group, R.m.split, int(R.m.reverse), int(R.m.zeroExp), int(R.m.ftzOut), int(R.m.satInf));
  for (int c = 0; c < kClasses; ++c) printf(" c%d %ld/%ld", c, R.bad[c], R.tot[c]);
  printf("  total %ld\n", R.total());
}

void show(int fi, const std::vector<uint32_t>& D, int samples, const Model& M, int count) {
  const Form& F = kForms[fi];
  Sample s;
  size_t per = size_t(F.m) * F.n;
  for (int si = 0; si < samples && count > 0; ++si) {
    generate(fi, si, s);
    for (int i = 0; i < F.m && count > 0; ++i)
      for (int j = 0; j < F.n && count > 0; ++j) {
        uint32_t got = D[si * per + i * F.n + j], want = evalModel(F, s, i, j, M);
        if (got == want) continue;
        --count;
        printf("  sample %d class %d (%d,%d): got %08x want %08x  c=%08x\n    a:", si, s.cls, i, j, got, want,
               s.c[i * F.n + j]);
        for (int k = 0; k < F.k; ++k) printf(" %x", s.a[i * F.k + k]);
        printf("\n    b:");
        for (int k = 0; k < F.k; ++k) printf(" %x", s.b[k * F.n + j]);
        printf("\n");
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    fprintf(stderr, "usage: p2g-mma-fit DIR [FORM [SHOW]]\n");
    return 2;
  }
  std::string dir = argv[1];
  int only = argc > 2 ? atoi(argv[2]) : -1;
  int showN = argc > 3 ? atoi(argv[3]) : 0;
  for (int fi = 0; fi < kNumForms; ++fi) {
    if (only >= 0 && fi != only) continue;
    const Form& F = kForms[fi];
    std::string path = dir + "/mma_" + std::to_string(fi) + ".bin";
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) { fprintf(stderr, "cannot read %s\n", path.c_str()); return 1; }
    std::vector<uint32_t> D;
    uint32_t w;
    while (fread(&w, 4, 1, f) == 1) D.push_back(w);
    fclose(f);
    size_t per = size_t(F.m) * F.n;
    int samples = int(D.size() / per);  // the sample count is the file's (the probe's argument)
    if (getenv("FIT_SAMPLES")) samples = std::min(samples, atoi(getenv("FIT_SAMPLES")));
    printf("== form %d %s: %d samples\n", fi, F.name, samples);
    if (F.a == El::S8) {
      long bad = 0, tot = 0;
      Sample s;
      for (int si = 0; si < samples; ++si) {
        generate(fi, si, s);
        for (int i = 0; i < F.m; ++i)
          for (int j = 0; j < F.n; ++j) {
            int64_t acc = int32_t(s.c[i * F.n + j]);
            for (int k = 0; k < F.k; ++k) acc += int64_t(int8_t(s.a[i * F.k + k])) * int8_t(s.b[k * F.n + j]);
            int32_t want = F.satfinite ? int32_t(std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, acc)))
                                       : int32_t(uint32_t(uint64_t(acc)));
            ++tot;
            if (uint32_t(want) != D[si * per + i * F.n + j]) ++bad;
          }
      }
      printf("  exact integer sum (%s): %ld of %ld differ\n", F.satfinite ? "saturating" : "wrapping", bad, tot);
      continue;
    }
    // Stage 1: width, grouping, output rounding. Stage 2: the other switches around the best of stage 1.
    std::vector<Res> res;
    int fLo = getenv("FIT_FLO") ? atoi(getenv("FIT_FLO")) : 22, fHi = getenv("FIT_FHI") ? atoi(getenv("FIT_FHI")) : 28;
    for (int F_ = fLo; F_ <= fHi; ++F_)
      for (int gr : {0, 4, 8, 16})
        for (int sp = 0; sp < 4; ++sp)
          for (int rv = 0; rv < 2; ++rv)
            for (int rn = 0; rn < 2; ++rn) {
              if (gr && gr >= F.k) continue;
              if (!gr && (sp || rv)) continue;
              if (gr && (1 << (sp - 1)) * (F.k / gr) > F.k) continue;
              Model M;
              M.F = F_, M.group = gr, M.split = sp, M.reverse = rv;
              if (F.d == El::F16) M.rzF16 = rn; else M.rneF32 = rn;
              res.push_back(score(fi, D, samples, M));
            }
    std::sort(res.begin(), res.end(), [](const Res& x, const Res& y) { return x.total() < y.total(); });
    Model best = res[0].m;
    std::vector<Res> res2;
    for (int z = 0; z < 2; ++z)
      for (int ft = 0; ft < 2; ++ft)
        for (int si = 0; si < 2; ++si) {
          Model M = best;
          M.zeroExp = z, M.ftzOut = ft, M.satInf = si;
          res2.push_back(score(fi, D, samples, M));
        }
    for (size_t r = 1; r < std::min<size_t>(4, res.size()); ++r) res2.push_back(res[r]);
    if (F.a == El::E4M3 || F.a == El::E5M2)
      for (int F_ : {24, 25, 26}) {  // the FP8 chain (mma_model.h fp8Chain)
        Model M;
        M.F = F_, M.fp8Chain = true;
        res2.push_back(score(fi, D, samples, M));
      }
    std::sort(res2.begin(), res2.end(), [](const Res& x, const Res& y) { return x.total() < y.total(); });
    for (size_t r = 0; r < std::min<size_t>(6, res2.size()); ++r) print(res2[r]);
    if (showN) show(fi, D, samples, res2[0].m, showN);
  }
  return 0;
}
