// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): packed f16 arithmetic (f16x2 fma/mul/add/min/max, as image filters written
// with half2 do). The recurrences are damped so the values stay finite. Sized to run about 1 ms under CUDA on an
// H200; each thread writes one half2 made of its 4 state words.
#include <cuda_fp16.h>
extern "C" __global__ void f16x2_heavy(const __half2* __restrict__ in, unsigned* __restrict__ out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 a = in[i], b = in[i ^ 1];
  __half2 c = __hmul2(a, __float2half2_rn(0.5f)), d = __float2half2_rn(0.25f);
  const __half2 k1 = __float2half2_rn(0.875f), k2 = __float2half2_rn(0.0625f), k3 = __float2half2_rn(-2.0f),
                k4 = __float2half2_rn(2.0f), k5 = __float2half2_rn(0.9990234f);
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      __half2 p = __hmul2(a, b);
      a = __hfma2(a, k1, __hmul2(c, k2));
      b = __hmax2(__hmin2(__hfma2(b, k1, p), k4), k3);
      c = __hadd2(__hmul2(c, k5), __hsub2(p, d));
      d = __hfma2(d, k5, __hmul2(a, k2));
    }
  }
  __half2 r = __hadd2(__hadd2(a, b), __hsub2(c, d));
  out[i] = *(unsigned*)&r;
}
