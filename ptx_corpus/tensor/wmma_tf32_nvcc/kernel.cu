// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// ptx_corpus/tensor/wmma_tf32_nvcc: tests/parse_stress/kernels/wmma_bf16_tf32.cu as a case (entry wmma_tf32: tf32 wmma
// m16n16k8 over K = ld = 32 with __float_to_tf32 on the fragments, i.e. cvt.rna.tf32.f32). kernel.ptx is nvcc 13's
// output for the sm_80 build of that file (tests/parse_stress/ptx/wmma_bf16_tf32.ptx) until it is regenerated.
// WMMA with bf16 (m16n16k16) and tf32 (m16n16k8, with __float_to_tf32 -> cvt.rna.tf32.f32) inputs, sm_80.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void wmma_bf16(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          float* __restrict__ C, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, C, ld, wmma::mem_row_major);
  wmma::load_matrix_sync(a, A, ld);
  wmma::load_matrix_sync(b, B, ld);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, ld, wmma::mem_row_major);
}

__global__ void wmma_tf32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < ld; k += 8) {
    wmma::load_matrix_sync(a, A + k, ld);
    wmma::load_matrix_sync(b, B + k, ld);
    for (int t = 0; t < a.num_elements; ++t) a.x[t] = wmma::__float_to_tf32(a.x[t]);
    for (int t = 0; t < b.num_elements; ++t) b.x[t] = wmma::__float_to_tf32(b.x[t]);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C, c, ld, wmma::mem_col_major);
}
