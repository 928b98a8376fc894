// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// cvt into and out of f64 on NaN, infinite, denormal and extreme operands: which NaN each form returns (payload kept
// or canonical, sign, quiet bit). ptx_corpus/outside/ldst_wide_regs showed the H200 keeping an f32 NaN's payload in
// cvt.f64.f32 (0x7FC00001 -> 0x7FF8000020000000) where ptx2glsl gave the canonical 0x7FFFFFFFFFFFFFFF.
// out[8 i + k], 8 bytes each (f32 results zero-extended).
#include <cstdint>

extern "C" __global__ void cvt_f64_nan(const uint32_t* a32, const uint64_t* a64, uint64_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = __uint_as_float(a32[i]);
  double d = __longlong_as_double((long long)a64[i]);
  uint64_t* o = out + size_t(i) * 8;
  double r;
  float s;
  asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(f)); o[0] = __double_as_longlong(r);
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(s) : "f"(f)); o[1] = __float_as_uint(s);
  asm("cvt.rzi.ftz.f32.f32 %0, %1;" : "=f"(s) : "f"(f)); o[2] = __float_as_uint(s);
  asm("cvt.sat.f64.f32 %0, %1;" : "=d"(r) : "f"(f)); o[3] = __double_as_longlong(r);
  asm("cvt.rni.f64.f64 %0, %1;" : "=d"(r) : "d"(d)); o[4] = __double_as_longlong(r);
  asm("cvt.rmi.f64.f64 %0, %1;" : "=d"(r) : "d"(d)); o[5] = __double_as_longlong(r);
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(s) : "d"(d)); o[6] = __float_as_uint(s);
  asm("cvt.ftz.f64.f32 %0, %1;" : "=d"(r) : "f"(f)); o[7] = __double_as_longlong(r);
}
