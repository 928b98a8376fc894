// nvcc -ptx -arch=sm_90 -O3 -o kernel.ptx kernel.cu
// Kernels for the runner's memory-safety tests (docs/RUNNER_SAFETY.md). Each one touches exactly the memory its
// parameters describe, so a case.json that lies (a buffer smaller than the kernel's range) sends it out of bounds,
// and the --check-bounds cases each make one thread leave its buffer, its shared array or its local array.

// out[i] = 3 i + 1 for i < n: with a buffer of fewer than 4 n bytes the last threads write past its end.
extern "C" __global__ void fill_u32(unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3u * i + 1u;
}

// out[i] = in[i] for i < n: with an `in` of fewer than 4 n bytes the last threads read past its end.
extern "C" __global__ void copy_u32(const unsigned* __restrict__ in, unsigned* __restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Thread `bad` (a global index) reads src[count], one element past a `count`-element buffer; the others read
// src[i % count]. Every thread writes its value to out[i].
extern "C" __global__ void read_past(const unsigned* __restrict__ src, unsigned* __restrict__ out, unsigned count,
                                     unsigned bad) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = i == bad ? count : i % count;
  out[i] = src[j];
}

// Thread `bad` of the block writes s[64 + bad], past the 64-word shared array; then each thread copies its word.
extern "C" __global__ void shared_past(unsigned* out, unsigned bad) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t == bad ? 64 + t : t] = 5u * t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[t & 63u];
}

// A per-thread array indexed at run time lives in .local memory; thread `bad` writes a[k], which for k >= 8 is
// past its end.
extern "C" __global__ void local_past(unsigned* out, unsigned k, unsigned bad) {
  unsigned a[8];
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = 0; j < 8; ++j) a[j] = t + j;
  a[t == bad ? k : t & 7u] = 100u;
  out[t] = a[(t * 5u) & 7u];
}

// Thread `bad` writes p[delta] for a huge delta: an address in no buffer at all.
extern "C" __global__ void write_far(unsigned* p, unsigned long long delta, unsigned bad) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  p[t == bad ? delta : t] = t;
}
