// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_gemm_nvcc: tests/parse_stress/kernels/wmma_f16.cu as a case (kernel.ptx is nvcc 13's output for it,
// tests/parse_stress/ptx/wmma_f16.ptx): a 32x32 product over K = 64 in four wmma steps, f32 and f16 accumulators.
// WMMA 16x16x16 half inputs with f32 accumulation (wmma.load.a/b.sync.aligned.row/col.m16n16k16, wmma.mma,
// wmma.store.d), looping over K, plus an f16-accumulator variant with a col-major store.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void wmma_gemm(const half* __restrict__ A, const half* __restrict__ B, float* __restrict__ C,
                          half* __restrict__ C16, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc16;
  wmma::fill_fragment(acc, 0.0f);
  wmma::fill_fragment(acc16, __float2half(0.0f));
  for (int k = 0; k < K; k += 16) {
    int ar = warpM * 16, bc = warpN * 16;
    if (ar < M && bc < N) {
      wmma::load_matrix_sync(a, A + ar * K + k, K);
      wmma::load_matrix_sync(b, B + bc * K + k, K);
      wmma::mma_sync(acc, a, b, acc);
      wmma::mma_sync(acc16, a, b, acc16);
    }
  }
  for (int t = 0; t < acc.num_elements; ++t) acc.x[t] = acc.x[t] * 0.5f;
  wmma::store_matrix_sync(C + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
  wmma::store_matrix_sync(C16 + warpN * 16 * M + warpM * 16, acc16, M, wmma::mem_col_major);
}
