// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// Integer dot products (dp4a, dp2a), bmsk and the scalar video instructions with byte/half selectors, .sat, a
// secondary operation and a merge destination, on random words; nanosleep in between. 16 slots a thread.
// (Not warp instructions: kept with the warp cases because they came with the same forms.)
#define V(ins, ...) asm(ins : "=r"(r) : __VA_ARGS__)
extern "C" __global__ void video_dp(const unsigned* in, unsigned* out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[3 * g], b = in[3 * g + 1], c = in[3 * g + 2];
  unsigned* o = out + g * 16;
  unsigned r;
  o[0] = (unsigned)__dp4a((int)a, (int)b, (int)c);
  o[1] = __dp4a(a, b, c);
  V("dp4a.u32.s32 %0, %1, %2, %3;", "r"(a), "r"(b), "r"(c));
  o[2] = r;
  o[3] = (unsigned)__dp2a_lo((int)a, (int)b, (int)c);
  o[4] = __dp2a_hi(a, b, c);
  V("dp2a.hi.s32.u32 %0, %1, %2, %3;", "r"(a), "r"(b), "r"(c));
  o[5] = r;
  V("bmsk.clamp.b32 %0, %1, %2;", "r"(a & 63u), "r"(b & 63u));
  o[6] = r;
  __nanosleep(100);
  V("bmsk.wrap.b32 %0, %1, %2;", "r"(a), "r"(b));
  o[7] = r;
  V("vadd.s32.u32.s32.sat %0, %1.b0, %2.h1;", "r"(a), "r"(b));
  o[8] = r;
  V("vsub.u32.s32.s32.sat.min %0, %1, %2, %3;", "r"(a), "r"(b), "r"(c));
  o[9] = r;
  V("vabsdiff.s32.s32.s32.sat %0.h0, %1.b0, %2.b2, %3;", "r"(a), "r"(b), "r"(c));
  o[10] = r;
  V("vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;", "r"(a), "r"(b & 63u), "r"(c));
  o[11] = r;
  V("vshl.s32.s32.u32.wrap %0, %1, %2;", "r"(a), "r"(b));
  o[12] = r;
  V("vset.u32.s32.lt.max %0, %1, %2.h0, %3;", "r"(a), "r"(b), "r"(c & 3u));
  o[13] = r;
  V("vmin.s32.s32.s32 %0, %1.h1, %2;", "r"(a), "r"(b));
  o[14] = r;
  V("vmax.u32.u32.s32.sat.add %0, %1, %2.b3, %3;", "r"(a), "r"(b), "r"(c));
  o[15] = r;
}
