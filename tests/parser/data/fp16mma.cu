// nvcc -ptx -O3 -arch=sm_90 fp16mma.cu -o fp16mma.ptx
// cuda_fp16.h conversions emit scoped `{ .reg ... }` blocks and cvt.rn.f16x2.f32; the inline asm is an mma.sync
// whose modifiers the parser must keep in order.
#include <cuda_fp16.h>

extern "C" __global__ void pack(const float* in, __half2* out) {
  int i = threadIdx.x;
  out[i] = __floats2half2_rn(in[2 * i], in[2 * i + 1]);
}

extern "C" __global__ void mma16816(const unsigned* a, const unsigned* b, float* d) {
  unsigned a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], b0 = b[0], b1 = b[1];
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d[threadIdx.x * 4 + 0] = c0;
  d[threadIdx.x * 4 + 1] = c1;
  d[threadIdx.x * 4 + 2] = c2;
  d[threadIdx.x * 4 + 3] = c3;
}
