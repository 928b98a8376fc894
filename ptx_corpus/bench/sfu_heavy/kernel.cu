// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): NVIDIA's SFU approximations through the fast intrinsics (__expf -> ex2.approx,
// __logf -> lg2.approx, __sinf/__cosf -> sin/cos.approx, rsqrtf -> rsqrt.approx, __fdividef -> div.approx;
// CUDA has no tanh intrinsic, so tanh.approx.f32 comes from inline PTX).
// Arguments are kept in ranges where the results stay finite. Sized to run about 1 ms under CUDA on an H200.
__device__ __forceinline__ float tanh_approx(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
extern "C" __global__ void sfu_heavy(const float* __restrict__ in, float* __restrict__ out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], y = 0.5f;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      float e = __expf(x * 0.5f);              // (0.6, 1.7)
      float l = __logf(e + y);                  // finite: e + y > 0
      float s = __sinf(l * 3.0f) + __cosf(x);
      float r = rsqrtf(e + 0.25f);
      x = tanh_approx(s * r) + __fdividef(l, e + 1.0f);
      y = fabsf(x) * 0.5f + 0.125f;
    }
  }
  out[i] = x + y;
}
