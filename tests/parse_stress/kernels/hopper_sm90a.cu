// nvcc -ptx -O3 -arch=sm_90a kernels/hopper_sm90a.cu -o ptx/hopper_sm90a.ptx
// Architecture-specific sm_90a forms (.target sm_90a): warpgroup MMA (wgmma.fence / mma_async with smem
// descriptors / commit_group / wait_group), setmaxnreg.inc/dec, elect.sync, stmatrix, griddepcontrol and
// mbarrier try_wait with a suspend-time hint. Inline asm, as CUTLASS writes them.
#include <cstdint>

__global__ void __launch_bounds__(128, 1) wgmma_tile(const uint64_t* __restrict__ descs, float* __restrict__ out) {
  __shared__ __align__(128) unsigned short smem[64 * 16 * 2];
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (threadIdx.x < 64) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  for (int k = threadIdx.x; k < 64 * 16 * 2; k += blockDim.x) smem[k] = (unsigned short)(k * 7);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint64_t da = descs[0], db = descs[1];
  float d[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %10, 0;\n\t"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 0, 1;\n\t}"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
      : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  unsigned leader;
  asm volatile(
      "{\n\t.reg .pred e;\n\t.reg .b32 lane;\n\telect.sync lane|e, 0xffffffff;\n\tselp.u32 %0, 1, 0, e;\n\t}"
      : "=r"(leader));
  uint32_t saddr = (uint32_t)__cvta_generic_to_shared(smem + (threadIdx.x & 31) * 8);
  uint32_t r0 = __float_as_uint(d[0]), r1 = __float_as_uint(d[1]);
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(saddr), "r"(r0), "r"(r1) : "memory");
  float s = 0.f;
  for (int k = 0; k < 8; ++k) s += d[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s + (float)leader + (float)smem[threadIdx.x];
  asm volatile("griddepcontrol.launch_dependents;");
}

__global__ void mbar_wait(uint64_t* __restrict__ flags, int* __restrict__ out) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x));
  __syncthreads();
  uint64_t state;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
  uint32_t ok = 0;
  while (!ok)
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, %3;\n\t"
        "selp.b32 %0, 1, 0, p;\n\t}"
        : "=r"(ok)
        : "r"(b), "l"(state), "r"(1000000)
        : "memory");
  out[threadIdx.x] = (int)(state & 0xff) + (int)flags[0];
}
