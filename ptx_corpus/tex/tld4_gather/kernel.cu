// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// tex2Dgather (tld4.{r,g,b,a}.2d): the four texels of the bilinear footprint, one component each, on an rgba16f
// texture (clamp, unnormalized; all four components) and an r32f texture (wrap, normalized; components 0 and 1,
// the second of which the format lacks). The footprint's corner depends on how NVIDIA rounds x - 0.5.
#include <cuda_runtime.h>

extern "C" __global__ void tld4_gather(cudaTextureObject_t hClamp,  // rgba16f 9x5, clamp, unnormalized
                                       cudaTextureObject_t fWrap,   // r32f 9x5, wrap, normalized
                                       const float2* __restrict__ xy, const float2* __restrict__ uv,
                                       float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 a = xy[i];
  float2 b = uv[i];
  float4* o = out + 6 * i;
  o[0] = tex2Dgather<float4>(hClamp, a.x, a.y, 0);
  o[1] = tex2Dgather<float4>(hClamp, a.x, a.y, 1);
  o[2] = tex2Dgather<float4>(hClamp, a.x, a.y, 2);
  o[3] = tex2Dgather<float4>(hClamp, a.x, a.y, 3);
  o[4] = tex2Dgather<float4>(fWrap, b.x, b.y, 0);
  o[5] = tex2Dgather<float4>(fWrap, b.x, b.y, 1);
}
