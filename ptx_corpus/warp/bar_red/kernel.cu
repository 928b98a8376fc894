// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// Block-wide reductions through barrier 0 (__syncthreads_count/_and/_or: bar.red), a barrier with the block's
// thread count, and __syncwarp (bar.warp.sync) ordering shared-memory exchanges between the lanes of a warp.
// 96 threads a block; 8 slots a thread.
extern "C" __global__ void bar_red(const int* in, unsigned* out) {
  __shared__ int s[96];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g];
  unsigned* o = out + g * 8;
  o[0] = (unsigned)__syncthreads_count(v > 0);
  o[1] = (unsigned)__syncthreads_and(v > -95 + 2 * (int)blockIdx.x);
  o[2] = (unsigned)__syncthreads_or(v > 97 - (int)blockIdx.x);
  s[t] = v;
  __syncwarp();
  o[3] = (unsigned)s[t ^ 1];
  __syncwarp();
  s[t] = v * 3 + (int)t;
  __syncwarp(0xFFFFFFFFu);
  o[4] = (unsigned)s[((t + 5) & 31) | (t & ~31u)];
  asm volatile("bar.sync 0, 96;" ::: "memory");
  o[5] = (unsigned)s[95 - t];
  o[6] = (unsigned)__syncthreads_count(t < 40 || v == 7);
  asm volatile("barrier.sync.aligned 0, 96;" ::: "memory");
  o[7] = (unsigned)__syncthreads_or(t == 200);
}
