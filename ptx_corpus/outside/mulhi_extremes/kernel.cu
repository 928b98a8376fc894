// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// mul.hi, mad.hi, mul.wide and mad.wide of every signedness and width (16, 32, 64 bits) on operands that stress the
// 64-bit helpers: INT64_MIN, INT64_MAX, -1, 0, 1, 2^32 +- 1 and their 32/16-bit counterparts, both operands negative,
// mixed signs (make_inputs.py: a cross product of 32 special values, then random values of each sign pair).
// lavapipe (LLVM 15) gave wrong high words for mul.hi.s64 with both operands negative in a kernel outside the corpus
// (2,096 of 4,096 values); the forms are written in inline PTX so each is the instruction named, not what nvcc
// would choose for the C expression.
#include <cstdint>

#define OP3(name, c, x, y) asm(name " %0, %1, %2;" : "=" c(r) : c(x), c(y))
#define OP4(name, c, x, y, z) asm(name " %0, %1, %2, %3;" : "=" c(r) : c(x), c(y), c(z))

extern "C" __global__ void mulhi_extremes(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out,
                                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t x = a[i], y = b[i], z = c[i];
  uint32_t x32 = uint32_t(x), y32 = uint32_t(y), z32 = uint32_t(z);
  unsigned short x16 = (unsigned short)x, y16 = (unsigned short)y, z16 = (unsigned short)z;
  uint64_t* o = out + size_t(i) * 20;
  {
    uint64_t r;
    OP3("mul.hi.s64", "l", x, y); o[0] = r;
    OP3("mul.hi.u64", "l", x, y); o[1] = r;
    OP4("mad.hi.s64", "l", x, y, z); o[2] = r;
    OP4("mad.hi.u64", "l", x, y, z); o[3] = r;
    OP3("mul.lo.s64", "l", x, y); o[4] = r;
  }
  {
    uint32_t r;
    OP3("mul.hi.s32", "r", x32, y32); o[5] = r;
    OP3("mul.hi.u32", "r", x32, y32); o[6] = r;
    OP4("mad.hi.s32", "r", x32, y32, z32); o[7] = r;
    OP4("mad.hi.u32", "r", x32, y32, z32); o[8] = r;
    OP3("mul.lo.s32", "r", x32, y32); o[9] = r;  // mad.hi.sat.s32 is probed in ../mad_hi_sat_context
  }
  {
    uint64_t r;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(x32), "r"(y32)); o[10] = r;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(x32), "r"(y32)); o[11] = r;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(r) : "r"(x32), "r"(y32), "l"(z)); o[12] = r;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(x32), "r"(y32), "l"(z)); o[13] = r;
  }
  {
    unsigned short r;
    OP3("mul.hi.s16", "h", x16, y16); o[14] = r;
    OP3("mul.hi.u16", "h", x16, y16); o[15] = r;
    OP4("mad.hi.s16", "h", x16, y16, z16); o[16] = r;
  }
  {
    uint32_t r;
    asm("mul.wide.s16 %0, %1, %2;" : "=r"(r) : "h"(x16), "h"(y16)); o[17] = r;
    asm("mul.wide.u16 %0, %1, %2;" : "=r"(r) : "h"(x16), "h"(y16)); o[18] = r;
    asm("mad.wide.s16 %0, %1, %2, %3;" : "=r"(r) : "h"(x16), "h"(y16), "r"(z32)); o[19] = r;
  }
}
