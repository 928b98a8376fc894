// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Conversions and f32 arithmetic on random bit patterns, so NaNs (with payloads), infinities, denormals and
// huge values all appear. float->int conversions saturate out-of-range values and give 0 for NaN in PTX
// (cvt.rzi.s32.f32 and friends); the other rounding modes come from the __float2int_r* intrinsics. int->float
// conversions round to nearest (cvt.rn.f32.s32/u32/s64/u64) or toward zero (__int2float_rz). The arithmetic
// rows check denormal handling without .ftz, NaN propagation, and the non-NaN result of min/max.
extern "C" __global__ void f32_bits_convert(const unsigned* in, unsigned* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned bx = in[2 * i], by = in[2 * i + 1];
    float x = __uint_as_float(bx), y = __uint_as_float(by);
    // Half the lanes scale x into int range so the in-range conversions are exercised too.
    float xs = (i & 1u) ? x : __uint_as_float((bx & 0x80FFFFFFu) | (0x3F000000u + ((bx >> 24) & 0x0Fu) * 0x01000000u));
    unsigned* o = out + 24 * i;

    o[0] = (unsigned)(int)xs;                  // cvt.rzi.s32.f32
    o[1] = (unsigned)xs;                       // cvt.rzi.u32.f32
    long long l = (long long)xs;               // cvt.rzi.s64.f32
    o[2] = (unsigned)l ^ (unsigned)(l >> 32);
    unsigned long long ul = (unsigned long long)xs;
    o[3] = (unsigned)ul ^ (unsigned)(ul >> 32);
    o[4] = (unsigned)__float2int_rn(xs);
    o[5] = (unsigned)__float2int_rd(xs);
    o[6] = (unsigned)__float2int_ru(xs);
    o[7] = __float2uint_rn(xs);
    o[8] = __float_as_uint((float)(int)bx);    // cvt.rn.f32.s32
    o[9] = __float_as_uint((float)bx);         // cvt.rn.f32.u32
    long long wide = (long long)(((unsigned long long)bx << 32) | by);
    o[10] = __float_as_uint((float)wide);      // cvt.rn.f32.s64
    o[11] = __float_as_uint((float)(unsigned long long)wide);
    o[12] = __float_as_uint(__int2float_rz((int)bx));
    o[13] = __float_as_uint(x + y);
    o[14] = __float_as_uint(x * y);
    o[15] = __float_as_uint(x / y);
    o[16] = __float_as_uint(sqrtf(x));
    o[17] = __float_as_uint(fminf(x, y));
    o[18] = __float_as_uint(fmaxf(x, y));
    o[19] = __float_as_uint(__fmaf_rn(x, y, xs));
    o[20] = __float_as_uint(floorf(xs) + ceilf(y));
    o[21] = (x < y) | ((x == y) << 1) | ((x != y) << 2) | ((!(x >= y)) << 3) | ((x != x) << 4);
    o[22] = __float_as_uint(fabsf(x) - y);
    o[23] = __float_as_uint(-x);
}
