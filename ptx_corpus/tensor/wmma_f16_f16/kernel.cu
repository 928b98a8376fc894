// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_f16_f16: one wmma m16n16k16 f16 x f16 + f16 -> f16 per warp (8 tiles): A column-major
// from global memory, B row-major with a row stride of 24 halves from shared memory (copied there first), C
// column-major, D column-major with stride 24. Each lane also writes its raw fragments after the loads (A 8 words,
// B 8, C 4; docs/TENSOR.md).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_f16_f16(const half* a, const half* b, const half* c, half* d, uint32_t* frag) {
  __shared__ __align__(32) half sb[4][16 * 24];
  unsigned warp = threadIdx.x >> 5, tile = blockIdx.x * 4 + warp, lane = threadIdx.x & 31;
  for (int i = lane; i < 16 * 24; i += 32) sb[warp][i] = b[tile * 16 * 24 + i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> fc;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, sb[warp], 24);
  wmma::load_matrix_sync(fc, c + tile * 256, 16, wmma::mem_col_major);
  uint32_t* f = frag + (tile * 32 + lane) * 20;
  for (int i = 0; i < 8; ++i) {
    f[i] = word(fa.x, i);
    f[8 + i] = word(fb.x, i);
  }
  for (int i = 0; i < 4; ++i) f[16 + i] = word(fc.x, i);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + tile * 16 * 24, fc, 24, wmma::mem_col_major);
}
