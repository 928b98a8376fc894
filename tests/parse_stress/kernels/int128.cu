// nvcc -ptx -O3 -arch=sm_90 kernels/int128.cu -o ptx/int128.ptx
// __int128 arithmetic: add.cc/addc chains, mul.lo/mul.hi.u64, 128-bit shifts built from shf, and the inlined
// 128-bit division/modulo loop, plus 64-bit signed division and mul.hi.s64.
__global__ void wide(const unsigned long long* __restrict__ a, const unsigned long long* __restrict__ b,
                     unsigned long long* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned __int128 x = ((unsigned __int128)a[2 * i] << 64) | a[2 * i + 1];
  unsigned __int128 y = ((unsigned __int128)b[2 * i] << 64) | (b[2 * i + 1] | 1);
  unsigned __int128 s = x + y;
  unsigned __int128 p = x * y;
  unsigned __int128 q = x / y;
  unsigned __int128 r = x % y;
  __int128 sx = (__int128)x >> (i & 127);
  unsigned __int128 sh = y << (i & 63);
  __int128 neg = -(__int128)s;
  bool lt = (__int128)p < neg;
  out[6 * i + 0] = (unsigned long long)s ^ (unsigned long long)(s >> 64);
  out[6 * i + 1] = (unsigned long long)p ^ (unsigned long long)(p >> 64);
  out[6 * i + 2] = (unsigned long long)q + (unsigned long long)(r >> 64);
  out[6 * i + 3] = (unsigned long long)sx ^ (unsigned long long)(sh >> 70);
  out[6 * i + 4] = lt ? (unsigned long long)(neg >> 3) : (unsigned long long)r;
  long long sd = (long long)a[i] / -(long long)(b[i] | 3);
  out[6 * i + 5] = (unsigned long long)((__int128)sd * (__int128)(long long)a[i] >> 64);
}
