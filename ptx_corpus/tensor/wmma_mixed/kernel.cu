// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_mixed: the wmma m16n16k16 forms whose accumulator and result types differ, per warp (8
// tiles), A and B row-major f16: d32 = A B + C16 (f32 result, f16 accumulator input) and d16 = A B + C32 (f16
// result, f32 accumulator input). ptx2glsl's assumption for the second (docs/TENSOR.md): the f32 computation,
// then rounded to f16 to nearest even; this case checks it on the H200.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_mixed(const half* a, const half* b, const half* c16, const float* c32, float* d32,
                                      half* d16) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> ff;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b + tile * 256, 16);
  wmma::load_matrix_sync(fh, c16 + tile * 256, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(ff, c32 + tile * 256, 16, wmma::mem_row_major);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> rf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> rh;
  wmma::mma_sync(rf, fa, fb, fh);
  wmma::mma_sync(rh, fa, fb, ff);
  wmma::store_matrix_sync(d32 + tile * 256, rf, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(d16 + tile * 256, rh, 16, wmma::mem_row_major);
}
