// nvcc -ptx -O3 -arch=sm_90 kernels/barriers_named.cu -o ptx/barriers_named.ptx
// Barrier variants: __syncthreads_count/and/or (bar.red.popc/and/or), named barriers with thread counts
// (bar.sync id, n / bar.arrive), barrier.sync.aligned, __syncwarp with masks, and membar/fence levels.
__global__ void producer_consumer(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int slot[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  int cnt = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v >= 0);
  int any = __syncthreads_or(v == 42);
  if (t < 128) {
    slot[t] = v * 2;
    __threadfence_block();
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    v += slot[t - 128];
  }
  asm volatile("barrier.sync.aligned 2, %0;" ::"r"(blockDim.x) : "memory");
  __syncwarp(0x0000ffffu);
  if ((t & 31) < 16) v ^= __shfl_sync(0x0000ffffu, v, 0);
  __syncwarp();
  __threadfence();
  __threadfence_system();
  asm volatile("membar.cta;");
  asm volatile("fence.acq_rel.gpu;");
  if (i < n) out[i] = v + cnt + all * 2 + any * 4;
}
