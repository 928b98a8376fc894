// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// The 64-bit integer instructions on operands that are sign-extended 32-bit values (cvt.s64.s32), the pattern
// under which lavapipe (LLVM 15) miscompiled mul.hi.s64 (3043 of 4096 values wrong; docs/HAZARDS_IMPLEMENTED.md):
// every 64-bit operation the translator lowers, on (sext p, sext q), (p:q, sext q) and (sext p, zext q), the
// instruction written in inline PTX so it is the one named. 4,096 threads, 26 u64 slots each.
#include <cstdint>

#define BIN(k, op, x, y) asm(op " %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y)); o[k] = r;
#define SET(k, cmp, x, y)                                                                          \
  asm("{ .reg .pred p; setp." cmp " p, %1, %2; selp.b64 %0, 1, 0, p; }" : "=l"(r) : "l"(x), "l"(y)); o[k] = r;

extern "C" __global__ void int64_sext_ops(const int* a, const int* b, uint64_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int p = a[i], q = b[i];
  long long s1 = p, s2 = q, w = (long long)(((unsigned long long)(unsigned)p << 32) | (unsigned)q);
  long long z2 = (long long)(unsigned)q;
  uint64_t r;
  uint64_t* o = out + size_t(i) * 26;
  BIN(0, "mul.hi.s64", s1, s2)
  BIN(1, "mul.hi.u64", s1, s2)
  BIN(2, "mul.hi.s64", w, s2)
  BIN(3, "mul.hi.s64", s1, z2)
  asm("mad.hi.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(s1), "l"(s2), "l"(w)); o[4] = r;
  BIN(5, "mul.lo.s64", s1, s2)
  BIN(6, "div.s64", w, s2)
  BIN(7, "rem.s64", w, s2)
  BIN(8, "div.u64", w, s2)
  BIN(9, "rem.u64", w, s2)
  BIN(10, "div.s64", s1, s2)
  BIN(11, "rem.s64", s1, s2)
  BIN(12, "min.s64", s1, s2)
  BIN(13, "max.s64", w, s1)
  BIN(14, "min.u64", s1, z2)
  asm("abs.s64 %0, %1;" : "=l"(r) : "l"(s1)); o[15] = r;
  asm("{ .reg .b32 c; cvt.u32.u64 c, %2; shr.s64 %0, %1, c; }" : "=l"(r) : "l"(w), "l"(s2 & 63)); o[16] = r;
  SET(17, "lt.s64", s1, s2)
  SET(18, "lt.u64", s1, s2)
  SET(19, "gt.s64", w, s1)
  { double d; asm("cvt.rn.f64.s64 %0, %1;" : "=d"(d) : "l"(s1 * 1000003)); o[20] = __double_as_longlong(d); }
  asm("sad.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(s1), "l"(s2), "l"(w)); o[21] = r;
  BIN(22, "and.b64", s1, w)
  asm("{ .reg .b32 c; cvt.u32.u64 c, %2; bfe.s64 %0, %1, c, 12; }" : "=l"(r) : "l"(s1), "l"(z2 & 63)); o[23] = r;
  { uint32_t c; asm("bfind.s64 %0, %1;" : "=r"(c) : "l"(s1)); o[24] = c; }
  asm("neg.s64 %0, %1;" : "=l"(r) : "l"(s1)); o[25] = r;
}
