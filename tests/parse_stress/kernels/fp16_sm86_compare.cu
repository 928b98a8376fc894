// nvcc -ptx -O3 -arch=sm_86 kernels/fp16_sm86_compare.cu -o ptx/fp16_sm86_compare.ptx
// half2 comparisons and selects on sm_86: set.{lt,ge,eq,neu,gt}.{f16x2,u32}.f16x2 from __hlt2/__hbeq2/__hgt2_mask
// etc., min/max.f16x2, fma.rn.relu.f16x2, __shfl of half2, and a hand-written setp.lt.f16x2 p|q pair predicate.
#include <cuda_fp16.h>

__global__ void h2cmp(const __half2* __restrict__ a, const __half2* __restrict__ b, __half2* __restrict__ out,
                      unsigned* __restrict__ masks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __half2 lt = __hlt2(x, y);
  __half2 ge = __hge2_mask(x, y) ? __hge2(x, y) : lt;
  bool beq = __hbeq2(x, y), blt = __hblt2(x, y), bne = __hbneu2(x, y);
  unsigned mgt = __hgt2_mask(x, y);
  __half2 mn = __hmin2(x, y), mx = __hmax2(x, y);
  __half2 sel = __hisnan2(x) == __float2half2_rn(1.0f) ? y : x;
  __half2 lowhigh = __lowhigh2highlow(sel);
  __half2 combo = __halves2half2(__low2half(mn), __high2half(mx));
  __half2 sh = __shfl_xor_sync(0xffffffffu, combo, 1);
  out[i] = __hfma2_relu(__hadd2(lt, ge), lowhigh, sh);
  unsigned pair;
  asm("{\n\t.reg .pred lo, hi;\n\tsetp.lt.f16x2 lo|hi, %1, %2;\n\tselp.u32 %0, 1, 0, lo;\n\t@hi add.u32 %0, %0, 2;\n\t}"
      : "=r"(pair)
      : "r"(*reinterpret_cast<const unsigned*>(&x)), "r"(*reinterpret_cast<const unsigned*>(&y)));
  masks[i] = pair ^ mgt ^ (beq ? 1u : 0u) ^ (blt ? 2u : 0u) ^ (bne ? 4u : 0u) ^ __hne2_mask(x, y);
}
