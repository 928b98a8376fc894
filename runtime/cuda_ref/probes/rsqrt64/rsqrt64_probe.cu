// Probe: what rsqrt.approx.f64 gives on the GPU it runs on (docs/SFU.md, "rsqrt.approx.f64").
//
// usage: p2g-rsqrt64-probe OUTDIR [sample]
// With `sample`, writes OUTDIR/rsq_sample.bin instead: the results for the inputs of rsqSample(i) below,
// i = 0 .. kSample - 1 (a model is checked against them off the GPU; the inputs are recomputed there).
// Writes OUTDIR/rsq_e1023.bin and rsq_e1022.bin: the results (uint64 bits) for x = 2^0 * (1 + m / 2^20) and
// x = 2^-1 * (1 + m / 2^20), m = 0 .. 2^20 - 1, low word zero (the two exponent parities, all 20 high mantissa
// bits), and prints on stdout:
//  - how many results have a nonzero low word;
//  - with random low words: how many results differ from the low-word-zero result of the same high word;
//  - over every exponent (4,096 random inputs each): how many results differ from the table of their exponent's
//    parity scaled by 2^-((e - 1023) >> 1) (the exponent rule);
//  - special inputs one per line (zeros, infinities, NaNs, negative, subnormal, extremes) as "in -> out" in hex.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void rsq(const unsigned long long* in, unsigned long long* out, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = __longlong_as_double((long long)in[i]), y;
  asm("rsqrt.approx.f64 %0, %1;" : "=d"(y) : "d"(x));
  out[i] = (unsigned long long)__double_as_longlong(y);
}

// The sample's inputs: splitmix64 (Steele, Lea & Flood 2014) of i, shaped by class: random low words under every
// 20-bit mantissa of exponents 1022 and 1023 (i < 2^20), the extreme exponents 1, 2, 2045, 2046, subnormals of both
// signs, the boundary high words 0x000fffff / 0x00100000, and whole random 64-bit patterns.
const uint64_t kSample = 1536 * 1024;
static uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint64_t rsqSample(uint64_t i) {
  uint64_t r = splitmix64(i), lo = r & 0xffffffffu;
  if (i < (1u << 20)) return (((1022ull + (i & 1)) << 20 | (i >> 1)) << 32) | lo;            // all mantissas x 2 exps
  uint64_t k = i - (1u << 20), cls = k & 7, m20 = (r >> 32) & 0xfffff;
  static const uint64_t ex[4] = {1, 2, 2045, 2046};
  switch (cls) {
    case 0: case 1: return ((ex[(k >> 3) & 3] << 20 | m20) << 32) | lo;                       // extreme exponents
    case 2: return (r & 0x000fffffffffffffull) | ((k >> 4) & 1ull) << 63;                      // subnormals, both signs
    case 3: return (uint64_t((k >> 4) & 1 ? 0x00100000u : 0x000fffffu) << 32) | lo;           // boundary high words
    default: return r;                                                                         // any pattern
  }
}

static std::vector<uint64_t> run(const std::vector<uint64_t>& in) {
  unsigned long long *din, *dout;
  size_t n = in.size();
  CK(cudaMalloc(&din, n * 8));
  CK(cudaMalloc(&dout, n * 8));
  CK(cudaMemcpy(din, in.data(), n * 8, cudaMemcpyHostToDevice));
  rsq<<<unsigned((n + 255) / 256), 256>>>(din, dout, n);
  CK(cudaGetLastError());
  std::vector<uint64_t> out(n);
  CK(cudaMemcpy(out.data(), dout, n * 8, cudaMemcpyDeviceToHost));
  CK(cudaFree(din));
  CK(cudaFree(dout));
  return out;
}

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) { fprintf(stderr, "usage: p2g-rsqrt64-probe OUTDIR [sample]\n"); return 2; }
  std::string dir = argv[1];
  if (argc == 3 && std::string(argv[2]) == "sample") {
    std::vector<uint64_t> in(kSample);
    for (uint64_t i = 0; i < kSample; ++i) in[i] = rsqSample(i);
    std::vector<uint64_t> out = run(in);
    FILE* f = fopen((dir + "/rsq_sample.bin").c_str(), "wb");
    if (!f || fwrite(out.data(), 8, kSample, f) != kSample) { fprintf(stderr, "cannot write rsq_sample.bin\n"); return 1; }
    fclose(f);
    printf("sample: %llu results written\n", (unsigned long long)kSample);
    return 0;
  }
  const uint64_t M = 1u << 20;
  std::vector<uint64_t> in(2 * M);
  for (uint64_t m = 0; m < M; ++m) {
    in[m] = ((1023ull << 20 | m) << 32);
    in[M + m] = ((1022ull << 20 | m) << 32);
  }
  std::vector<uint64_t> base = run(in);
  const char* names[2] = {"rsq_e1023.bin", "rsq_e1022.bin"};
  for (int p = 0; p < 2; ++p) {
    FILE* f = fopen((dir + "/" + names[p]).c_str(), "wb");
    if (!f || fwrite(base.data() + p * M, 8, M, f) != M) { fprintf(stderr, "cannot write %s\n", names[p]); return 1; }
    fclose(f);
  }
  size_t lowNonzero = 0;
  for (uint64_t v : base) lowNonzero += (v & 0xffffffffu) != 0;
  printf("table: %zu of %zu results have a nonzero low word\n", lowNonzero, base.size());

  std::mt19937_64 rng(12345);
  std::vector<uint64_t> lo(in);
  for (auto& v : lo) v |= rng() & 0xffffffffu;
  std::vector<uint64_t> r = run(lo);
  size_t lowDep = 0;
  for (size_t i = 0; i < r.size(); ++i) lowDep += r[i] != base[i];
  printf("low word: %zu of %zu results change with a random low word\n", lowDep, r.size());

  // Every exponent of a positive normal x: the result should be the table entry of the exponent's parity with
  // its exponent moved by -(e - 1023) / 2 (e - 1023 even: the 1023 table; odd: the 1022 table).
  std::vector<uint64_t> ex;
  for (uint64_t e = 1; e <= 2046; ++e)
    for (int k = 0; k < 4096; ++k) ex.push_back(e << 52 | (rng() & ((1ull << 52) - 1)));
  r = run(ex);
  size_t expRule = 0, shown = 0;
  for (size_t i = 0; i < ex.size(); ++i) {
    int64_t e = int64_t(ex[i] >> 52);
    int64_t d = e - 1023;
    int par = (d & 1) ? 1 : 0;  // odd: x = 2^(d) = 2^-1 * 2^(d+1)
    int64_t shift = par ? (d + 1) / 2 : d / 2;  // x = T * 4^shift... rsqrt scales by 2^-shift
    uint64_t m = (ex[i] >> 32) & (M - 1);
    uint64_t t = base[par * M + m];
    int64_t te = int64_t(t >> 52 & 0x7ff) - shift;
    uint64_t want = (te > 0 && te < 2047) ? (uint64_t(te) << 52 | (t & ((1ull << 52) - 1))) : ~0ull;
    if (r[i] != want) {
      ++expRule;
      if (shown++ < 12) printf("  exp rule: x %016llx -> %016llx (rule %016llx)\n", (unsigned long long)ex[i],
                               (unsigned long long)r[i], (unsigned long long)want);
    }
  }
  printf("exponent rule: %zu of %zu results differ\n", expRule, ex.size());

  std::vector<uint64_t> sp = {0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                              0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
                              0xfff8000012345678ull, 0x7ff4000000000000ull, 0xbff0000000000000ull,
                              0x8000000000000001ull, 0x0000000000000001ull, 0x0000000000000003ull,
                              0x0000000080000000ull, 0x0000000100000000ull, 0x0000000fffffffffull,
                              0x000fffffffffffffull, 0x0008000000000000ull, 0x0000100000000000ull,
                              0x0010000000000000ull, 0x0010000000000001ull, 0x7fefffffffffffffull,
                              0x7fe0000000000000ull, 0x3ff0000000000000ull, 0x4000000000000000ull,
                              0x3fefffffffffffffull, 0x3ff00000ffffffffull, 0x3ff0000100000000ull};
  r = run(sp);
  for (size_t i = 0; i < sp.size(); ++i)
    printf("special %016llx -> %016llx\n", (unsigned long long)sp[i], (unsigned long long)r[i]);
  return 0;
}
