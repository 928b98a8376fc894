// Generates the model tables (binary, format in translator/emit/sfu_models.h): for each requested slice (one instruction, sign, input exponent), a
// piecewise quadratic (2^k segments, minimax, coefficients rounded to double) evaluated in double exactly as the
// models do (c0 + t*(c1 + t*c2), no fused operations, then floor), plus the sorted list of inputs where that
// evaluation differs from the hardware, with the correction. The model is exact by construction on the slice;
// its size (coefficients + exceptions) is printed.
//   g++ -O2 -std=c++17 -I tests/sfu -I translator/emit ptx_corpus/sfu/tools/gen.cpp -llzma -o /tmp/sfu_gen
//   /tmp/sfu_gen DATADIR OUT.bin NAME:OP:SIGN:E:K:SCALE ...      (result value = Y * 2^SCALE)
//   /tmp/sfu_gen DATADIR OUT.bin F:...|I:... ...   (tables of sfu_models2.h: specs in gen_float.h)
#include <cmath>
#include <string>
#include "remez.h"
#include "sfu_data.h"
#include "gen_float.h"

struct Spec { std::string name, op; int sign, E, k, scale; };

static double evalQuad(const double* c, double t) {
  volatile double a = t * c[2];   // volatile: keep the host compiler from contracting into an fma
  volatile double b = c[1] + a;
  volatile double d = t * b;
  return c[0] + d;
}

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: gen DATADIR OUT.inc NAME:OP:SIGN:E:K:SCALE ... | F:NAME:SOURCE:K:RBITS:RZ|RN ...\n"); return 2; }
  sfu_data::Store st(argv[1]);
  if (!strncmp(argv[3], "F:", 2) || !strncmp(argv[3], "I:", 2)) return gen_float_main(st, argv[2], argc - 3, argv + 3);
  FILE* out = fopen(argv[2], "wb");
  if (!out) { fprintf(stderr, "cannot write %s\n", argv[2]); return 1; }
  uint32_t hdr[2] = {0x55465350u /* "PSFU" */, (uint32_t)(argc - 3)};
  fwrite(hdr, 4, 2, out);
  for (int a = 3; a < argc; a++) {
    Spec s;
    char name[64], op[64];
    if (sscanf(argv[a], "%63[^:]:%63[^:]:%d:%d:%d:%d", name, op, &s.sign, &s.E, &s.k, &s.scale) != 6) {
      fprintf(stderr, "bad spec %s\n", argv[a]); return 2;
    }
    s.name = name; s.op = op;
    std::vector<uint32_t> v = st.slice(s.op, s.sign, s.E);
    if (v.empty()) { fprintf(stderr, "no data for %s\n", argv[a]); return 1; }
    const uint32_t segBits = 23 - s.k, segN = 1u << segBits;
    std::vector<double> coef(3u << s.k);
    std::vector<R> t(segN), y(segN);
    std::vector<uint32_t> exc;
    R worst = 0;
    for (uint32_t g = 0; g < (1u << s.k); g++) {
      for (uint32_t j = 0; j < segN; j++) {
        float f; memcpy(&f, &v[g * segN + j], 4);
        t[j] = (R)j / segN;
        y[j] = ldexpl(fabsl((R)f), -s.scale) + 0.5L;   // floor(P) == Y  <=>  P in [Y, Y+1): fit the middle
      }
      R c[3];
      worst = std::max(worst, remez(t, y, c));
      for (int i = 0; i < 3; i++) coef[g * 3 + i] = (double)c[i];
      for (uint32_t j = 0; j < segN; j++) {
        double P = evalQuad(&coef[g * 3], ldexp((double)j, -(int)segBits));
        int64_t pred = (int64_t)floor(P), act = (int64_t)floorl(y[j]);
        int64_t d = act - pred;
        if (d != 0) {
          if (d < -128 || d > 127) { fprintf(stderr, "%s: correction %lld too large at %u\n", name, (long long)d, g * segN + j); return 1; }
          exc.push_back(((g * segN + j) << 8) | (uint32_t)(d & 0xff));
        }
      }
    }
    char nm[16] = {0};
    snprintf(nm, sizeof nm, "%s", name);
    int32_t h[4] = {s.k, s.scale, (int32_t)exc.size(), 0};
    fwrite(nm, 1, 16, out);
    fwrite(h, 4, 4, out);
    fwrite(coef.data(), 8, coef.size(), out);
    fwrite(exc.data(), 4, exc.size(), out);
    if (exc.size() & 1) { uint32_t pad = 0xffffffffu; fwrite(&pad, 4, 1, out); }   // keep the next doubles 8-aligned
    printf("%-14s %-22s k=%d: worst minimax %.6Lf, %zu exceptions, size %zu bytes\n", name, op, s.k, worst,
           exc.size(), coef.size() * 8 + exc.size() * 4);
  }
  fclose(out);
}
