// nvcc -ptx -G -arch=sm_90 debuginfo.cu -o debuginfo.ptx
// Debug build: .file/.loc directives in bodies, %SP/%SPL local depots and large .section .debug_* blocks that the
// parser must skip.
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
