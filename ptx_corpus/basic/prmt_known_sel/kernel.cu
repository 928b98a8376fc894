// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// prmt.b32 with a selector register built from and/or/xor with immediates and shifts by immediates, as nvcc writes
// `__byte_perm(a, b, 0x5140 + (k & 3))` (bench/int_bits): word-select, byte and sign-replicate bits unknown or fixed
// in every combination, one fully unknown selector. A translator that specialises prmt on the selector's known
// bits (tried 2026-12-06: no gain on NVIDIA, whose compiler folds the generic form; docs/GPU_BENCH.md) is checked
// by this case. The selector of each output is built by inline PTX so that the PTX keeps exactly these forms.
// Inputs: random bits.
#define PRMT(name, ops)                                                                                        \
  __device__ __forceinline__ unsigned name(unsigned a, unsigned b, unsigned x) {                              \
    unsigned d;                                                                                                \
    asm("{\n\t.reg .b32 s1, s2;\n\t" ops "\n\tprmt.b32 %0, %1, %2, s2;\n\t}" : "=r"(d) : "r"(a), "r"(b), "r"(x)); \
    return d;                                                                                                  \
  }
PRMT(p0, "and.b32 s1, %3, 3;\n\tor.b32 s2, s1, 20800;")          // int_bits: nibble 0 picks a byte of a
PRMT(p1, "and.b32 s1, %3, 0x8888;\n\tor.b32 s2, s1, 0x3210;")    // only the sign bits unknown
PRMT(p2, "and.b32 s1, %3, 0x4444;\n\tor.b32 s2, s1, 0x8B19;")    // word bits unknown, sign bits known (set in two)
PRMT(p3, "and.b32 s1, %3, 0x7777;\n\tor.b32 s2, s1, 0x8888;")    // every byte replicates a sign, bytes unknown
PRMT(p4, "shl.b32 s1, %3, 4;\n\txor.b32 s2, s1, 0x000D;")         // nibble 0 known (13), the rest unknown
PRMT(p5, "shr.u32 s1, %3, 20;\n\tand.b32 s2, s1, 0xFFF;")        // nibble 3 known zero
PRMT(p6, "and.b32 s1, %3, 0xF0F0;\n\txor.b32 s2, s1, 0x0A0B;")   // xor: alternate nibbles known
PRMT(p7, "mov.b32 s1, %3;\n\tmov.b32 s2, s1;")                   // nothing known: the generic form
extern "C" __global__ void prmt_known_sel(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[3 * i], b = in[3 * i + 1], x = in[3 * i + 2];
  unsigned* o = out + 8 * i;
  o[0] = p0(a, b, x);
  o[1] = p1(a, b, x);
  o[2] = p2(a, b, x);
  o[3] = p3(a, b, x);
  o[4] = p4(a, b, x);
  o[5] = p5(a, b, x);
  o[6] = p6(a, b, x);
  o[7] = p7(a, b, x);
}
