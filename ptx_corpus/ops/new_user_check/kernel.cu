// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// The "new user" check of issue 3: ordinary CUDA, nothing written for the translator. f32 math with a contracted
// a*b+c (nvcc leaves mul+add to ptxas, which fuses it), division, sqrt, fminf/fmaxf, denormal inputs and results;
// half and half2 math from cuda_fp16.h with conversions and saturation. Inputs: random bit patterns (NaNs with
// payloads, infinities, denormals) and ordinary ranges.
#include <cuda_fp16.h>
#include <stdint.h>

extern "C" __global__ void new_user_check(const uint32_t* __restrict__ bits, const float* __restrict__ x,
                                          const float* __restrict__ y, uint32_t* __restrict__ out32,
                                          uint32_t* __restrict__ outh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = __uint_as_float(bits[i]), b = __uint_as_float(bits[(i * 7 + 3) % n]);
  float p = x[i], q = y[i];
  // f32: contracted and uncontracted products, division, sqrt, min/max, denormal scaling
  float t = p * q + a;                   // one FFMA after ptxas contraction
  float u = p * q;                       // product with a second use: not fused
  float v = u - b + u * 0.5f;
  float w = a / (q + 1e-30f);
  float s = sqrtf(fabsf(b));
  float m = fminf(a, b) + fmaxf(p, q);
  float d = p * 1.0e-39f;                // denormal results
  float e = d * 3.0f + 1.0e-40f;
  out32[i * 8 + 0] = __float_as_uint(t);
  out32[i * 8 + 1] = __float_as_uint(v);
  out32[i * 8 + 2] = __float_as_uint(w);
  out32[i * 8 + 3] = __float_as_uint(s);
  out32[i * 8 + 4] = __float_as_uint(m);
  out32[i * 8 + 5] = __float_as_uint(e);
  out32[i * 8 + 6] = __float_as_uint(fmaxf(a, -0.0f) * q);
  out32[i * 8 + 7] = __float_as_uint(__fdiv_rn(p, 3.0f) + __fsqrt_rn(q * q));
  // half and half2: conversions, arithmetic, fused multiply-add, saturation
  __half ha = __float2half_rn(p), hb = __float2half_rz(q * 100.0f), hc = __ushort_as_half((unsigned short)bits[i]);
  __half hs = __hadd_sat(__hmul(ha, hb), hc);
  __half hf = __hfma(ha, hb, __float2half(a));
  __half hm = __hfma_sat(hc, ha, hb);
  __half2 h2 = __floats2half2_rn(p, q);
  __half2 g2 = __halves2half2(hc, hb);
  __half2 r2 = __hfma2(h2, g2, __float2half2_rn(0.25f));
  __half2 s2 = __hadd2_sat(__hmul2(h2, h2), g2);
  __half2 n2 = __hneg2(__hsub2(r2, s2));
  float back = __half2float(hs) + __low2float(r2) * __high2float(s2);
  outh[i * 6 + 0] = (uint32_t)__half_as_ushort(hs) | ((uint32_t)__half_as_ushort(hf) << 16);
  outh[i * 6 + 1] = (uint32_t)__half_as_ushort(hm) | ((uint32_t)__half_as_ushort(__hmax(ha, hc)) << 16);
  outh[i * 6 + 2] = *(uint32_t*)&r2;
  outh[i * 6 + 3] = *(uint32_t*)&s2;
  outh[i * 6 + 4] = *(uint32_t*)&n2;
  outh[i * 6 + 5] = __float_as_uint(back);
}
