// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_bf16: one wmma m16n16k16 bf16 x bf16 + f32 per warp (8 tiles): A row-major, B
// column-major with a column stride of 24, C column-major, D row-major. Each lane also writes its raw fragments
// after the loads (A 4 words, B 4, C 8; docs/TENSOR.md).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c, float* d,
                                     uint32_t* frag) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b + tile * 16 * 24, 24);
  wmma::load_matrix_sync(fc, c + tile * 256, 16, wmma::mem_col_major);
  uint32_t* f = frag + (tile * 32 + lane) * 16;
  for (int i = 0; i < 4; ++i) {
    f[i] = word(fa.x, i);
    f[4 + i] = word(fb.x, i);
  }
  for (int i = 0; i < 8; ++i) f[8 + i] = word(fc.x, i);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + tile * 256, fc, 16, wmma::mem_row_major);
}
