// Offline survey of the collected slices: for each slice, the hardware result against the exact function
// (long double) -- histogram of hw - RN(exact) in ulps and the largest error in ulps of the exact value.
//   g++ -O2 -std=c++17 -I tests/sfu ptx_corpus/sfu/tools/survey.cpp -llzma -o /tmp/sfu_survey
//   /tmp/sfu_survey ptx_corpus/sfu/data [op-substring]
#include <cmath>
#include <map>
#include "sfu_data.h"

static long double exact(const std::string& op, long double x) {
  if (op.rfind("rcp", 0) == 0) return 1.0L / x;
  if (op.rfind("rsqrt", 0) == 0) return 1.0L / sqrtl(x);
  if (op.rfind("sqrt", 0) == 0) return sqrtl(x);
  if (op.rfind("ex2", 0) == 0) return exp2l(x);
  if (op.rfind("lg2", 0) == 0) return log2l(x);
  if (op.rfind("sin", 0) == 0) return sinl(x);
  if (op.rfind("cos", 0) == 0) return cosl(x);
  return tanhl(x);
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: survey DATADIR [filter]\n"); return 2; }
  sfu_data::Store st(argv[1]);
  std::string filt = argc > 2 ? argv[2] : "";
  for (auto& kv : st.members) {
    const std::string& n = kv.first;
    if (n.rfind("s32_", 0) != 0 || n.find(filt) == std::string::npos) continue;
    size_t a = 4, b = n.find('_', a);
    std::string op = n.substr(a, b - a);
    int sign = n[b + 1] == 'n', E = atoi(n.c_str() + b + 4);
    std::vector<uint32_t> v = st.slice(op, sign, E);
    std::map<int, uint64_t> hist;
    long double maxerr = 0; uint32_t worst = 0; uint64_t nonfinite = 0;
    for (uint32_t m = 0; m < v.size(); m++) {
      uint32_t xb = ((uint32_t)sign << 31) | ((uint32_t)E << 23) | m;
      float x, r; memcpy(&x, &xb, 4); memcpy(&r, &v[m], 4);
      long double e = exact(op, x);
      float rn = (float)e;
      if (!std::isfinite(r) || !std::isfinite(rn) || e == 0) { nonfinite++; continue; }
      uint32_t rnb; memcpy(&rnb, &rn, 4);
      int d = (int)(v[m] - rnb);
      hist[d < -9 ? -9 : d > 9 ? 9 : d]++;
      int ex; frexpl(e, &ex);
      long double ulp = ldexpl(1.0L, (ex - 24 < -149 ? -149 : ex - 24));
      long double err = fabsl((long double)r - e) / ulp;
      if (err > maxerr) { maxerr = err; worst = xb; }
    }
    printf("%-40s max err %.3Lf ulp at %08x; nonfinite/skipped %llu; hw-RN:", n.c_str(), maxerr, worst,
           (unsigned long long)nonfinite);
    for (auto& h : hist) printf(" %d:%llu", h.first, (unsigned long long)h.second);
    printf("\n");
  }
}
