// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Warp instructions in a one-thread block: the 31 other lanes of the warp do not exist (the H200 gave
// activemask = 1 where ptx2glsl gave 0xFFFFFFFF). Four blocks, 8 slots each.
extern "C" __global__ void warp_one_thread(const int* in, unsigned* out) {
  int v = in[blockIdx.x];
  unsigned* o = out + blockIdx.x * 8;
  o[0] = __activemask();
  o[1] = __ballot_sync(0xFFFFFFFFu, v & 1);
  o[2] = __all_sync(0xFFFFFFFFu, v > 0);
  o[3] = __any_sync(0xFFFFFFFFu, v > 0);
  o[4] = __uni_sync(0xFFFFFFFFu, v > 0);
  o[5] = __ballot_sync(1u, 1);
  if (v & 2) o[6] = __activemask();
  else o[6] = __ballot_sync(__activemask(), 1) | 0x100u;
  unsigned lanemask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lanemask));
  o[7] = lanemask;
}
