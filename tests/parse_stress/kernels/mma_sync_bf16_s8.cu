// nvcc -ptx -O3 -arch=sm_80 kernels/mma_sync_bf16_s8.cu -o ptx/mma_sync_bf16_s8.ptx
// mma.sync forms beyond f16: m16n8k16 bf16 -> f32, m16n8k32 s8 -> s32 (with .satfinite), m16n8k8 tf32, and
// m8n8k4 f64, all as inline asm on register fragments loaded straight from global memory.
#include <cstdint>

__global__ void mma_mixed(const uint32_t* __restrict__ a, const uint32_t* __restrict__ b, float* __restrict__ df,
                          int* __restrict__ di, const double* __restrict__ da, double* __restrict__ dd) {
  int lane = threadIdx.x & 31;
  const uint32_t* pa = a + lane * 4;
  const uint32_t* pb = b + lane * 2;
  float f0 = 0.f, f1 = 0.f, f2 = 0.f, f3 = 0.f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)
      : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
  int i0 = 0, i1 = 0, i2 = 0, i3 = 0;
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3)
      : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
  float t0 = 0.f, t1 = 0.f, t2 = 0.f, t3 = 0.f;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(t0), "+f"(t1), "+f"(t2), "+f"(t3)
      : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
  double x0 = 0.0, x1 = 0.0;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(x0), "+d"(x1)
               : "d"(da[lane]), "d"(da[32 + lane]));
  df[lane * 4 + 0] = f0 + t0;
  df[lane * 4 + 1] = f1 + t1;
  df[lane * 4 + 2] = f2 + t2;
  df[lane * 4 + 3] = f3 + t3;
  di[lane * 4 + 0] = i0;
  di[lane * 4 + 1] = i1;
  di[lane * 4 + 2] = i2;
  di[lane * 4 + 3] = i3;
  dd[lane * 2] = x0;
  dd[lane * 2 + 1] = x1;
}
