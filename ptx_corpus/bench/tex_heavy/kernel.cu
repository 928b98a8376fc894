// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): texture fetches as image filters make them: per output pixel and tap, two
// bilinear fetches (linear filter, normalized coordinates, clamp) of an rgba16f texture and one point fetch at
// integer coordinates (unnormalized) of an rgba8 texture. Sized to run
// about 1 ms under CUDA on an H200.
#include <cuda_runtime.h>
extern "C" __global__ void tex_heavy(cudaTextureObject_t lin, cudaTextureObject_t pt, float* __restrict__ out,
                                     int width, int height, int taps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float u = (x + 0.5f) / width, v = (y + 0.5f) / height;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int t = 0; t < taps; ++t) {
    float du = (t - taps / 2) * 0.37f / width, dv = ((t * 7) % taps - taps / 2) * 0.29f / height;
    float4 a = tex2D<float4>(lin, u + du, v + dv);
    float4 b = tex2D<float4>(lin, u - dv, v + du);
    float4 c = tex2D<float4>(pt, (float)((x + t) & 255), (float)((y + 3 * t) & 255));
    acc.x += a.x + b.y + c.x;
    acc.y += a.y + b.z + c.y;
    acc.z += a.z + b.x + c.z;
    acc.w += a.w * b.w + c.w;
  }
  out[y * width + x] = (acc.x + acc.y) + (acc.z + acc.w);
}
