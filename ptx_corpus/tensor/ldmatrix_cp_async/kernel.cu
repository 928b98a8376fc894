// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/ldmatrix_cp_async: each block stages 1 KiB of random bits in shared memory with 16-byte
// cp.async.cg copies (commit_group, wait_group 0, a barrier), then every warp reads its 32 rows back with ldmatrix
// .x1/.x2/.x4, plain and .trans, each lane giving the address of a permuted row (lane l: row 5l + 3 mod 32). The
// 14 result registers of a thread go to out[16 * thread ...]; words 14 and 15 stay zero. Pure data movement: the
// expected bytes follow from the PTX ISA's ldmatrix layout (tests/tensor/check_tensor_cases.py checks them).
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

extern "C" __global__ void ldmatrix_cp_async(const uint4* __restrict__ in, uint32_t* __restrict__ out) {
  __shared__ __align__(16) uint16_t tile[2][32][8];  // per warp: 32 rows of eight b16 (four 8x8 matrices)
  int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(&tile[0][0][0] + tid * 8)),
               "l"(in + blockIdx.x * 64 + tid)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  uint32_t row = smem(&tile[warp][(lane * 5 + 3) & 31][0]);
  uint32_t r[14];
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[1]), "=r"(r[2]) : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6])
               : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[7]) : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[8]), "=r"(r[9]) : "r"(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13])
               : "r"(row));
  uint32_t* o = out + (blockIdx.x * 64 + tid) * 16;
  for (int i = 0; i < 14; ++i) o[i] = r[i];
}
