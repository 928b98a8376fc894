// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// __device__ __noinline__ functions become PTX .func with .param arguments and results and call.uni sites:
// a scalar function (u32 -> u32), one taking f32 and s32 and returning f32, one returning a u64 built by a
// callee that calls another callee, and one taking a pointer and a count (nvcc 13 infers across the call that
// the pointer is global and emits ld.global in the callee). One call sits in a loop, one under a divergent branch.
__device__ __noinline__ unsigned mix32(unsigned v)
{
    v ^= v >> 16;
    v *= 0x7FEB352Du;
    v ^= v >> 15;
    return v;
}

__device__ __noinline__ float poly(float x, int degree)
{
    float r = 1.0f;
    for (int k = 0; k < degree; ++k) r = r * x + 0.5f;
    return r;
}

__device__ __noinline__ unsigned long long widen(unsigned a, unsigned b)
{
    return ((unsigned long long)mix32(a) << 32) | mix32(b);
}

__device__ __noinline__ float sum_window(const float* p, int count)
{
    float s = 0.0f;
    for (int k = 0; k < count; ++k) s += p[k];
    return s;
}

extern "C" __global__ void device_call(const unsigned* in, const float* vals, unsigned long long* out64,
                                       float* outf, int nvals)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    unsigned h = x;
    for (int k = 0; k < 3; ++k) h = mix32(h + (unsigned)k);
    out64[i] = widen(h, x);
    float f = vals[i];
    float r = poly(f, (int)(x & 7u));
    // Divergent call; the window (start + at most 4) stays inside vals.
    if (x & 0x100u) r += sum_window(vals + (i % (nvals - 4)), 1 + (int)((x >> 9) & 3u));
    outf[i] = r;
}
