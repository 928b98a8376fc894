// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// f16 conversions and a little half arithmetic from cuda_fp16.h: __float2half (cvt.rn.f16.f32),
// __float2half_rz (cvt.rz.f16.f32), __half2float (cvt.f32.f16), __floats2half2_rn (a packed pair), and
// __hadd/__hmul/__hfma/__hsub. nvcc emits add/sub/mul.f16 without .rn, so ptxas may contract the mul+sub of
// o16[5] into an fma like f32 code (HAZARDS.md row 4, f16 variant). Inputs are random bits
// so NaNs, infinities, f16 overflow, f16 denormals and ties (HAZARDS.md rows 1-2) all appear; the second input
// is a narrow-range f32 so the half arithmetic works mostly on finite values.
#include <cuda_fp16.h>

extern "C" __global__ void f16_convert(const unsigned* bits, const float* small, unsigned* out32,
                                       unsigned short* out16)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __uint_as_float(bits[i]);
    // On odd lanes map the exponent to 2^-23..2^8 (f16 denormals and normals), so rounding, not only overflow,
    // is exercised.
    if (i & 1u) x = __uint_as_float((bits[i] & 0x807FFFFFu) | ((0x68u + ((bits[i] >> 23) & 31u)) << 23));
    float s = small[2 * i], t = small[2 * i + 1];

    __half hx = __float2half(x);
    __half hz = __float2half_rz(x);
    __half hs = __float2half(s), ht = __float2half(t);
    __half2 pair = __floats2half2_rn(s, x);

    unsigned short* o16 = out16 + 8 * i;
    o16[0] = __half_as_ushort(hx);
    o16[1] = __half_as_ushort(hz);
    o16[2] = __half_as_ushort(__hadd(hs, ht));
    o16[3] = __half_as_ushort(__hmul(hs, ht));
    o16[4] = __half_as_ushort(__hfma(hs, ht, hx));
    o16[5] = __half_as_ushort(__hsub(__hmul(hs, hs), ht));
    o16[6] = __half_as_ushort(__low2half(pair));
    o16[7] = __half_as_ushort(__high2half(pair));

    unsigned* o32 = out32 + 4 * i;
    o32[0] = __float_as_uint(__half2float(hx));
    o32[1] = __float_as_uint(__half2float(hz) * 3.0f);
    o32[2] = __float_as_uint(__half2float(__hadd(hs, ht)) - (s + t));  // the rounding error of the half add
    o32[3] = __float_as_uint(__half2float(__ushort_as_half((unsigned short)bits[i])));  // every f16 pattern class
}
