// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_vs_mma: the assumption docs/TENSOR.md makes about wmma on sm_90, made checkable. Per warp
// (8 tiles), the same f16 x f16 + f32 product twice: wmma::mma_sync, stored row-major to dw; and two
// mma.sync.m16n8k16 fed with the wmma fragments' registers as if they had mma's layout (A registers 0..3, B
// registers 0..1 then 2..3 for the two halves of N, C registers 0..3 then 4..7), each result element stored to dm
// at the position that layout gives it. dm equals dw on the GPU exactly when wmma's fragments have mma's layout and
// wmma adds the products as mma.sync does.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static __device__ __forceinline__ uint32_t word(const void* p, int i) { return reinterpret_cast<const uint32_t*>(p)[i]; }

extern "C" __global__ void wmma_vs_mma(const half* a, const half* b, const float* c, float* dw, float* dm) {
  unsigned tile = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc, fd;
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b + tile * 256, 16);
  wmma::load_matrix_sync(fc, c + tile * 256, 16, wmma::mem_row_major);
  wmma::mma_sync(fd, fa, fb, fc);
  wmma::store_matrix_sync(dw + tile * 256, fd, 16, wmma::mem_row_major);
  float d[8];
  for (int h = 0; h < 2; ++h)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[4 * h]), "=f"(d[4 * h + 1]), "=f"(d[4 * h + 2]), "=f"(d[4 * h + 3])
                 : "r"(word(fa.x, 0)), "r"(word(fa.x, 1)), "r"(word(fa.x, 2)), "r"(word(fa.x, 3)),
                   "r"(word(fb.x, 2 * h)), "r"(word(fb.x, 2 * h + 1)), "f"(fc.x[4 * h]), "f"(fc.x[4 * h + 1]),
                   "f"(fc.x[4 * h + 2]), "f"(fc.x[4 * h + 3]));
  unsigned g = lane >> 2, t = lane & 3;
  for (int e = 0; e < 8; ++e) {
    unsigned row = g + 8 * ((e >> 1) & 1), col = 2 * t + (e & 1) + 8 * (e >> 2);
    dm[tile * 256 + row * 16 + col] = d[e];
  }
}
