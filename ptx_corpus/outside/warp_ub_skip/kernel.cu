// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Undefined in the PTX ISA, measured on the H200: lanes named by the member mask that are alive but do not execute
// the vote (lane 0 and lanes 16..19 branch past __all_sync/__ballot_sync(0xFFFFFFFF, ...) and vote again after the
// branch joins). A kernel of its own: it might hang or give per-launch results (reference.sh runs it twice).
// 4 slots a thread, pre-filled with 0xEEEEEEEE.
extern "C" __global__ void warp_ub_skip(const int* in, unsigned* out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = in[g];
  unsigned* o = out + g * 4;
  if (lane != 0 && (lane < 16 || lane > 19)) {
    o[0] = __all_sync(0xFFFFFFFFu, v > -1000);
    o[1] = __ballot_sync(0xFFFFFFFFu, v & 1);
  }
  o[2] = __ballot_sync(0xFFFFFFFFu, v & 2);
  o[3] = __activemask();
}
