// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Probe: does ptxas merge mad.hi.sat.s32 with an earlier mad.hi.s32 of the same registers? In mulhi_extremes the H200
// gave mad.hi.sat.s32 == mad.hi.s32 (wrapped, never clamped) in all 4,096 rows, while ops/int_arith (mad.hi.sat.s32
// alone) clamps. out[3i]: mad.hi.sat.s32 alone; out[3i+1]: mad.hi.s32 of x ^ k (k = 0 at run time, so ptxas cannot
// see that the registers hold x); out[3i+2]: mad.hi.sat.s32 of the same registers as out[3i+1].
#include <cstdint>

extern "C" __global__ void mad_hi_sat_cse(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out,
                                          uint32_t k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t x = a[i], y = b[i], z = c[i], x2 = x ^ k, r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
  out[3 * i] = r;
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x2), "r"(y), "r"(z));
  out[3 * i + 1] = r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x2), "r"(y), "r"(z));
  out[3 * i + 2] = r;
}
