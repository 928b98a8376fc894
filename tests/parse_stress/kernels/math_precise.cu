// nvcc -ptx -O3 -arch=sm_90 kernels/math_precise.cu -o ptx/math_precise.ptx
// IEEE-accurate single-precision libdevice math inlined into long PTX: expf/logf/sinf (Payne-Hanek slow path with
// a local array and a .global constant table), tanhf, powf, rsqrtf, sqrtf, div.rn, and the intrinsics next to them.
__global__ void precise(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float a = expf(v) + logf(fabsf(v) + 1e-3f) + sinf(v) + cosf(v * 3.f);
  float b = tanhf(v) + rsqrtf(fabsf(v) + 1.f) + sqrtf(fabsf(v)) + powf(fabsf(v), 1.7f);
  float c = __expf(v) + __logf(fabsf(v) + 1.f) + __sinf(v) + __cosf(v) + __fdividef(v, 3.f);
  float d = atan2f(v, 2.f) + erff(v) + lgammaf(fabsf(v) + 1.f) + fmodf(v, 0.7f) + cbrtf(v) + exp2f(v) + log2f(v + 9.f);
  float e = __fadd_rz(a, b) + __fmul_ru(c, d) + __fmaf_rd(a, c, d) + __frcp_rn(v) + __fsqrt_rd(fabsf(v));
  float s, co;
  sincosf(v * 0.5f, &s, &co);
  y[i] = a + b + c + d + e + s * co + copysignf(floorf(v), -v) + truncf(v) + roundf(v) + rintf(v) + fminf(v, e);
}
