// nvcc -ptx -O3 -arch=sm_90 -std=c++17 kernels/atomics_ref.cu -o ptx/atomics_ref.ptx
// libcu++ atomics: cuda::atomic_ref with thread_scope_system/device/block and explicit memory orders, giving
// atom.acq_rel.sys, ld.acquire.gpu, st.release.cta, fence.sc.sys and friends.
#include <cuda/atomic>

__global__ void scoped(int* flag, int* data, unsigned long long* counter, float* fsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_system> sysflag(*flag);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> dev(*counter);
  cuda::atomic_ref<float, cuda::thread_scope_device> fs(*fsum);
  __shared__ int local;
  if (threadIdx.x == 0) local = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> blk(local);
  if (i < n) {
    data[i] = i * 3;
    unsigned long long t = dev.fetch_add(1, cuda::memory_order_relaxed);
    blk.fetch_or(1 << (i & 31), cuda::memory_order_acq_rel);
    fs.fetch_add(1.5f, cuda::memory_order_relaxed);
    if (t == (unsigned long long)n - 1) sysflag.store(1, cuda::memory_order_release);
    int expected = 0;
    sysflag.compare_exchange_strong(expected, 2, cuda::memory_order_acq_rel, cuda::memory_order_acquire);
  }
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
  __syncthreads();
  if (threadIdx.x == 0) {
    int f = sysflag.load(cuda::memory_order_acquire);
    data[n + blockIdx.x] = blk.load(cuda::memory_order_relaxed) + f;
    dev.fetch_max(blockIdx.x, cuda::memory_order_seq_cst);
  }
}
