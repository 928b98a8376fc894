// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// A partial last warp (48 threads a block: warp 1 has lanes 0..15 only; ../warp_partial_2d runs the same PTX in an
// 8 x 10 block, 80 threads, warp 2 partial): full member masks name lanes that do not exist. 8 slots a thread.
extern "C" __global__ void warp_partial(const int* in, unsigned* out) {
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y, g = blockIdx.x * blockDim.x * blockDim.y + t;
  int v = in[g];
  unsigned* o = out + g * 8;
  o[0] = __activemask();
  o[1] = __ballot_sync(0xFFFFFFFFu, v & 1);
  o[2] = __all_sync(0xFFFFFFFFu, v > -90);
  o[3] = __any_sync(0xFFFFFFFFu, v > 95);
  o[4] = __uni_sync(0xFFFFFFFFu, v > -99);
  unsigned lane = t & 31;
  if (lane >= 8) {
    o[5] = __activemask();
    o[6] = __ballot_sync(0xFFFFFF00u, v > 0);
  }
  o[7] = __ballot_sync(0xFFFFFFFFu, lane < 12);
}
