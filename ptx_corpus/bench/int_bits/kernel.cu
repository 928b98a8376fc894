// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): integer and bit arithmetic as hashes and codecs use it: xorshift, 32-bit
// multiply, mul.hi, funnel shifts (shf), byte permutes (prmt), bit field extract/insert (bfe/bfi), popc, clz,
// brev, lop3 from three-input logic. Sized to run about 1 ms under CUDA on an H200.
extern "C" __global__ void int_bits(const unsigned* __restrict__ in, unsigned* __restrict__ out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[i], b = in[i ^ 1] | 1u, c = 0x9E3779B9u ^ i, d = 0;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      a ^= a << 13; a ^= a >> 17; a ^= a << 5;
      b = b * 0x2545F491u + __umulhi(a, c);
      c = __funnelshift_l(c, b, a & 31) ^ __byte_perm(a, b, 0x5140 + (k & 3));
      d += __popc(a & ~b) + __clz(c | 1u);
      a = (a & b) | (~a & c) ^ (b & ~c);       // a lop3 pattern
      c ^= __brev(d) + ((b >> 7) & 0x3FFu);
    }
  }
  out[i] = (a ^ b) + (c ^ d);
}
