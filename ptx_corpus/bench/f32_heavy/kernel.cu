// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): f32 arithmetic as nvcc emits it by default: mul+add pairs that ptxas
// contracts, products with a second use, explicit fmaf, min/max and a division-free recurrence, meant to stay
// finite. It does not: about 97% of the lanes overflow and end NaN within 512 iterations (a host model:
// tests/experiments/f32_heavy_nan_model.py; docs/GPU_BENCH.md), so the case also times NaN going through.
// Sized to run about 1 ms under CUDA on an H200; each thread writes one value made of its 4 state values.
extern "C" __global__ void f32_heavy(const float* __restrict__ in, float* __restrict__ out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], y = in[i ^ 1] * 0.5f, z = 1.0f + x * 0.25f, w = 0.75f - y;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      float p = x * y;                     // second use below: not contracted
      x = p * 0.5f + z * 0.25f;            // contracted into one fma
      y = fmaf(y, 0.96875f, w * 0.03125f) - p * 0.0009765625f;
      z = fminf(fmaxf(z * 0.875f + x, -4.0f), 4.0f);
      w = w * 0.9990234f + p;
    }
    x = x * 0.5f + 0.25f;
  }
  out[i] = (x + y) * 0.5f + (z - w);
}
