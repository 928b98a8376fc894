// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// vote.sync and activemask in divergent code (two warps a block, two blocks): which lanes take part in each
// instance. Each thread writes 16 slots (pre-filled with 0xEEEEEEEE: a slot a lane never writes shows it).
//  0..3   the kernel that found the bug: lane 0 branches past votes whose member mask 0xFFFFFFFE leaves it out
//         (the H200 gave all = 1 on lanes 1..31 where ptx2glsl gave 0)
//  4..9   the member mask from __activemask() in both branches of a divergent if
//  10     a loop whose trip count depends on the lane: activemask and ballot of the lanes still looping
//  11     nested divergence
//  12..15 after some lanes returned: activemask, and votes with the full mask (exited lanes take no part)
extern "C" __global__ void warp_vote_divergent(const int* in, unsigned* out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = in[g];
  unsigned* o = out + g * 16;
  if (lane != 0) {
    o[0] = __all_sync(0xFFFFFFFEu, v > -100000);
    o[1] = __any_sync(0xFFFFFFFEu, v > 900);
    o[2] = __ballot_sync(0xFFFFFFFEu, v & 1);
    o[3] = __uni_sync(0xFFFFFFFEu, v > 0);
  }
  if (v & 2) {
    unsigned m = __activemask();
    o[4] = m;
    o[5] = __ballot_sync(m, v & 4);
    o[6] = __all_sync(m, v & 8);
  } else {
    unsigned m = __activemask();
    o[7] = m;
    o[8] = __ballot_sync(m, v & 4);
    o[9] = __any_sync(m, v & 8);
  }
  unsigned acc = 0;
  for (int k = 0; k < int(lane % 5) + (v & 1); ++k) {
    unsigned m = __activemask();
    acc = acc * 33u + m + __ballot_sync(m, (v >> k) & 1);
  }
  o[10] = acc;
  if (lane < 20) {
    if (lane & 1) o[11] = __activemask();
    else o[11] = __ballot_sync(__activemask(), v > 0) ^ 0x80000000u;
  }
  if (v < -500) return;
  o[12] = __activemask();
  o[13] = __all_sync(0xFFFFFFFFu, v < 2000);
  o[14] = __ballot_sync(0xFFFFFFFFu, v & 1);
  o[15] = __any_sync(0xFFFFFFFFu, v > 990);
}
