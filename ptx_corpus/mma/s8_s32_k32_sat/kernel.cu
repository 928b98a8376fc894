// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// ptx_corpus/mma/s8_s32_k32_sat: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32, one tile per warp (written by
// ptx_corpus/mma/make_cases.py: edit it there). Inputs from integer hashes, six classes by tile (make_cases.py).
#include <stdint.h>

__device__ __forceinline__ uint32_t mix(uint32_t x) {  // a 32-bit integer hash (lowbias32)
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
// (exponent bits, mantissa bits) of a type code: 0 f16, 1 bf16, 2 tf32 (an f32 register), 3 f32, 4 s8, 5 s32,
// 6 e4m3, 7 e5m2
__device__ __forceinline__ int ebits(int ty) { return ty == 0 || ty == 7 ? 5 : ty == 6 ? 4 : 8; }
__device__ __forceinline__ int mbits(int ty) { return ty == 0 ? 10 : ty == 1 ? 7 : ty == 6 ? 3 : ty == 7 ? 2 : 23; }
__device__ __forceinline__ int nbits(int ty) { return ty <= 1 ? 16 : ty >= 6 ? 8 : 32; }

// One element of matrix `mat` (0 A, 1 B, 2 C) of tile `tile` at (r, k) in type ty, class cls.
__device__ uint32_t elemRaw(int ty, uint32_t tile, int mat, int r, int k, int cls) {
  uint32_t h = mix(tile * 0x9E3779B9u ^ mix(uint32_t(mat * 4096 + r * 64 + k) + 0x51ED27u));
  uint32_t h2 = mix(h ^ 0xA5A5A5A5u);
  if (ty == 4) {
    if (cls == 1 || cls == 3) { const int e8[6] = {-128, 127, -127, 0, 1, -1}; return uint32_t(e8[h % 6]) & 0xFFu; }
    return h & 0xFFu;
  }
  if (ty == 5) {
    if (cls == 1 || cls == 3) {
      const uint32_t e32[6] = {0x80000000u, 0x7FFFFFFFu, 0x7FFFFFFAu, 0x80000007u, 0u, 0xFFFFFFFFu};
      return e32[h % 6];
    }
    return h;
  }
  int eb = ebits(ty), mb = mbits(ty), bits = nbits(ty);
  uint32_t sign = (h & 1u) << (bits - 1), mant = (h >> 1) & ((1u << mb) - 1u);
  int bias = (1 << (eb - 1)) - 1, emaxB = (1 << eb) - 2;
  int e;
  switch (cls) {
    case 0: e = bias - 3 + int(h2 % 7u); break;
    case 1: e = int(h2 % uint32_t(emaxB + 1)); break;  // 0: subnormals and zeros
    case 2: return bits == 32 ? h2 : (h2 & ((1u << bits) - 1u));
    case 3:
      if (h2 % 5u == 0u) {
        uint32_t all = uint32_t((1 << eb) - 1) << mb;
        switch ((h2 >> 8) % 6u) {
          case 0: return sign;                                      // +-0
          case 1: return sign | all;                                // +-inf
          case 2: return sign | all | (1u << (mb - 1)) | ((h2 >> 12) & 1u);  // NaN
          case 3: return sign | (mant ? mant : 1u);                 // subnormal
          case 4: return sign | (uint32_t(emaxB) << mb) | ((1u << mb) - 1u);  // largest finite
          default: return sign | (1u << mb) | mant;                 // smallest normals
        }
      }
      e = bias - 2 + int(h2 % 5u);
      break;
    case 5:
      if (mat == 2) e = (h2 & 1u) ? bias + 4 + int((h2 >> 1) % 20u) : bias - 8 - int((h2 >> 1) % 20u);
      else e = bias - 2 + int(h2 % 5u);
      break;
    default: e = bias - 2 + int(h2 % 5u); break;
  }
  if (e < 0) e = 0;
  return sign | (uint32_t(e) << mb) | mant;
}
__device__ uint32_t elem(int ty, uint32_t tile, int mat, int r, int k, int cls) {
  if (cls == 4 && ty != 4 && mat < 2) {  // cancellation
    int bits = nbits(ty);
    if (mat == 0) return elemRaw(ty, tile, 0, r, k & ~1, cls) ^ ((k & 1) ? (1u << (bits - 1)) : 0u);
    uint32_t v = elemRaw(ty, tile, 1, r & ~1, k, cls);
    return (r & 1) ? v ^ ((mix(tile + uint32_t(r * 64 + k)) & 3u) << (ty == 2 ? 13 : 0)) : v;
  }
  return elemRaw(ty, tile, mat, r, k, cls);
}

#define TA 4
#define TB 4
#define TC 5
#define KK 32
__device__ __forceinline__ uint32_t A_(uint32_t tile, int cls, int i, int k) { return elem(TA, tile, 0, i, k, cls); }
__device__ __forceinline__ uint32_t B_(uint32_t tile, int cls, int k, int j) { return elem(TB, tile, 1, k, j, cls); }
__device__ __forceinline__ uint32_t C_(uint32_t tile, int cls, int i, int j) { return elem(TC, tile, 2, i, j, cls); }
__device__ __forceinline__ uint32_t pack2(uint32_t lo, uint32_t hi) { return (lo & 0xFFFFu) | (hi << 16); }
__device__ __forceinline__ uint32_t pack4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return (a & 0xFFu) | ((b & 0xFFu) << 8) | ((c & 0xFFu) << 16) | (d << 24);
}

extern "C" __global__ void mma_s8_s32_k32_sat(uint32_t* d) {
  uint32_t tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3, cls = int(tile % 6u);
  uint32_t a[4], b[2], c[4], dd[4];
  // fragments: PTX ISA "Matrix fragments for mma.m16n8k32"
  for (int i = 0; i < 4; ++i) c[i] = C_(tile, cls, g + (i >= 2 ? 8 : 0), 2 * t + (i & 1));
  for (int r = 0; r < 4; ++r) {
    int row = g + ((r & 1) ? 8 : 0), col = 4 * t + ((r >> 1) ? 16 : 0);
    a[r] = pack4(A_(tile, cls, row, col), A_(tile, cls, row, col + 1), A_(tile, cls, row, col + 2), A_(tile, cls, row, col + 3));
  }
  for (int r = 0; r < 2; ++r) {
    int k = 4 * t + 16 * r;
    b[r] = pack4(B_(tile, cls, k, g), B_(tile, cls, k + 1, g), B_(tile, cls, k + 2, g), B_(tile, cls, k + 3, g));
  }
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(dd[0]), "=r"(dd[1]), "=r"(dd[2]), "=r"(dd[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  for (int i = 0; i < 4; ++i) d[tile * 128u + uint32_t((g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1))] = uint32_t(dd[i]);
}
