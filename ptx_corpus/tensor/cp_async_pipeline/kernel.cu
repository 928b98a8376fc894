// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/cp_async_pipeline: a double-buffered pipeline as CUDA's <cuda_pipeline.h> writes it
// (__pipeline_memcpy_async, 16-byte cp.async.cg and 4-byte cp.async.ca with a zero fill, commit_group,
// wait_group 1 and 0). Copied from tests/parse_stress/kernels/async_copy.cu (pipelined_sum); kernel.ptx is nvcc 13's
// output for it (tests/parse_stress/ptx/async_copy.ptx without the other kernel of that file).
#include <cuda_pipeline.h>

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
