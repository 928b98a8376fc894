// Can a piecewise quadratic reproduce the hardware exactly? For a slice of an instruction whose results over the
// slice are integers Y_j at one fixed-point scale (rcp, rsqrt, sqrt over [1,2) or [2,4); ex2 over a fraction
// interval), the slice is split into 2^k segments by the top k input-mantissa bits, and each segment gets a
// minimax (discrete Remez) quadratic in the low bits. If every segment's minimax error is < 0.5, then
// floor(P(x) + 0.5) reproduces every result with these (real) coefficients: a table of 2^k x 3 coefficients is an
// exact model (quantising the coefficients is the next step).
//   g++ -O2 -std=c++17 -I tests/sfu ptx_corpus/sfu/tools/fit.cpp -llzma -o /tmp/sfu_fit
//   /tmp/sfu_fit DATADIR OP SIGN E KBITS [OUTSCALE_EXP [SQUARE_TRUNC_BITS]]
#include <cmath>
#include <algorithm>
#include "sfu_data.h"

#include "remez.h"

int main(int argc, char** argv) {
  if (argc < 6) { fprintf(stderr, "usage: fit DATADIR OP SIGN E KBITS [OUTSCALE_EXP [SQUARE_TRUNC_BITS]]\n"); return 2; }
  sfu_data::Store st(argv[1]);
  std::string op = argv[2];
  int sign = atoi(argv[3]), E = atoi(argv[4]), k = atoi(argv[5]);
  std::vector<uint32_t> v = st.slice(op, sign, E);
  if (v.empty()) { fprintf(stderr, "no slice %s %d %d\n", op.c_str(), sign, E); return 1; }
  // Fixed-point scale: the finest ulp among the results unless given.
  int minexp = 1000;
  for (uint32_t r : v) { int e = (int)((r >> 23) & 0xff); if (e > 0 && e < 255) minexp = std::min(minexp, e); }
  int scale = argc > 6 ? atoi(argv[6]) : minexp - 127 - 23;   // Y = value * 2^-scale
  int sqTrunc = argc > 7 ? atoi(argv[7]) : 0;   // low bits dropped before squaring
  const uint32_t segN = 1u << (23 - k);
  R worst = 0; int worstSeg = -1, bad = 0;
  std::vector<R> t(segN), y(segN), sq(segN);
  for (uint32_t s = 0; s < (1u << k); s++) {
    for (uint32_t j = 0; j < segN; j++) {
      float f; uint32_t r = v[s * segN + j]; memcpy(&f, &r, 4);
      t[j] = (R)j / segN;
      R tq = (R)((j >> sqTrunc) << sqTrunc) / segN;
      sq[j] = tq * tq;
      y[j] = ldexpl(fabsl((R)f), -scale);
    }
    R c[3], e = remez(t, y, c, &sq);
    if (e > worst) { worst = e; worstSeg = (int)s; }
    if (e >= 0.5L) bad++;
    if (s < 2 || e >= 0.5L) printf("seg %4u: minimax %.6Lf  c = %.6Lf %.6Lf %.6Lf\n", s, e, c[0], c[1], c[2]);
  }
  printf("%s %c E%d k=%d scale 2^%d: worst minimax %.6Lf (seg %d), segments >= 0.5: %d of %u\n", op.c_str(),
         sign ? 'n' : 'p', E, k, scale, worst, worstSeg, bad, 1u << k);
}
