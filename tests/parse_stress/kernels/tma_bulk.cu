// nvcc -ptx -O3 -arch=sm_90 kernels/tma_bulk.cu -o ptx/tma_bulk.ptx
// Bulk asynchronous copies (sm_90 TMA engine, 1D form): mbarrier.init/arrive.expect_tx, cp.async.bulk.shared::
// cluster.global.mbarrier::complete_tx::bytes, try_wait.parity spin loop, and cp.async.bulk.global.shared::cta
// back out with bulk_group commit/wait, written in inline asm as CUTLASS does.
#include <cstdint>

__global__ void bulk_copy(const float* __restrict__ src, float* __restrict__ dst, int chunks) {
  __shared__ __align__(128) float tile[1024];
  __shared__ __align__(8) uint64_t bar;
  uint32_t sbar = (uint32_t)__cvta_generic_to_shared(&bar);
  uint32_t stile = (uint32_t)__cvta_generic_to_shared(tile);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sbar), "r"(4096) : "memory");
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(stile),
          "l"(src + c * 1024), "r"(4096), "r"(sbar)
          : "memory");
    }
    uint32_t done = 0;
    while (!done) {
      asm volatile(
          "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(sbar), "r"(c & 1)
          : "memory");
    }
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) tile[k] = tile[k] * 2.0f + 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst + c * 1024), "r"(stile),
                   "r"(4096)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
  }
}
