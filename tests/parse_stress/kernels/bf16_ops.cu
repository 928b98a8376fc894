// nvcc -ptx -O3 -arch=sm_90 kernels/bf16_ops.cu -o ptx/bf16_ops.ptx
// bfloat16 scalar and packed arithmetic; sm_90 has native bf16 add/mul/fma and cvt.rn.bf16x2.f32.
#include <cuda_bf16.h>

__global__ void bf16_math(const __nv_bfloat16* __restrict__ a, const __nv_bfloat162* __restrict__ a2,
                          const float* __restrict__ f, __nv_bfloat16* __restrict__ out,
                          __nv_bfloat162* __restrict__ out2, float* __restrict__ outf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = a[i];
  __nv_bfloat16 y = __float2bfloat16_rn(f[i]);
  __nv_bfloat16 z = x * y + x - y;
  z = __hfma(z, y, x);
  z = __hmax(z, __hneg(y));
  out[i] = z / __float2bfloat16_rz(f[i] + 1.0f);
  __nv_bfloat162 v = a2[i];
  __nv_bfloat162 w = __floats2bfloat162_rn(f[i], -f[i]);
  __nv_bfloat162 p = __hfma2(v, w, __hadd2(v, w));
  p = __hmul2(p, __hmin2(v, w));
  p = h2exp(p);
  out2[i] = __hsub2(p, __habs2(w));
  outf[i] = __bfloat162float(z) + __low2float(p) + __high2float(p) + (float)__bfloat162int_rn(x);
}
