// nvcc -ptx -O3 -arch=sm_90 -rdc=true kernels/dyn_parallel.cu -o ptx/dyn_parallel.ptx
// Dynamic parallelism: a kernel launching a child grid (cudaGetParameterBufferV2 + cudaLaunchDeviceV2 extern
// .func prototypes, .param structs of dim3), with the child declared in the same module (-rdc).
__global__ void child(float* data, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[offset + i] *= 2.0f;
}

__global__ void parent(float* data, const int* __restrict__ sizes, int parts) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= parts) return;
  int offset = 0;
  for (int k = 0; k < p; ++k) offset += sizes[k];
  int n = sizes[p];
  if (n > 0) child<<<(n + 127) / 128, 128>>>(data, offset, n);
}
