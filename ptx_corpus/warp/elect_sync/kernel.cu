// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// elect.sync (inline PTX; cooperative_groups' elect and CUTLASS's elect_one_sync emit it) over the whole warp, over
// the lanes of a divergent branch and over a partial mask: which lane is the leader the PTX ISA leaves open (only
// "the same leader for the same membermask"). 48 threads a block (warp 1 partial); 4 slots a thread.
static __device__ __forceinline__ unsigned elect(unsigned mask, unsigned* leader) {
  unsigned d, p;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync %0|P, %2;\n\tselp.u32 %1, 1, 0, P;\n\t}" : "=r"(d), "=r"(p) : "r"(mask));
  *leader = d;
  return p;
}

extern "C" __global__ void elect_sync(const int* in, unsigned* out) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t, lane = t & 31;
  int v = in[g];
  unsigned* o = out + g * 4;
  unsigned d;
  unsigned p = elect(__activemask(), &d);
  o[0] = d | (p << 8);
  if (v & 1) {
    p = elect(__activemask(), &d);
    o[1] = d | (p << 8);
  }
  if (lane >= 4 && lane < 12) {
    p = elect(0xFF0u, &d);
    o[2] = d | (p << 8);
  }
}
