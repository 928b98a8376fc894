// lavapipe's loop budget (docs/HAZARDS_IMPLEMENTED.md): llvmpipe ends the loops of a subgroup after 65,535 loop
// iterations in total. Each thread counts the iterations it really ran; the loop reads memory so that no compiler
// can replace it by its trip count. mode 0: every thread runs n iterations; mode 3: n + tid iterations, then n more
// in one of two branches (odd / even threads), so each thread runs about 2n but its subgroup about 3n.
// nvcc -arch=sm_90 -ptx kernel.cu -o kernel.ptx
extern "C" __global__ void loop_budget(const unsigned* in, unsigned* out, unsigned* out2, unsigned n, unsigned mode) {
  unsigned t = threadIdx.x;
  unsigned lim = mode == 0 ? n : n + t;
  unsigned cnt = 0;
  for (unsigned i = 0; i < lim; ++i) {
    if (in[i & 1023] == 0xdeadbeefu) break;
    ++cnt;
  }
  unsigned cnt2 = 0;
  if (mode == 3 && (t & 1)) {
    for (unsigned i = 0; i < n; ++i) { if (in[(i + 7) & 1023] == 0xdeadbeefu) break; ++cnt2; }
  } else if (mode == 3) {
    for (unsigned i = 0; i < n; ++i) { if (in[(i + 9) & 1023] == 0xdeadbeefu) break; ++cnt2; }
  }
  unsigned g = blockIdx.x * blockDim.x + t;
  out[g] = cnt;
  out2[g] = cnt2;
}
