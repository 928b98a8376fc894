// nvcc -ptx -O3 -arch=sm_90 kernels/deep_loops.cu -o ptx/deep_loops.ptx
// A long kernel with deep loop nests, unrolled bodies, #pragma unroll 1 (.pragma "nounroll"), early exits and
// loop-carried predicates: many labels ($L__BB0_n), bra.uni, and large register counts.
__global__ void stencil_nest(const float* __restrict__ in, float* __restrict__ out, const int* __restrict__ mask,
                             int nx, int ny, int nz, int iters) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll 1
  for (int it = 0; it < iters; ++it) {
    for (int z = 1; z + 1 < nz; ++z) {
      float c = in[(z * ny + y) * nx + x];
#pragma unroll
      for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
        for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
          for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), nx - 1), yy = min(max(y + dy, 0), ny - 1);
            float w = (dx == 0 && dy == 0 && dz == 0) ? 0.5f : 0.5f / 26.f;
            acc[(dx + dy + dz + 3) & 3] += w * in[((z + dz) * ny + yy) * nx + xx];
          }
      if (mask[z] < 0) break;
      for (int k = 0; k < (mask[z] & 7); ++k) {
        int m = mask[(z + k) % nz];
        if (m == 99) continue;
        for (int j = 0; j < (m & 3); ++j) acc[j] = acc[j] * 0.99f + c * 0.01f;
      }
    }
    if (acc[0] > 1e6f) goto done;
  }
done:
  out[y * nx + x] = acc[0] + acc[1] + acc[2] + acc[3];
}

__global__ void matmul_naive(const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ c, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n || col >= n) return;
  double s = 0.0;
#pragma unroll 8
  for (int k = 0; k < n; ++k) s = fma(a[r * n + k], b[k * n + col], s);
  c[r * n + col] = s;
}
