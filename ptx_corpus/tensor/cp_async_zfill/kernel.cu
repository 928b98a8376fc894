// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/cp_async_zfill: cp.async with a src-size operand. Thread t copies into its own 16-byte slot of
// shared memory (filled with 0xA5 bytes first) from in + 16t: by t % 4, 4 bytes (.ca), 8 bytes (.ca), 16 bytes
// (.cg) or 16 bytes (.ca with an L2 prefetch hint), src-size = (t / 4) % (size + 1) bytes; the rest of the copy is
// zero, the rest of the slot keeps 0xA5. A second 8-byte copy per thread, from in + 16t + 8 into slot2[t], has the
// ignore-src predicate set when t % 3 == 0 (eight zero bytes). Then commit_group, wait_all, a barrier, and the
// slots go to out and out2.
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

extern "C" __global__ void cp_async_zfill(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                          uint32_t* __restrict__ out2) {
  __shared__ __align__(16) uint32_t slot[128][4];
  __shared__ __align__(8) uint32_t slot2[128][2];
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i) slot[t][i] = 0xA5A5A5A5u;
  slot2[t][0] = slot2[t][1] = 0xA5A5A5A5u;
  __syncthreads();
  uint32_t dst = smem(&slot[t][0]);
  const uint32_t* src = in + 4 * t;
  int kind = t & 3;
  uint32_t size = kind == 0 ? 4 : kind == 1 ? 8 : 16, n = uint32_t(t >> 2) % (size + 1);
  if (kind == 0)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(n) : "memory");
  else if (kind == 1)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(n) : "memory");
  else if (kind == 2)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(n) : "memory");
  else
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(n) : "memory");
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\tcp.async.ca.shared.global [%0], [%1], 8, p;\n\t}" ::"r"(
                   smem(&slot2[t][0])),
               "l"(src + 2), "r"(uint32_t(t % 3 == 0))
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  for (int i = 0; i < 4; ++i) out[4 * t + i] = slot[t][i];
  out2[2 * t] = slot2[t][0];
  out2[2 * t + 1] = slot2[t][1];
}
