// nvcc -ptx -O3 -arch=sm_90 kernels/int_intrinsics.cu -o ptx/int_intrinsics.ptx
// Integer intrinsics with dedicated PTX: dp4a/dp2a, SIMD video (vabsdiff4 -> vabsdiff4.u32.u32.u32.add etc.),
// prmt (byte_perm), shf.l/r.wrap/clamp (funnel shifts), fns, brev.b64, bfind, clz/popc, mul.hi, sad, bfe/bfi.
__global__ void ints(const unsigned* __restrict__ a, const unsigned* __restrict__ b,
                     const unsigned long long* __restrict__ c, unsigned* __restrict__ out,
                     unsigned long long* __restrict__ out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned long long z = c[i];
  int dp = __dp4a((int)x, (int)y, i) + (int)__dp4a(x, y, 7u) + __dp2a_lo((int)x, (int)y, 1) + (int)__dp2a_hi(x, y, 2u);
  unsigned v = __vabsdiffu4(x, y) + __vabsdiffs4(x, y) + __vadd4(x, y) + __vsub2(x, y) + __vmaxu4(x, y) + __vcmpgtu4(x, y) +
               __vsads4(x, y) + __vavgu2(x, y) + __vseteq2(x, y);
  unsigned p = __byte_perm(x, y, 0x5140) ^ __byte_perm(x, y, i & 0x7777);
  unsigned f = __funnelshift_l(x, y, i) + __funnelshift_rc(x, y, i) + __funnelshift_lc(y, x, 40);
  unsigned fn = __fns(x, 3, 2) + __fns(y, i & 31, -1);
  unsigned long long br = __brevll(z) ^ __brev(x);
  int bits = __clz(x) + __clzll(z) + __popc(y) + __popcll(z) + __ffs(x) + __ffsll((long long)z);
  unsigned hi = __umulhi(x, y) + __mulhi((int)x, (int)y) + (unsigned)__umul64hi(z, z) + __usad(x, y, 3u) +
                (unsigned)__mul24((int)x, (int)y) + __umul24(x, y);
  unsigned ext = (x >> (i & 15)) & 0x3ffu;
  unsigned ins = (y & ~(0xffu << 8)) | ((x & 0xffu) << 8);
  out[i] = (unsigned)dp + v + p + f + fn + (unsigned)bits + hi + ext + ins + __sad((int)x, (int)y, 1u) +
           __vhaddu4(x, y) + __hadd((int)x, (int)y) + __urhadd(x, y);
  out64[i] = br + __mul64hi((long long)z, 3ll);
}
