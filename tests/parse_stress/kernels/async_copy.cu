// nvcc -ptx -O3 -arch=sm_90 kernels/async_copy.cu -o ptx/async_copy.ptx
// Asynchronous global->shared copies: __pipeline_memcpy_async (cp.async.ca/cg.shared.global with 4/8/16 bytes and
// a src-size operand for zero fill), commit/wait groups, and cuda::memcpy_async with a block-scoped cuda::barrier
// (mbarrier.init/arrive/try_wait in shared memory).
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void pipelined_sum(const float4* __restrict__ in, const float* __restrict__ tail, float* __restrict__ out,
                              int tiles) {
  __shared__ __align__(16) float4 buf[2][128];
  __shared__ float small[128];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
  __pipeline_memcpy_async(&small[t], &tail[t], sizeof(float), t < 100 ? 0 : 4);
  __pipeline_commit();
  float acc = 0.f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float4 v = buf[k & 1][(t + 1) & 127];
    acc += v.x + v.y + v.z + v.w;
    __syncthreads();
  }
  __pipeline_wait_prior(0);
  out[blockIdx.x * 128 + t] = acc + small[t];
}

__global__ void barrier_copy(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(int) * 256, bar);
  bar.arrive_and_wait();
  int t = block.thread_rank();
  out[blockIdx.x * 256 + t] = tile[t] + tile[(t + 255) & 255];
}
