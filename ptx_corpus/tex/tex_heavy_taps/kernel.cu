// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Every fetch of bench/tex_heavy, one per thread, for 4 of its pixels: bench/tex_heavy differed on lavapipe and on
// NVIDIA's Vulkan driver alike (125,480 of 129,600 values on NVIDIA, 2026-12-01) while its 16-tap twin
// benchlite/tex_heavy is identical; with 2048 taps the normalized coordinates of the rgba16f linear texture leave
// [0, 1] (clamp). Same textures as bench/tex_heavy. Thread t of block (b, p): tap 256 b + t of pixel p;
// out[(p * taps + tap) * 12 + k]: a.xyzw, b.xyzw, c.xyzw.
#include <cuda_runtime.h>
extern "C" __global__ void tex_heavy_taps(cudaTextureObject_t lin, cudaTextureObject_t pt, float* __restrict__ out,
                                          int width, int height, int taps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, p = blockIdx.y;
  if (t >= taps) return;
  int x = (p * 131 + 7) % width, y = (p * 67 + 3) % height;
  float u = (x + 0.5f) / width, v = (y + 0.5f) / height;
  float du = (t - taps / 2) * 0.37f / width, dv = ((t * 7) % taps - taps / 2) * 0.29f / height;
  float4 a = tex2D<float4>(lin, u + du, v + dv);
  float4 b = tex2D<float4>(lin, u - dv, v + du);
  float4 c = tex2D<float4>(pt, (float)((x + t) & 255), (float)((y + 3 * t) & 255));
  float* o = out + (size_t(p) * taps + t) * 12;
  o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = a.w;
  o[4] = b.x; o[5] = b.y; o[6] = b.z; o[7] = b.w;
  o[8] = c.x; o[9] = c.y; o[10] = c.z; o[11] = c.w;
}
