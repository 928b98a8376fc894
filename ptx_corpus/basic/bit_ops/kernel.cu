// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Bit-manipulation intrinsics on random bit patterns: popc, clz, brev (32 and 64 bit), ffs, bfe (field extract
// with constant and variable position), bfi (field insert), prmt (__byte_perm with constant and variable
// selectors), shf (__funnelshift_l/r, clamped and wrapping), mul24 (__mul24/__umul24), sad (__sad/__usad),
// __umulhi/__mulhi, and a few classic bit tricks.
extern "C" __global__ void bit_ops(const unsigned* in, unsigned* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[2 * i], y = in[2 * i + 1];
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    unsigned* o = out + 24 * i;

    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __brev(x);
    o[3] = __ffs(x);
    o[4] = __popcll(xy) | (__clzll(xy) << 8) | (__ffsll(xy) << 16);
    unsigned long long r = __brevll(xy);
    o[5] = (unsigned)r ^ (unsigned)(r >> 32);
    o[6] = (x >> 7) & 0x3FFu;                          // bfe.u32 with constants
    unsigned pos = y & 31u, len = (y >> 5) & 31u;
    o[7] = (x >> pos) & ((1u << len) - 1u);            // variable field extract
    o[8] = (unsigned)(((int)x << 4) >> 20);            // signed field extract
    o[9] = (x & ~(0xFFu << 12)) | ((y & 0xFFu) << 12); // bfi
    o[10] = __byte_perm(x, y, 0x5140u);
    o[11] = __byte_perm(x, y, y >> 16);                // variable selector (low 16 bits used)
    o[12] = __funnelshift_l(x, y, pos);
    o[13] = __funnelshift_r(x, y, y >> 8);             // clamped amount > 31 gives y or x
    o[14] = __funnelshift_lc(x, y, y >> 8);
    o[15] = __funnelshift_rc(x, y, y >> 8);
    o[16] = (unsigned)__mul24((int)x, (int)y);
    o[17] = __umul24(x, y);
    o[18] = __sad((int)x, (int)y, 5u);
    o[19] = __usad(x, y, x >> 3);
    o[20] = __umulhi(x, y);
    o[21] = (unsigned)__mulhi((int)x, (int)y);
    o[22] = x & (0u - x);                              // lowest set bit
    o[23] = (x ^ (x >> 1)) + ((x | (x - 1u)) + 1u);    // gray code + round up to next bit
}
