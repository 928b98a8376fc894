// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Benchmark kernel (ptx_corpus/bench): shared memory and barriers: each 256-thread block keeps a 16x16 tile of
// f32 with a one-cell halo in shared memory and runs a damped 5-point stencil for `iters` steps, a __syncthreads
// between the reads and the writes of each step; then a shared-memory tree sum. Each block writes the diagonal of
// its tile and its sum. Sized to run about 1 ms under CUDA on an H200.
extern "C" __global__ void smem_barrier(const float* __restrict__ in, float* __restrict__ out, int iters) {
  __shared__ float tile[18][18];
  __shared__ float sum[256];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = in[i];
  if (tx == 0) tile[ty + 1][0] = 0.0f;
  if (tx == 15) tile[ty + 1][17] = 0.0f;
  if (ty == 0) tile[0][tx + 1] = 0.0f;
  if (ty == 15) tile[17][tx + 1] = 0.0f;
  if (threadIdx.x == 0) { tile[0][0] = tile[0][17] = tile[17][0] = tile[17][17] = 0.0f; }
  tile[ty + 1][tx + 1] = v;
  __syncthreads();
  for (int k = 0; k < iters; ++k) {
    float n = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
    float c = tile[ty + 1][tx + 1];
    __syncthreads();
    tile[ty + 1][tx + 1] = c * 0.5f + n * 0.125f + 0.001f * (float)(k & 7);
    __syncthreads();
  }
  float r = tile[ty + 1][tx + 1];
  if (tx == ty) out[blockIdx.x * 16 + tx] = r;   // the diagonal of each tile, then the block sums
  sum[threadIdx.x] = r;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) sum[threadIdx.x] += sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[gridDim.x * 16 + blockIdx.x] = sum[0];
}
