// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// 64-bit integer code: mul.lo/mul.hi of u64 and s64 (__umul64hi, __mul64hi), mul.wide of 32-bit halves,
// variable 64-bit shifts (logical and arithmetic, amounts 0..63), add/sub with carry across the halves, and
// u64/s64 division and remainder. Divisors are forced non-zero here, and the s64 quotient avoids INT64_MIN / -1
// (int_divzero covers those edge cases on purpose).
extern "C" __global__ void int64_arith(const unsigned long long* a, const unsigned long long* b,
                                       unsigned long long* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long x = a[i], y = b[i];
    long long sx = (long long)x, sy = (long long)y;
    unsigned long long* o = out + 12 * i;

    o[0] = x * y;
    o[1] = __umul64hi(x, y);
    o[2] = (unsigned long long)__mul64hi(sx, sy);
    o[3] = (unsigned long long)(unsigned)x * (unsigned)(y >> 32);            // mul.wide.u32
    o[4] = (unsigned long long)((long long)(int)x * (long long)(int)(y >> 32)); // mul.wide.s32

    unsigned sh = (unsigned)y & 63u;
    o[5] = (x << sh) ^ (x >> (63u - sh));
    o[6] = (unsigned long long)(sx >> sh);

    unsigned long long d = y | 1ull;                  // odd, so never zero
    unsigned long long small = (y >> 40) + 3ull;      // small divisor: a large quotient
    o[7] = x / d + x % small;
    o[8] = x % d;

    long long sd = (long long)(y >> 20) - (long long)(1ll << 43);  // either sign, never -1 with sx = INT64_MIN
    if (sd == 0 || sd == -1) sd = 5;
    o[9] = (unsigned long long)(sx / sd);
    o[10] = (unsigned long long)(sx % sd);
    o[11] = (x + y < x ? 1ull : 0ull) | ((unsigned long long)(sx < sy) << 1) | ((unsigned long long)(x < y) << 2);
}
