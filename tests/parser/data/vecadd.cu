// nvcc -ptx -O3 -arch=sm_90 vecadd.cu -o vecadd.ptx
// Simple guarded element-wise kernel: a bounds check (setp + @%p bra), 64-bit addressing, .reg ranges.
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Read-only vector loads: ld.global.nc.v4.f32 via __ldg on float4.
extern "C" __global__ void __launch_bounds__(256) scale4(const float4* __restrict__ in, float4* out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = __ldg(&in[i]);
  out[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}
