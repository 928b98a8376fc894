// nvcc -ptx -O3 -arch=sm_86 kernels/wmma_int8.cu -o ptx/wmma_int8.ptx
// Integer WMMA: s8 and u8 inputs, s32 accumulators (m16n16k16 and m32n8k16 shapes), sm_86.
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_s8(const signed char* __restrict__ A, const signed char* __restrict__ B,
                        const unsigned char* __restrict__ UA, const unsigned char* __restrict__ UB,
                        int* __restrict__ C, int* __restrict__ C2, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
  wmma::fill_fragment(c, 0);
  wmma::load_matrix_sync(a, A, ld);
  wmma::load_matrix_sync(b, B, ld);
  wmma::mma_sync(c, a, b, c, true);
  wmma::store_matrix_sync(C, c, ld, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> ua;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> ub;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> uc;
  wmma::load_matrix_sync(uc, C2, ld, wmma::mem_row_major);
  wmma::load_matrix_sync(ua, UA, ld);
  wmma::load_matrix_sync(ub, UB, ld);
  wmma::mma_sync(uc, ua, ub, uc);
  wmma::store_matrix_sync(C2, uc, ld, wmma::mem_row_major);
}
