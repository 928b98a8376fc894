// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// The carry flag between extended-precision instructions: every producer (add.cc, sub.cc, mad.lo.cc, mad.hi.cc
// unsigned and signed, addc.cc and subc.cc after a carry-setting add) followed by every consumer (addc, subc,
// madc.lo, madc.hi, and `addc d, 0, 0`, which reads the flag itself), 32 and 64 bits. Each producer/consumer pair
// is one inline-asm block, so nothing can come between them. The PTX ISA calls the flag after a subtraction a
// borrow; in a kernel outside the corpus the H200's addc after sub.cc added the carry of a + ~b + 1 (not-borrow)
// instead. Operands: the cross product of 16 edge values, then random (make_inputs.py).
#include <cstdint>

// P: the producer (%0 its result; %2, %3, %4 = x, y, z), C: the consumer (%1), PRE: sets the flag first.
#define PAIR32(k, PRE, P, C)                                                                 \
  asm volatile("{\n\t" PRE "\n\t" P "\n\t" C "\n\t}" : "=r"(r1), "=r"(r2) : "r"(x), "r"(y), "r"(z)); \
  o32[2 * (k)] = r1;                                                                         \
  o32[2 * (k) + 1] = r2;
#define PAIR64(k, PRE, P, C)                                                                 \
  asm volatile("{\n\t" PRE "\n\t" P "\n\t" C "\n\t}" : "=l"(q1), "=l"(q2) : "l"(X), "l"(Y), "l"(Z)); \
  o64[2 * (k)] = q1;                                                                         \
  o64[2 * (k) + 1] = q2;

#define CONS32(k, PRE, P)                                            \
  PAIR32(5 * (k) + 0, PRE, P, "addc.u32 %1, %3, %2;")               \
  PAIR32(5 * (k) + 1, PRE, P, "subc.u32 %1, %3, %2;")               \
  PAIR32(5 * (k) + 2, PRE, P, "madc.lo.u32 %1, %3, %2, %4;")        \
  PAIR32(5 * (k) + 3, PRE, P, "madc.hi.u32 %1, %3, %2, %4;")        \
  PAIR32(5 * (k) + 4, PRE, P, "addc.u32 %1, 0, 0;")
#define CONS64(k, PRE, P)                                            \
  PAIR64(4 * (k) + 0, PRE, P, "addc.u64 %1, %3, %2;")               \
  PAIR64(4 * (k) + 1, PRE, P, "subc.u64 %1, %3, %2;")               \
  PAIR64(4 * (k) + 2, PRE, P, "madc.lo.u64 %1, %3, %2, %4;")        \
  PAIR64(4 * (k) + 3, PRE, P, "addc.u64 %1, 0, 0;")

extern "C" __global__ void carry_chains(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint32_t* out32,
                                        uint64_t* out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t X = a[i], Y = b[i], Z = c[i];
  uint32_t x = uint32_t(X), y = uint32_t(Y), z = uint32_t(Z), r1, r2;
  uint64_t q1, q2;
  uint32_t* o32 = out32 + size_t(i) * 80;
  uint64_t* o64 = out64 + size_t(i) * 96;
  CONS32(0, "", "add.cc.u32 %0, %2, %3;")
  CONS32(1, "", "sub.cc.u32 %0, %2, %3;")
  CONS32(2, "", "mad.lo.cc.u32 %0, %2, %3, %4;")
  CONS32(3, "", "mad.hi.cc.u32 %0, %2, %3, %4;")
  CONS32(4, "", "mad.hi.cc.s32 %0, %2, %3, %4;")
  CONS32(5, "add.cc.u32 %1, %4, %4;", "addc.cc.u32 %0, %2, %3;")
  CONS32(6, "add.cc.u32 %1, %4, %4;", "subc.cc.u32 %0, %2, %3;")
  CONS32(7, "sub.cc.u32 %1, %4, %2;", "subc.cc.u32 %0, %2, %3;")
  CONS64(0, "", "add.cc.u64 %0, %2, %3;")
  CONS64(1, "", "sub.cc.u64 %0, %2, %3;")
  CONS64(2, "", "mad.lo.cc.u64 %0, %2, %3, %4;")
  CONS64(3, "", "mad.hi.cc.u64 %0, %2, %3, %4;")
  CONS64(4, "", "mad.hi.cc.s64 %0, %2, %3, %4;")
  CONS64(5, "add.cc.u64 %1, %4, %4;", "addc.cc.u64 %0, %2, %3;")
  CONS64(6, "add.cc.u64 %1, %4, %4;", "subc.cc.u64 %0, %2, %3;")
  CONS64(7, "sub.cc.u64 %1, %4, %2;", "subc.cc.u64 %0, %2, %3;")
  CONS64(8, "", "add.cc.s64 %0, %2, %3;")
  CONS64(9, "", "sub.cc.s64 %0, %2, %3;")
  CONS64(10, "", "mad.lo.cc.s64 %0, %2, %3, %4;")
  CONS64(11, "", "mad.hi.cc.u64 %0, %3, %2, %4;")
}
