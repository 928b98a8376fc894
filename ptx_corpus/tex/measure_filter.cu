// nvcc -O2 -arch=sm_90 measure_filter.cu -o measure_filter && ./measure_filter OUTDIR
// Measures, on an NVIDIA GPU, what docs/TEXTURES.md leaves open about the texture unit (HAZARDS.md #11):
//   1. how a coordinate becomes the 8-bit filtering fraction: round down or round to nearest (1D sweep of x over
//      a 2-texel f32 texture holding 0 and 1, so the result IS the weight);
//   2. where point sampling switches texels near a texel edge (one-ulp neighbours of integers, unnormalized and
//      normalized), i.e. whether point sampling goes through the same fixed point;
//   3. how the weighted sum is formed, for f32, f16 and unorm8 texels, 1D and 2D, against four hypotheses.
// Prints one line per figure and writes the raw samples as CSV files into OUTDIR for a closer look.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__global__ void sample2d(cudaTextureObject_t t, const float2* xy, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

struct Tex {
  cudaArray_t arr = nullptr;
  cudaTextureObject_t obj = 0;
};

// A width x height texture of `fmt` from host texels; filter and normalized as given, clamp addressing.
Tex makeTex(cudaChannelFormatDesc fmt, int w, int h, const void* data, size_t texelBytes, bool linear, bool normalized,
            bool unorm) {
  Tex t;
  CK(cudaMallocArray(&t.arr, &fmt, w, h));
  CK(cudaMemcpy2DToArray(t.arr, 0, 0, data, w * texelBytes, w * texelBytes, h, cudaMemcpyHostToDevice));
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = t.arr;
  cudaTextureDesc d{};
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.readMode = unorm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  d.normalizedCoords = normalized;
  CK(cudaCreateTextureObject(&t.obj, &r, &d, nullptr));
  return t;
}

std::vector<float4> run(const Tex& t, const std::vector<float2>& xy) {
  float2* dxy;
  float4* dout;
  int n = (int)xy.size();
  CK(cudaMalloc(&dxy, n * sizeof(float2)));
  CK(cudaMalloc(&dout, n * sizeof(float4)));
  CK(cudaMemcpy(dxy, xy.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  sample2d<<<(n + 255) / 256, 256>>>(t.obj, dxy, dout, n);
  CK(cudaGetLastError());
  std::vector<float4> out(n);
  CK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
  cudaFree(dxy);
  cudaFree(dout);
  return out;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The fixed-point position (8 fractional bits) under each rounding hypothesis.
long fixDown(float v) { return (long)std::floor((double)v * 256.0); }
long fixNearest(float v) { return (long)std::nearbyint((double)v * 256.0); }

// 1. The weight as a function of x: texels (0, 1) in row 0, y at the row's centre so the y weight is 0.
void measureFraction(const std::string& dir) {
  float tex[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  Tex t = makeTex(cudaCreateChannelDesc<float>(), 2, 2, tex, 4, true, false, false);
  std::vector<float2> xy;
  for (int k = 0; k <= 16384; ++k) xy.push_back({0.5f + k / 16384.0f, 0.5f});
  for (int k = 0; k < 4096; ++k) {  // one ulp around every multiple of 1/512 (where down and nearest differ)
    float c = 0.5f + (k % 512) / 512.0f;
    xy.push_back({k / 512 % 2 ? std::nextafter(c, 2.0f) : std::nextafter(c, 0.0f), 0.5f});
  }
  auto out = run(t, xy);
  int down = 0, nearest = 0, non256 = 0;
  FILE* f = std::fopen((dir + "/fraction.csv").c_str(), "w");
  for (size_t i = 0; i < xy.size(); ++i) {
    float a = out[i].x;
    double a256 = (double)a * 256.0;
    if (a256 != std::floor(a256)) ++non256;
    long p = (long)std::floor(a256 + 0.5);
    float xb = xy[i].x - 0.5f;
    down += fixDown(xb) == p;
    nearest += fixNearest(xb) == p;
    if (f) std::fprintf(f, "%.9g,%.9g,%08x\n", xy[i].x, a, bits(a));
  }
  if (f) std::fclose(f);
  std::printf("fraction: %zu samples, weights not a multiple of 1/256: %d, match round-down: %d, match nearest: %d\n",
              xy.size(), non256, down, nearest);
}

// 2. Point sampling next to texel edges: texture texel i holds i; unnormalized and normalized coordinates.
void measurePoint(const std::string& dir) {
  const int W = 13;
  std::vector<float> tex(W * 2);
  for (int i = 0; i < W * 2; ++i) tex[i] = float(i % W);
  for (int norm = 0; norm < 2; ++norm) {
    Tex t = makeTex(cudaCreateChannelDesc<float>(), W, 2, tex.data(), 4, false, norm, false);
    std::vector<float2> xy;
    for (int e = 1; e < W; ++e)
      for (int d = -8; d <= 8; ++d) {
        float c = norm ? float(e) / W : float(e);
        float x = c;
        for (int s = 0; s < std::abs(d); ++s) x = std::nextafter(x, d < 0 ? -1.0f : 100.0f);
        for (int s = 1; s <= 2; ++s) xy.push_back({x + (s == 2 ? (d < 0 ? -1.0f : 1.0f) / 1024.0f : 0.0f), norm ? 0.25f : 0.5f});
      }
    auto out = run(t, xy);
    int floorMatch = 0, down = 0, nearest = 0;
    FILE* f = std::fopen((dir + (norm ? "/point_normalized.csv" : "/point_unnormalized.csv")).c_str(), "w");
    for (size_t i = 0; i < xy.size(); ++i) {
      float u = norm ? xy[i].x * float(W) : xy[i].x;
      int got = (int)out[i].x;
      floorMatch += (int)std::floor(u) == got;
      down += (int)(fixDown(u) >> 8) == got;
      nearest += (int)(fixNearest(u) >> 8) == got;
      if (f) std::fprintf(f, "%.9g,%.9g,%d\n", xy[i].x, u, got);
    }
    if (f) std::fclose(f);
    std::printf("point %s: %zu samples, match floor(f32 x*N): %d, fixed round-down: %d, fixed nearest: %d\n",
                norm ? "normalized" : "unnormalized", xy.size(), floorMatch, down, nearest);
  }
}

// Hypotheses for the weighted sum, with a, b the 8-bit fractions (0..255) of x and y.
float hypExact(const float* T, int a, int b, bool twoD) {  // exact sum, rounded once
  double s = (double)(256 - a) * (twoD ? 256 - b : 256) * T[0] + (double)a * (twoD ? 256 - b : 256) * T[1];
  if (twoD) s += (double)(256 - a) * b * T[2] + (double)a * b * T[3];
  return (float)(s / (twoD ? 65536.0 : 65536.0));
}
float hypLerp(const float* T, int a, int b, bool twoD) {  // T0 + w (T1 - T0) per axis in f32
  float wa = a / 256.0f, wb = b / 256.0f;
  float r0 = T[0] + wa * (T[1] - T[0]);
  if (!twoD) return r0;
  float r1 = T[2] + wa * (T[3] - T[2]);
  return r0 + wb * (r1 - r0);
}
float hypProducts(const float* T, int a, int b, bool twoD) {  // (1-w) T0 + w T1, each product rounded, per axis
  float wa = a / 256.0f, wb = b / 256.0f;
  float r0 = (1.0f - wa) * T[0] + wa * T[1];
  if (!twoD) return r0;
  float r1 = (1.0f - wa) * T[2] + wa * T[3];
  return (1.0f - wb) * r0 + wb * r1;
}
float hypFma(const float* T, int a, int b, bool twoD) {  // fma(w, T1, (1-w) T0) per axis
  float wa = a / 256.0f, wb = b / 256.0f;
  float r0 = std::fma(wa, T[1], (1.0f - wa) * T[0]);
  if (!twoD) return r0;
  float r1 = std::fma(wa, T[3], (1.0f - wa) * T[2]);
  return std::fma(wb, r1, (1.0f - wb) * r0);
}

// 3. Random 2x2 blocks (rows of a 2 x 2K texture), sampled at random positions inside each block.
void measureSum(const std::string& dir, const char* name, int kind) {
  const int K = 4096;
  std::mt19937 rng(1234 + kind);
  std::uniform_real_distribution<float> val(-4.0f, 4.0f), pos(0.5f, 1.5f);
  std::vector<float> T(2 * 2 * K);   // the texel values as the unit sees them (after unorm/f16 decode)
  std::vector<uint8_t> raw;
  size_t tb = kind == 0 ? 4 : kind == 1 ? 2 : 1;
  raw.resize(T.size() * tb);
  for (size_t i = 0; i < T.size(); ++i) {
    if (kind == 0) {
      T[i] = val(rng);
      std::memcpy(&raw[i * 4], &T[i], 4);
    } else if (kind == 1) {
      __half h = __float2half_rn(val(rng));
      T[i] = __half2float(h);
      std::memcpy(&raw[i * 2], &h, 2);
    } else {
      raw[i] = (uint8_t)(rng() & 255);
      T[i] = raw[i] / 255.0f;
    }
  }
  cudaChannelFormatDesc fmt = kind == 0 ? cudaCreateChannelDesc<float>()
                              : kind == 1 ? cudaCreateChannelDescHalf()
                                          : cudaCreateChannelDesc<unsigned char>();
  Tex t = makeTex(fmt, 2, 2 * K, raw.data(), tb, true, false, kind == 2);
  for (int twoD = 0; twoD < 2; ++twoD) {
    std::vector<float2> xy;
    for (int k = 0; k < K; ++k) xy.push_back({pos(rng), twoD ? 2.0f * k + pos(rng) : 2.0f * k + 0.5f});
    auto out = run(t, xy);
    int m[5] = {0, 0, 0, 0, 0};
    FILE* f = std::fopen((dir + "/sum_" + name + (twoD ? "_2d" : "_1d") + ".csv").c_str(), "w");
    for (int k = 0; k < K; ++k) {
      int a = (int)(fixDown(xy[k].x - 0.5f) & 255), b = (int)(fixDown(xy[k].y - 0.5f - 2.0f * k) & 255);
      int an = (int)(fixNearest(xy[k].x - 0.5f) & 255), bn = (int)(fixNearest(xy[k].y - 0.5f - 2.0f * k) & 255);
      const float Tk[4] = {T[4 * k], T[4 * k + 1], T[4 * k + 2], T[4 * k + 3]};
      float got = out[k].x;
      m[0] += bits(hypExact(Tk, a, b, twoD)) == bits(got);
      m[1] += bits(hypLerp(Tk, a, b, twoD)) == bits(got);
      m[2] += bits(hypProducts(Tk, a, b, twoD)) == bits(got);
      m[3] += bits(hypFma(Tk, a, b, twoD)) == bits(got);
      m[4] += bits(hypExact(Tk, an, bn, twoD)) == bits(got);
      if (f)
        std::fprintf(f, "%.9g,%.9g,%08x,%08x,%08x,%08x,%08x\n", xy[k].x, xy[k].y, bits(got), bits(Tk[0]), bits(Tk[1]),
                     bits(Tk[2]), bits(Tk[3]));
    }
    if (f) std::fclose(f);
    std::printf("sum %s %s: %d samples; exact-once %d, lerp %d, products %d, fma %d, exact-once with nearest "
                "fraction %d\n", name, twoD ? "2d" : "1d", K, m[0], m[1], m[2], m[3], m[4]);
  }
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.name);
  measureFraction(dir);
  measurePoint(dir);
  measureSum(dir, "f32", 0);
  measureSum(dir, "f16", 1);
  measureSum(dir, "unorm8", 2);
  return 0;
}
