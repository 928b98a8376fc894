// nvcc -ptx -O3 -arch=sm_80 kernels/math_double.cu -o ptx/math_double.ptx
// Double precision libdevice: sin/cos/exp/log/pow/erf/cbrt/atan2 (long polynomial chains, fma.rn.f64, the
// 0d... literal form, mov.b64 {hi,lo} splits), plus f64<->f32/int conversions with rounding modifiers.
__global__ void dmath(const double* __restrict__ x, double* __restrict__ y, float* __restrict__ yf,
                      long long* __restrict__ yi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  double a = sin(v) + cos(v) + exp(v) + log(fabs(v) + 1e-9);
  double b = pow(fabs(v), 2.5) + erf(v) + cbrt(v) + atan2(v, 1.5) + sqrt(fabs(v)) + rsqrt(fabs(v) + 1.0);
  double c = fma(a, b, v) / (v + 3.0) + __drcp_rn(v) + __dadd_rz(a, b) + __dmul_ru(a, b);
  y[i] = a + b + c + ldexp(v, i & 7) + tanh(v) + floor(v) + ceil(v) + fmod(v, 0.25);
  yf[i] = __double2float_rd(c) + (float)a;
  yi[i] = __double2ll_rz(b) + __double2int_rn(a) + (long long)__double2uint_ru(fabs(c));
}
