// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/ldmatrix_generic: ldmatrix_cp_async with generic addresses: ldmatrix without a state space,
// each lane giving the generic address of its row. Each block stages 1 KiB of random bits in shared memory with
// 16-byte cp.async.cg copies (commit_group, wait_group 0, a barrier), then every warp reads its 32 rows back with
// ldmatrix .x1/.x2/.x4, plain and .trans, each lane giving a permuted row (lane l: row 5l + 3 mod 32). The
// 14 result registers of a thread go to out[16 * thread ...]; words 14 and 15 stay zero. Pure data movement: the
// expected bytes follow from the PTX ISA's ldmatrix layout (tests/tensor/check_tensor_cases.py checks them).
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

extern "C" __global__ void ldmatrix_generic(const uint4* __restrict__ in, uint32_t* __restrict__ out) {
  __shared__ __align__(16) uint16_t tile[2][32][8];  // per warp: 32 rows of eight b16 (four 8x8 matrices)
  int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(&tile[0][0][0] + tid * 8)),
               "l"(in + blockIdx.x * 64 + tid)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  const uint16_t* row = &tile[warp][(lane * 5 + 3) & 31][0];
  uint32_t r[14];
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.b16 {%0}, [%1];" : "=r"(r[0]) : "l"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];" : "=r"(r[1]), "=r"(r[2]) : "l"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6])
               : "l"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.b16 {%0}, [%1];" : "=r"(r[7]) : "l"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.b16 {%0, %1}, [%2];" : "=r"(r[8]), "=r"(r[9]) : "l"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13])
               : "l"(row));
  uint32_t* o = out + (blockIdx.x * 64 + tid) * 16;
  for (int i = 0; i < 14; ++i) o[i] = r[i];
}
