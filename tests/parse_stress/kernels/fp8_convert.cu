// nvcc -ptx -O3 -arch=sm_90 kernels/fp8_convert.cu -o ptx/fp8_convert.ptx
// fp8 (e4m3/e5m2) conversions: cvt.rn.satfinite.e4m3x2.f32, cvt.rn.f16x2.e4m3x2 and friends (sm_89+).
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__global__ void fp8_roundtrip(const float2* __restrict__ in, __nv_fp8x2_storage_t* __restrict__ q4,
                              __nv_fp8x2_storage_t* __restrict__ q5, __half2* __restrict__ back,
                              float* __restrict__ scalar, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = in[i];
  __nv_fp8x2_storage_t a = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  __nv_fp8x2_storage_t b = __nv_cvt_float2_to_fp8x2(v, __NV_NOSAT, __NV_E5M2);
  q4[i] = a;
  q5[i] = b;
  __half2_raw h4 = __nv_cvt_fp8x2_to_halfraw2(a, __NV_E4M3);
  __half2_raw h5 = __nv_cvt_fp8x2_to_halfraw2(b, __NV_E5M2);
  back[i] = __hadd2(__half2(h4), __half2(h5));
  __nv_fp8_e4m3 s4(v.x);
  __nv_fp8_e5m2 s5(v.y);
  __nv_fp8x4_e4m3 quad(make_float4(v.x, v.y, -v.x, -v.y));
  float4 qb = float4(quad);
  scalar[i] = float(s4) + float(s5) + qb.x + qb.w;
}
