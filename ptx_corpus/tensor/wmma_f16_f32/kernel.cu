// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_f16_f32: one wmma m16n16k16 f16 x f16 + f32 per warp (8 tiles): A row-major with a row
// stride of 24 halves, B column-major, C row-major with stride 20, D row-major. Each lane also writes the raw
// fragments it holds after the loads (A 8 words, B 8, C 8): the fragment layout is opaque in PTX, and these words
// show NVIDIA's (docs/TENSOR.md states the layout ptx2glsl assumes).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_f16_f32(const half* a, const half* b, const float* c, float* d, uint32_t* frag) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a + tile * 16 * 24, 24);
  wmma::load_matrix_sync(fb, b + tile * 256, 16);
  wmma::load_matrix_sync(fc, c + tile * 16 * 20, 20, wmma::mem_row_major);
  uint32_t* f = frag + (tile * 32 + lane) * 24;
  for (int i = 0; i < 8; ++i) {
    f[i] = word(fa.x, i);
    f[8 + i] = word(fb.x, i);
    f[16 + i] = word(fc.x, i);
  }
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + tile * 256, fc, 16, wmma::mem_row_major);
}
