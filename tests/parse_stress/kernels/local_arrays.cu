// nvcc -ptx -O3 -arch=sm_90 kernels/local_arrays.cu -o ptx/local_arrays.ptx
// Local memory: dynamically indexed per-thread arrays (.local depot, ld.local/st.local with v2/v4), a struct
// array, and runtime-sized stack allocation with alloca (alloca.u64 with an alignment operand, sm_52+).
#include <cstdint>

struct Item {
  float w;
  int id;
  short tag;
};

__device__ __noinline__ float use_alloca(int n, const float* src) {
  float* p = (float*)alloca(sizeof(float) * (n & 63) + 4);
  for (int k = 0; k <= (n & 63); ++k) p[k] = src[k] * k;
  float s = 0.f;
  for (int k = (n & 63); k >= 0; k -= 3) s += p[k];
  return s;
}

__global__ void locals(const int* __restrict__ idx, const float* __restrict__ src, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float hist[48];
  int perm[16];
  Item items[8];
  for (int k = 0; k < 48; ++k) hist[k] = 0.f;
  for (int k = 0; k < 16; ++k) perm[k] = (k * 7 + i) & 15;
  for (int k = 0; k < 8; ++k) items[k] = Item{src[k], idx[k], (short)k};
  for (int k = 0; k < 64; ++k) {
    int b = idx[(i + k) % n] % 48;
    hist[b < 0 ? -b : b] += src[k];
  }
  float s = 0.f;
  for (int k = 0; k < 16; ++k) s += hist[perm[k] * 3] * items[perm[k] & 7].w + items[k & 7].tag;
  int j = idx[i] & 7;
  items[j].id += i;
  out[i] = s + items[(j + 1) & 7].id + use_alloca(idx[i], src);
}
