// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// Vector registers in inline PTX: .v2/.v4 declarations, vector movs, member access (.x .y .z .w and .r .g .b .a)
// as sources and destinations, a vector register as a ld/st operand and packed into a 64-bit register; WARP_SZ
// as an operand. 8 slots a thread. (`mov.b64 d, h` with the vector register h itself also translates; the pack is
// written {h.x, h.y} here, the braced form the ISA shows for packing.)
extern "C" __global__ void vector_regs(const unsigned* in, unsigned* out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned* p = in + 4 * g;
  unsigned* o = out + 8 * g;
  unsigned a, b, c, d;
  unsigned long long w;
  asm("{\n\t.reg .v4 .u32 v;\n\t.reg .v2 .u32 h;\n\t"
      "ld.global.v4.u32 v, [%5];\n\t"
      "mov.v2.u32 h, {v.w, v.x};\n\t"
      "add.u32 %0, v.y, h.x;\n\t"
      "mul.lo.u32 %1, v.b, h.g;\n\t"
      "mov.u32 h.y, WARP_SZ;\n\t"
      "sub.u32 %2, v.z, h.y;\n\t"
      "mov.v4.u32 v, {h.y, h.x, v.a, v.r};\n\t"
      "xor.b32 %3, v.x, v.w;\n\t"
      "mov.b64 %4, {h.x, h.y};\n\t"
      "}"
      : "=r"(a), "=r"(b), "=r"(c), "=r"(d), "=l"(w) : "l"(p));
  o[0] = a;
  o[1] = b;
  o[2] = c;
  o[3] = d;
  o[4] = (unsigned)w;
  o[5] = (unsigned)(w >> 32);
  asm("{\n\t.reg .v2 .b32 q;\n\tmov.v2.b32 q, {%1, %2};\n\tst.global.v2.b32 [%0], q;\n\t}" :: "l"(o + 6), "r"(a ^ b), "r"(c + d) : "memory");
}
