// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// ptx_corpus/ops/f32_div: div.f32: .rn/.rz/.rm/.rp (correctly rounded), .ftz, div.full, div.approx (and their .ftz).
// Written by ptx_corpus/ops/make_cases.py (edit the table there, not this file). One output per variant:
// div_rn: div.rn.f32; div_rz: div.rz.f32; div_rm: div.rm.f32; div_rp: div.rp.f32; div_rn_ftz: div.rn.ftz.f32; div_full: div.full.f32; div_approx: div.approx.f32; div_full_ftz: div.full.ftz.f32; div_approx_ftz: div.approx.ftz.f32.
#include <stdint.h>

// ---- inputs: integer code only, so the inputs are the same bits on every device ----
__device__ __forceinline__ uint32_t mix(uint32_t x) {  // a 32-bit integer hash (lowbias32)
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__constant__ uint32_t kEdge32[32] = {
  0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00800000u, 0x80800000u,
  0x3F800000u, 0xBF800000u, 0x3F800001u, 0x3F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
  0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FBFFFFFu, 0xFFFFFFFFu, 0x7FC12345u, 0x3F000000u, 0x40000000u,
  0x40400000u, 0x4B000000u, 0x4B800000u, 0x4F000000u, 0x5F000000u, 0x33800000u, 0x00400000u, 0x3EFFFFFFu};
__constant__ uint32_t kEdge16[32] = {
  0x0000u, 0x8000u, 0x0001u, 0x8001u, 0x03FFu, 0x83FFu, 0x0400u, 0x8400u, 0x3C00u, 0xBC00u, 0x3C01u, 0x3BFFu,
  0x7BFFu, 0xFBFFu, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE00u, 0x7C01u, 0x7DFFu, 0xFFFFu, 0x7E55u, 0x3800u, 0x4000u,
  0x4200u, 0x6400u, 0x6800u, 0x1400u, 0x0200u, 0x37FFu, 0x7BFEu, 0x3555u};
__constant__ uint32_t kEdgeBf[32] = {
  0x0000u, 0x8000u, 0x0001u, 0x8001u, 0x007Fu, 0x807Fu, 0x0080u, 0x8080u, 0x3F80u, 0xBF80u, 0x3F81u, 0x3F7Fu,
  0x7F7Fu, 0xFF7Fu, 0x7F80u, 0xFF80u, 0x7FC0u, 0xFFC0u, 0x7F81u, 0x7FBFu, 0xFFFFu, 0x7FD5u, 0x3F00u, 0x4000u,
  0x4040u, 0x4B00u, 0x4B80u, 0x3380u, 0x0040u, 0x3EFFu, 0x7F7Eu, 0x3EABu};
__constant__ uint32_t kEdgeInt[16] = {
  0u, 1u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u, 2u, 31u, 32u, 33u, 63u, 64u, 0xFFFFFFFEu, 255u, 256u, 16u};

// f32 bit patterns: edge values, denormals, neighbours of edges, short mantissas (exact products, ties), random bits
__device__ uint32_t gen32(uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 7u;
  if (k <= 1u) return kEdge32[(h >> 3) & 31u];
  if (k == 2u) return r & 0x807FFFFFu;
  if (k == 3u) return kEdge32[(h >> 3) & 31u] ^ (r & 7u);
  if (k == 4u) return r & 0xFFFFF000u;
  return r;
}
// a second f32 operand related to a: same exponent (cancellation, ties), a with low bits and sign changed,
// exponent a few steps away (alignment, sticky bits), or independent
__device__ uint32_t near32(uint32_t a, uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x85EBCA6Bu + salt), r = mix(h + 0x27d4eb2fu);
  uint32_t k = h & 3u;
  if (k == 0u) return (a & 0x7F800000u) | (r & 0x807FFFFFu);
  if (k == 1u) return a ^ (r & 0x8000003Fu);
  if (k == 2u) {
    int e = int((a >> 23) & 255u) + int(r & 63u) - 32;
    e = e < 0 ? 0 : e > 254 ? 254 : e;
    return (r & 0x807FFFFFu) | (uint32_t(e) << 23);
  }
  return gen32(i, salt ^ 0x6A09E667u);
}
// a third operand for fma: often minus the (truncated) product a*b, so the sum cancels
__device__ uint32_t fmac32(uint32_t a, uint32_t b, uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0xC2B2AE35u + salt), r = mix(h + 0x165667b1u);
  uint32_t ea = (a >> 23) & 255u, eb = (b >> 23) & 255u;
  if ((h & 1u) || ea == 0u || eb == 0u || ea == 255u || eb == 255u) return near32(a, i, salt ^ 0xBB67AE85u);
  uint64_t p = uint64_t((a & 0x7FFFFFu) | 0x800000u) * uint64_t((b & 0x7FFFFFu) | 0x800000u);
  int e = int(ea) + int(eb) - 127;
  uint32_t m;
  if (p >> 47) { m = uint32_t(p >> 24); e += 1; } else { m = uint32_t(p >> 23); }
  if (e <= 0 || e >= 255) return gen32(i, salt ^ 0x3C6EF372u);
  m = (m & 0x7FFFFFu) ^ ((h & 2u) ? (r & 3u) : 0u);
  return ((a ^ b ^ ((h & 4u) ? 0x80000000u : 0u)) & 0x80000000u) | (uint32_t(e) << 23) | m;
}
// 16-bit patterns (f16 or bf16 table)
__device__ uint32_t gen16(uint32_t i, uint32_t salt, bool bf) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 7u;
  uint32_t e = bf ? kEdgeBf[(h >> 3) & 31u] : kEdge16[(h >> 3) & 31u];
  if (k <= 1u) return e;
  if (k == 2u) return r & (bf ? 0x807Fu : 0x83FFu);
  if (k == 3u) return e ^ (r & 3u);
  if (k == 4u) return (bf ? (r & 0xFFF8u) : (r & 0xFFE0u));
  return r & 0xFFFFu;
}
__device__ uint32_t near16(uint32_t a, uint32_t i, uint32_t salt, bool bf) {
  uint32_t h = mix(i * 0x85EBCA6Bu + salt), r = mix(h + 0x27d4eb2fu);
  uint32_t k = h & 3u;
  uint32_t em = bf ? 0x7F80u : 0x7C00u;
  if (k == 0u) return (a & em) | (r & ~em & 0xFFFFu);
  if (k == 1u) return (a ^ (r & 0x8007u)) & 0xFFFFu;
  if (k == 2u) {
    int sh = bf ? 7 : 10, emax = bf ? 254 : 30;
    int x = int((a & em) >> sh) + int(r & 15u) - 8;
    x = x < 0 ? 0 : x > emax ? emax : x;
    return (r & (0xFFFFu & ~em)) | (uint32_t(x) << sh);
  }
  return gen16(i, salt ^ 0x6A09E667u, bf);
}
// integers: edge values, small values (shift counts, bit positions), random
__device__ uint32_t genInt(uint32_t i, uint32_t salt) {
  uint32_t h = mix(i * 0x9E3779B9u + salt), r = mix(h ^ 0x5bd1e995u);
  uint32_t k = h & 3u;
  if (k == 0u) return kEdgeInt[(h >> 2) & 15u];
  if (k == 1u) return r & 127u;
  if (k == 2u) return (h & 4u) ? (r & 0xFFFFu) : (0u - (r & 0xFFFFu));
  return r;
}

extern "C" __global__ void f32_div(uint32_t* __restrict__ o_div_rn, uint32_t* __restrict__ o_div_rz, uint32_t* __restrict__ o_div_rm, uint32_t* __restrict__ o_div_rp, uint32_t* __restrict__ o_div_rn_ftz, uint32_t* __restrict__ o_div_full, uint32_t* __restrict__ o_div_approx, uint32_t* __restrict__ o_div_full_ftz, uint32_t* __restrict__ o_div_approx_ftz, uint32_t salt) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a = gen32(i, salt), b = near32(a, i, salt ^ 0x1234567u), c = fmac32(a, b, i, salt ^ 0x7654321u);

  float fa = __uint_as_float(a), fb = __uint_as_float(b), fc = __uint_as_float(c);
  unsigned short ha = (unsigned short)a, hb = (unsigned short)b, hc = (unsigned short)c;
  uint64_t A = (uint64_t(mix(a ^ 0x9E3779B9u)) << 32) | a, B = (uint64_t(b) << 32) | mix(b + 0x3C6EF372u);
  uint64_t C = (uint64_t(c) << 32) | mix(c ^ 0x7F4A7C15u);
  if ((i & 3u) == 0u) { A = uint64_t(int64_t(int32_t(a))); B = uint64_t(b); }
  double DA = __longlong_as_double((long long)A);
  { float d; asm("div.rn.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_rn[i] = __float_as_uint(d); }
  { float d; asm("div.rz.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_rz[i] = __float_as_uint(d); }
  { float d; asm("div.rm.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_rm[i] = __float_as_uint(d); }
  { float d; asm("div.rp.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_rp[i] = __float_as_uint(d); }
  { float d; asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_rn_ftz[i] = __float_as_uint(d); }
  { float d; asm("div.full.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_full[i] = __float_as_uint(d); }
  { float d; asm("div.approx.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_approx[i] = __float_as_uint(d); }
  { float d; asm("div.full.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_full_ftz[i] = __float_as_uint(d); }
  { float d; asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(fa), "f"(fb)); o_div_approx_ftz[i] = __float_as_uint(d); }
}
