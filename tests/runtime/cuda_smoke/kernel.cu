// nvcc -ptx -arch=sm_90 -o kernel.ptx kernel.cu
// Smoke case for the CUDA reference runner: the same computation and parameter layout as abi_probe.comp.
struct S {
  int pad;
  unsigned add;
  float* unused;
};
extern "C" __global__ void probe(const float* x, float* out, unsigned n, float scale, S s, unsigned* out2) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * scale;
  out2[i] = i + s.add;
}
