// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/stmatrix_movmatrix: each thread holds four random registers; every warp stores them with
// stmatrix .x1/.x2/.x4, plain and .trans, each into its own zeroed 512-byte region of shared memory (lane l gives
// the address of row 3l + 1 mod 32), and transposes its first register with movmatrix. The regions go to out
// (6 stores x 2 warps x 512 bytes), the movmatrix results to mov. Pure data movement
// (tests/tensor/check_tensor_cases.py).
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

extern "C" __global__ void stmatrix_movmatrix(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                              uint32_t* __restrict__ mov) {
  __shared__ __align__(16) uint32_t region[6][2][32][4];  // store, warp, row, word
  int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  for (int i = tid; i < 6 * 2 * 32 * 4; i += 64) (&region[0][0][0][0])[i] = 0;
  __syncthreads();
  uint32_t r0 = in[tid * 4], r1 = in[tid * 4 + 1], r2 = in[tid * 4 + 2], r3 = in[tid * 4 + 3];
  int row = (lane * 3 + 1) & 31;
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(smem(&region[0][warp][row][0])), "r"(r0)
               : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(smem(&region[1][warp][row][0])),
               "r"(r0), "r"(r1)
               : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(
                   smem(&region[2][warp][row][0])),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(smem(&region[3][warp][row][0])),
               "r"(r0)
               : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(
                   smem(&region[4][warp][row][0])),
               "r"(r0), "r"(r1)
               : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1, %2, %3, %4};" ::"r"(
                   smem(&region[5][warp][row][0])),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
  uint32_t m;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(r0));
  mov[tid] = m;
  __syncthreads();
  for (int i = tid; i < 6 * 2 * 32 * 4; i += 64) out[i] = (&region[0][0][0][0])[i];
}
