// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// tex with integer coordinates (tex.2d.v4.f32.s32), as DLSS's output kernel fetches texels of linear-filtered,
// normalized-coordinate textures: are the integers texel indices (no filtering, no normalization) and how do the
// address modes treat them? One thread per (x, y) in [-3, W+3) x [-2, H+2) over three textures.
#include <cuda_runtime.h>

__device__ __forceinline__ float4 fetch(cudaTextureObject_t t, int x, int y) {
  float4 v;
  asm("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(t), "r"(x), "r"(y));
  return v;
}

extern "C" __global__ void tex2d_intcoord(cudaTextureObject_t linNormClamp,   // rgba16f 7x5 linear clamp normalized
                                          cudaTextureObject_t pointClamp,     // r32f 7x5 point clamp
                                          cudaTextureObject_t linNormBorder,  // rgba16f 7x5 linear border normalized
                                          float4* __restrict__ out) {
  int x = (int)threadIdx.x - 3, y = (int)threadIdx.y - 2;
  int i = threadIdx.y * blockDim.x + threadIdx.x;
  out[3 * i + 0] = fetch(linNormClamp, x, y);
  out[3 * i + 1] = fetch(pointClamp, x, y);
  out[3 * i + 2] = fetch(linNormBorder, x, y);
}
