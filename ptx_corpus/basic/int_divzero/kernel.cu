// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Integer division and remainder where the divisor is zero on purpose (and the s32/s64 MIN / -1 overflow).
// C++ leaves these undefined, PTX leaves div/rem by zero unspecified; what NVIDIA's hardware path (ptxas's
// division sequence) gives is measured by the reference runner, so the translator can reproduce it.
// Divisors come from the thread index (i % 7 - 3, i % 5, i % 3), so one lane in 7, 5 or 3 divides by zero and the
// compiler cannot see it. Dividends are random bits plus the extreme values on the first lanes.
extern "C" __global__ void int_divzero(const unsigned long long* in, unsigned long long* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long bits = in[i];
    // The first lanes take fixed extreme dividends; divisor (i % 7) - 3 gives -3..3.
    if (i < 7) bits = 0x8000000080000000ull;            // INT64_MIN and INT32_MIN
    else if (i < 14) bits = 0xFFFFFFFFFFFFFFFFull;      // -1 / UINT_MAX
    else if (i < 21) bits = 0ull;
    int ds = (int)(i % 7u) - 3;
    unsigned du = i % 5u;                               // 0..4
    long long dl = (long long)(i % 7u) - 3;
    unsigned long long dul = i % 3u;                    // 0..2

    int xs = (int)(unsigned)bits;
    unsigned xu = (unsigned)(bits >> 32);
    long long xl = (long long)bits;

    unsigned long long* o = out + 8 * i;
    o[0] = (unsigned)(xs / ds);
    o[1] = (unsigned)(xs % ds);
    o[2] = xu / du;
    o[3] = xu % du;
    o[4] = (unsigned long long)(xl / dl);
    o[5] = (unsigned long long)(xl % dl);
    o[6] = bits / dul;
    o[7] = bits % dul;
}
