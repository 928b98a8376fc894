// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// Producer/consumer on barrier 0 with the whole block's thread count: warps 0-1 write shared memory and
// bar.arrive, warps 2-3 bar.sync and read it. 2 slots a thread.
extern "C" __global__ void bar_arrive(const int* in, unsigned* out) {
  __shared__ int hand[64];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g];
  unsigned* o = out + g * 2;
  if (t < 64) {
    hand[t] = v * 7 + 1;
    asm volatile("bar.arrive 0, 128;" ::: "memory");
    o[0] = (unsigned)v;
  } else {
    asm volatile("bar.sync 0, 128;" ::: "memory");
    o[1] = (unsigned)hand[t - 64];
  }
}
