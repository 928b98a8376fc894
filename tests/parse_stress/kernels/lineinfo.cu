// nvcc -ptx -O3 -lineinfo -arch=sm_86 kernels/lineinfo.cu -o ptx/lineinfo.ptx
// Optimized code with -lineinfo: .file entries with timestamps and .loc directives carrying inlined_at and
// function_name attributes interleaved with the instructions (sm_86).
__device__ __forceinline__ float smooth(float a, float b, float t) { return a + (b - a) * t * t * (3.f - 2.f * t); }

__device__ __forceinline__ float noise(int x, int y) {
  unsigned h = (unsigned)x * 374761393u + (unsigned)y * 668265263u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return (float)(h & 0xffff) / 65535.f;
}

__global__ void value_noise(float* __restrict__ out, int w, int h, float scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float fx = x * scale, fy = y * scale;
  int ix = (int)fx, iy = (int)fy;
  float tx = fx - ix, ty = fy - iy;
  float a = smooth(noise(ix, iy), noise(ix + 1, iy), tx);
  float b = smooth(noise(ix, iy + 1), noise(ix + 1, iy + 1), tx);
  out[y * w + x] = smooth(a, b, ty);
}
