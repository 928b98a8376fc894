// nvcc -ptx -O3 -arch=sm_90 kernels/tex2d.cu -o ptx/tex2d.ptx
// Bindless 2D textures: tex.2d.v4.f32.f32 with a cudaTextureObject_t (.u64 param), explicit LOD (tex.level),
// gradients (tex.grad), and tld4 gathers of each component (tex2Dgather -> tld4.{r,g,b,a}.2d).
#include <cuda_runtime.h>

__global__ void sample2d(cudaTextureObject_t tex, cudaTextureObject_t texi, float4* __restrict__ out,
                         int4* __restrict__ outi, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float4 a = tex2D<float4>(tex, u, v);
  float4 b = tex2DLod<float4>(tex, u, v, 1.5f);
  float4 g = tex2DGrad<float4>(tex, u, v, make_float2(1.0f / w, 0.f), make_float2(0.f, 1.0f / h));
  float4 r = tex2Dgather<float4>(tex, u, v, 0);
  float4 al = tex2Dgather<float4>(tex, u, v, 3);
  int4 gi = tex2Dgather<int4>(texi, (float)x, (float)y, 1);
  int4 ii = tex2D<int4>(texi, (float)x + 0.5f, (float)y + 0.5f);
  float s = tex2D<float>(tex, u * 2.f, v * 2.f);
  out[y * w + x] = make_float4(a.x + b.y + g.z + s, r.x + r.y, al.z + al.w, a.w * b.w);
  outi[y * w + x] = make_int4(gi.x + ii.x, gi.y, gi.z + ii.z, gi.w);
}
