// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Linear filtering beyond tex2d_linear (docs/TEXTURES.md, "Open measurements"): which f16 texels set the shared
// exponent when a weight rounds to 0 although both fractions are not 0 (hTie: 2x2, the (1,1) texel much larger
// than the others), 1D f16 filtering (h1d), and the 3D weights with unorm8, f16 and f32 texels (u3d, h3d, f3d).
#include <cuda_runtime.h>

extern "C" __global__ void tex_filter_more(cudaTextureObject_t hTie,  // rgba16f 2x2, clamp, unnormalized
                                           cudaTextureObject_t h1d,   // rgba16f 16 (1D), clamp, unnormalized
                                           cudaTextureObject_t u3d,   // rgba8 5x4x3, clamp, unnormalized
                                           cudaTextureObject_t h3d,   // rgba16f 5x4x3, clamp, unnormalized
                                           cudaTextureObject_t f3d,   // rgba32f 5x4x3, clamp, unnormalized
                                           const float2* __restrict__ a, const float4* __restrict__ b,
                                           float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = a[i];
  float4 q = b[i];
  float4* o = out + 5 * i;
  o[0] = tex2D<float4>(hTie, p.x, p.y);
  o[1] = tex1D<float4>(h1d, q.w);
  o[2] = tex3D<float4>(u3d, q.x, q.y, q.z);
  o[3] = tex3D<float4>(h3d, q.x, q.y, q.z);
  o[4] = tex3D<float4>(f3d, q.x, q.y, q.z);
}
