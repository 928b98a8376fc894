// nvcc -ptx -O3 -arch=sm_90 kernels/mma_sync_f16.cu -o ptx/mma_sync_f16.ptx
// Hand-written tensor-core tile: ldmatrix.sync.aligned.m8n8.x4(.trans).shared.b16 from shared memory, then
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (inline asm keeps the exact instruction forms).
#include <cuda_fp16.h>
#include <cstdint>

__global__ void mma_tile(const half* __restrict__ A, const half* __restrict__ B, float* __restrict__ D) {
  __shared__ __align__(16) half sa[16 * 16];
  __shared__ __align__(16) half sb[16 * 8];
  int lane = threadIdx.x & 31;
  for (int t = lane; t < 256; t += 32) sa[t] = A[t];
  for (int t = lane; t < 128; t += 32) sb[t] = B[t];
  __syncwarp();
  uint32_t a0, a1, a2, a3, b0, b1;
  uint32_t aaddr = (uint32_t)__cvta_generic_to_shared(sa + (lane % 16) * 16 + (lane / 16) * 8);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aaddr));
  uint32_t baddr = (uint32_t)__cvta_generic_to_shared(sb + (lane % 16) * 8);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(baddr));
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  uint32_t h0 = 0, h1 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
               : "+r"(h0), "+r"(h1)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int row = lane / 4, col = (lane % 4) * 2;
  D[row * 8 + col] = d0 + __half2float(__ushort_as_half((unsigned short)h0));
  D[row * 8 + col + 1] = d1;
  D[(row + 8) * 8 + col] = d2 + __half2float(__ushort_as_half((unsigned short)(h1 >> 16)));
  D[(row + 8) * 8 + col + 1] = d3;
}
