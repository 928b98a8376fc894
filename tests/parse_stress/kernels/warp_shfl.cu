// nvcc -ptx -O3 -arch=sm_90 kernels/warp_shfl.cu -o ptx/warp_shfl.ptx
// Every shfl.sync mode (idx/up/down/bfly) with 32- and 64-bit payloads, sub-warp widths (c operand != 0x1f),
// and a partial member mask.
__global__ void shuffles(const float* __restrict__ in, const double* __restrict__ din, float* __restrict__ out,
                         double* __restrict__ dout, int width_sel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  double d = din[i];
  float a = __shfl_sync(0xffffffffu, v, (threadIdx.x + 3) & 31);
  float b = __shfl_up_sync(0xffffffffu, v, 1);
  float c = __shfl_down_sync(0xffffffffu, v, 2, 16);
  float x = __shfl_xor_sync(0xffffffffu, v, 4, 8);
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  double dd = __shfl_down_sync(0xffffffffu, d, 1) + __shfl_sync(0xffffffffu, d, 0);
  long long ll = __shfl_up_sync(0xffffffffu, (long long)i * 7, 3);
  int w = width_sel ? 4 : 32;
  int dyn = __shfl_sync(0xffffffffu, i, threadIdx.x + 1, w);
  unsigned half = threadIdx.x & 16 ? 0xffff0000u : 0x0000ffffu;
  int part = __shfl_sync(half, i, 0, 16);
  out[i] = a + b + c + x + v + (float)dyn + (float)part;
  dout[i] = dd + (double)ll;
}
