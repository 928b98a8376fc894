// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_tf32: one wmma m16n16k8 tf32 x tf32 + f32 per warp (8 tiles): A row-major (stride 8),
// B column-major (stride 8), C row-major, D column-major. The inputs are plain f32 with random low bits (no
// __float_to_tf32): the tensor core reads the top 19 bits (docs/MMA.md). Each lane also writes its raw fragments
// after the loads (A 4 words, B 4, C 8; docs/TENSOR.md).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_tf32(const float* a, const float* b, const float* c, float* d, uint32_t* frag) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a + tile * 128, 8);
  wmma::load_matrix_sync(fb, b + tile * 128, 8);
  wmma::load_matrix_sync(fc, c + tile * 256, 16, wmma::mem_row_major);
  uint32_t* f = frag + (tile * 32 + lane) * 16;
  for (int i = 0; i < 4; ++i) {
    f[i] = word(fa.x, i);
    f[4 + i] = word(fb.x, i);
  }
  for (int i = 0; i < 8; ++i) f[8 + i] = word(fc.x, i);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + tile * 256, fc, 16, wmma::mem_col_major);
}
