// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Point sampling (tex2D with cudaFilterModePoint) under every address mode, with unnormalized and normalized
// coordinates, on rgba16f, r32f and rgba8 (unorm) textures. Each thread samples all five textures at its
// coordinate pair (random values plus quarter-texel steps and values one ulp around texel edges, from
// make_inputs.py) and writes the four components of each result: the missing-channel defaults (r32f gives
// (r, 0, 0, 1)?) and the unorm8 -> float conversion are observed too.
#include <cuda_runtime.h>

extern "C" __global__ void tex2d_point(cudaTextureObject_t hClamp,   // rgba16f 13x7, clamp, unnormalized
                                       cudaTextureObject_t fWrap,    // r32f 13x7, wrap, normalized
                                       cudaTextureObject_t hBorder,  // rgba16f 13x7, border, normalized
                                       cudaTextureObject_t fMirror,  // r32f 13x7, mirror, normalized
                                       cudaTextureObject_t u8Clamp,  // rgba8 13x7, clamp, normalized
                                       const float2* __restrict__ xy, const float2* __restrict__ uv,
                                       float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 a = xy[i];
  float2 b = uv[i];
  float4* o = out + 5 * i;
  o[0] = tex2D<float4>(hClamp, a.x, a.y);
  o[1] = tex2D<float4>(fWrap, b.x, b.y);
  o[2] = tex2D<float4>(hBorder, b.x, b.y);
  o[3] = tex2D<float4>(fMirror, b.x, b.y);
  o[4] = tex2D<float4>(u8Clamp, b.x, b.y);
}
