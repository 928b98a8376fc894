// nvcc -ptx -O3 -arch=sm_90 kernels/video_bitfield.cu -o ptx/video_bitfield.ptx
// Bit-field and legacy video instructions written directly: bfe/bfi (signed and unsigned), vadd/vmax with byte
// selectors (.b0/.h1) and secondary ops, vset2, lop3 with explicit LUT, szext, bmsk, cnot, testp and copysign.
__global__ void bits(const unsigned* __restrict__ a, const unsigned* __restrict__ b, const float* __restrict__ f,
                     unsigned* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], r0, r1, r2, r3, r4, r5, r6, r7, r8;
  int s0;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(i & 31), "n"(5));
  asm("bfe.s32 %0, %1, 4, 8;" : "=r"(s0) : "r"(x));
  asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(r1) : "r"(x), "r"(y));
  asm("vadd.u32.u32.u32.sat.add %0, %1.b0, %2.b1, %3;" : "=r"(r2) : "r"(x), "r"(y), "r"(r0));
  asm("vmax.s32.s32.s32.max %0, %1.h1, %2.h0, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(r1));
  asm("vset2.u32.u32.ne %0, %1, %2, %3;" : "=r"(r4) : "r"(x), "r"(y), "r"(0));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r5) : "r"(x), "r"(y), "r"(r2));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r6) : "r"(x), "r"(i & 31));
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r7) : "r"(i & 7), "r"(9));
  asm("cnot.b32 %0, %1;" : "=r"(r8) : "r"(y));
  unsigned fin;
  asm("{\n\t.reg .pred p;\n\ttestp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(fin) : "f"(f[i]));
  float cs;
  asm("copysign.f32 %0, %1, %2;" : "=f"(cs) : "f"(f[i]), "f"(-1.0f));
  out[i] = r0 ^ (unsigned)s0 ^ r1 ^ r2 ^ r3 ^ r4 ^ r5 ^ r6 ^ r7 ^ r8 ^ fin ^ __float_as_uint(cs);
}
