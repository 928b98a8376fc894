// nvcc -arch=sm_90 -ptx -O3 kernel.cu -o kernel.ptx
// __syncwarp with a partial mask inside a divergent branch (lanes 0..15 of each warp exchange values through shared
// memory; lanes 16..31 skip it) and a redux.sync over the same partial mask. 4 slots a thread; slots a thread does
// not reach keep the fill value.
extern "C" __global__ void syncwarp_divergent(const int* in, unsigned* out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x, lane = t & 31, g = blockIdx.x * blockDim.x + t;
  int v = in[g];
  unsigned* o = out + g * 4;
  if (lane < 16) {
    s[t] = v;
    __syncwarp(0xFFFFu);
    o[0] = (unsigned)s[t ^ 3u];
    __syncwarp(0xFFFFu);
    s[t] = v + 1000;
    __syncwarp(0xFFFFu);
    o[1] = (unsigned)s[((t + 1) & 15u) | (t & ~31u)];
    o[3] = __reduce_add_sync(0xFFFFu, (unsigned)v);
  } else {
    o[2] = (unsigned)(v * 7);
  }
}
