// nvcc -ptx -O3 -arch=sm_80 kernels/fp16_scalar.cu -o ptx/fp16_scalar.ptx
// Scalar __half math and the integer conversions, compiled for sm_80 where some of them lower differently.
#include <cuda_fp16.h>

__global__ void half_scalar(const __half* __restrict__ a, const __half* __restrict__ b, int* __restrict__ oi,
                            __half* __restrict__ oh, unsigned short* __restrict__ bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i];
  __half d = __hdiv(x, y);
  __half e = hexp(x), l = hlog(__habs(y)), s = hsin(x), c = hcos(y);
  __half r = hrsqrt(__habs(x)), rc = hrcp(y), fl = hfloor(d), ce = hceil(d), tr = htrunc(d), rn = hrint(d);
  __half acc = __hfma(e, l, s);
  acc = __hadd(acc, __hmul(c, r));
  acc = __hsub(acc, __hmin(rc, fl));
  acc = __hmax(acc, __hadd(ce, __hadd(tr, rn)));
  if (__hlt(x, y) || __hisnan(d)) acc = __hneg(acc);
  if (__hisinf(acc)) acc = __float2half(0.0f);
  oh[i] = acc;
  oi[i] = __half2int_rn(acc) + __half2int_rz(x) + (int)__half2uint_rd(__habs(y)) + (int)__half2ll_ru(d);
  bits[i] = __half_as_ushort(acc) ^ __half_as_ushort(__int2half_rn(i)) ^ __half_as_ushort(__ushort2half_rn(bits[i]));
}
