// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_s8: integer wmma m16n16k16 per warp (8 tiles), C within 2^18 of the s32 limits (near the
// largest value, complemented element-wise to near the smallest in odd tiles): s8 x s8 + s32 with .satfinite (A row-major, B column-major with stride 32), the same without it (wrapping), and u8 x u8
// + s32 (both row-major), stored row, row and column-major to d (three 256-word blocks a tile). Each lane also
// writes its raw fragments after the loads (A 2 words, B 2, C 8; docs/TENSOR.md).
#include <stdint.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_s8(const signed char* a, const signed char* b, const unsigned char* ua,
                                   const unsigned char* ub, const int* c, int* d, uint32_t* frag) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fua;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fub;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc, fd;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b + tile * 512, 32);
  wmma::load_matrix_sync(fua, ua + tile * 256, 16);
  wmma::load_matrix_sync(fub, ub + tile * 256, 16);
  wmma::load_matrix_sync(fc, c + tile * 256, 16, wmma::mem_row_major);
  uint32_t* f = frag + (tile * 32 + lane) * 12;
  for (int i = 0; i < 2; ++i) {
    f[i] = word(fa.x, i);
    f[2 + i] = word(fb.x, i);
  }
  for (int i = 0; i < 8; ++i) f[4 + i] = word(fc.x, i);
  if (tile & 1)
    for (int i = 0; i < 8; ++i) fc.x[i] = ~fc.x[i];
  int* o = d + tile * 768;
  wmma::mma_sync(fd, fa, fb, fc, true);
  wmma::store_matrix_sync(o, fd, 16, wmma::mem_row_major);
  wmma::mma_sync(fd, fa, fb, fc);
  wmma::store_matrix_sync(o + 256, fd, 16, wmma::mem_row_major);
  wmma::mma_sync(fd, fua, fub, fc);
  wmma::store_matrix_sync(o + 512, fd, 16, wmma::mem_col_major);
}
