// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Bilinear filtering (cudaFilterModeLinear): rgba8 unorm (clamp, normalized), rgba16f (clamp, unnormalized),
// r32f (border, normalized) and rgba16f (wrap, normalized). NVIDIA documents 8-bit fractional weights; how the
// fraction is rounded and how the weighted sum is formed is what this case pins down (docs/TEXTURES.md).
#include <cuda_runtime.h>

extern "C" __global__ void tex2d_linear(cudaTextureObject_t u8Clamp,  // rgba8 11x6, clamp, normalized
                                        cudaTextureObject_t hClamp,   // rgba16f 11x6, clamp, unnormalized
                                        cudaTextureObject_t fBorder,  // r32f 11x6, border, normalized
                                        cudaTextureObject_t hWrap,    // rgba16f 11x6, wrap, normalized
                                        const float2* __restrict__ xy, const float2* __restrict__ uv,
                                        float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 a = xy[i];
  float2 b = uv[i];
  float4* o = out + 4 * i;
  o[0] = tex2D<float4>(u8Clamp, b.x, b.y);
  o[1] = tex2D<float4>(hClamp, a.x, a.y);
  o[2] = tex2D<float4>(fBorder, b.x, b.y);
  o[3] = tex2D<float4>(hWrap, b.x, b.y);
}
