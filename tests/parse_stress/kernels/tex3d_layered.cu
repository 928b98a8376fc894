// nvcc -ptx -O3 -arch=sm_86 kernels/tex3d_layered.cu -o ptx/tex3d_layered.ptx
// The other texture shapes: tex.3d, tex.1d with integer coordinates (tex1Dfetch), tex.a2d (layered 2D),
// tex.a1d, cubemaps, and texture queries (txq), on sm_86.
#include <cuda_runtime.h>

__global__ void sample_shapes(cudaTextureObject_t t3, cudaTextureObject_t t1, cudaTextureObject_t tl,
                              cudaTextureObject_t tl1, cudaTextureObject_t tc, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = i * 0.01f;
  float4 v3 = tex3D<float4>(t3, f, f * 0.5f, 1.0f - f);
  float4 v3l = tex3DLod<float4>(t3, f, f, f, 2.0f);
  float s1 = tex1Dfetch<float>(t1, i);
  int2 i1 = tex1Dfetch<int2>(t1, i + 1);
  float4 la = tex2DLayered<float4>(tl, f, 1.0f - f, i & 3);
  float4 lal = tex2DLayeredLod<float4>(tl, f, f, i & 1, 0.5f);
  float la1 = tex1DLayered<float>(tl1, f, 2);
  float4 cube = texCubemap<float4>(tc, f - 0.5f, 0.5f, 1.0f);
  out[i] = v3.x + v3l.y + s1 + (float)(i1.x + i1.y) + la.z + lal.w + la1 + cube.x;
}

__global__ void query(cudaTextureObject_t t, cudaSurfaceObject_t s, int* __restrict__ out) {
  int w, h, d;
  asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
  asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(d) : "l"(t));
  int sw;
  asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
  out[0] = w;
  out[1] = h;
  out[2] = d;
  out[3] = sw;
}
