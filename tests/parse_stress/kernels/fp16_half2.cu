// nvcc -ptx -O3 -arch=sm_90 kernels/fp16_half2.cu -o ptx/fp16_half2.ptx
// half2 packed arithmetic: add/fma/mul_rn, exp/sqrt approximations, NaN-propagating max, negation and
// conversions in both directions (f32<->f16x2 packing emits cvt.rn.f16x2.f32 and mov.b32 {lo,hi}).
#include <cuda_fp16.h>

__global__ void half2_ops(const __half2* __restrict__ a, const __half2* __restrict__ b, const float* __restrict__ f,
                          __half2* __restrict__ out, float* __restrict__ outf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __half2 s = __hadd2(x, y);
  __half2 m = __hfma2(x, y, s);
  __half2 r = __hmul2_rn(m, __hneg2(y));
  __half2 e = h2exp(__hmul2(x, __float2half2_rn(0.125f)));
  __half2 q = h2sqrt(__habs2(y));
  __half2 mx = __hmax2_nan(r, e);
  __half2 packed = __floats2half2_rn(f[i], f[i] * 2.0f);
  out[i] = __hadd2_sat(__hsub2(mx, q), packed);
  float lo = __low2float(out[i]);
  float hi = __high2float(out[i]);
  __half h = hsqrt(__float2half_rn(fabsf(lo)));
  __half hm = __hmax_nan(h, __high2half(x));
  outf[i] = lo + hi + __half2float(hm) + __half2float(__float2half_rz(f[i]));
}
