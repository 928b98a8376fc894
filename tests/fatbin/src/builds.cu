// Two "builds" of one library for the diff-build test: tests/fatbin/make_data.sh compiles this file twice, with
// -DBUILD_A and with -DBUILD_B. Between them, by design (tests/fatbin/builds_check.py holds the same list):
//   unchanged: reduce_sum_u32, transpose_2d, block3d_index (corpus kernels, included as they are)
//   removed:   retired_scale   (only in A)
//   added:     fresh_clamp     (only in B)
//   changed:   blend           (B adds the parameter `bias`, a 4-byte f32 at offset 28, and subtracts it:
//                               one more .param load and a sub.f32)
#include "../../../ptx_corpus/basic/reduce_sum_u32/kernel.cu"
#include "../../../ptx_corpus/basic/transpose_2d/kernel.cu"
#include "../../../ptx_corpus/basic/block3d_index/kernel.cu"

#if defined(BUILD_A)
extern "C" __global__ void retired_scale(float* x, float s, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

extern "C" __global__ void blend(const float* a, const float* b, float* out, float t)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + t * (b[i] - a[i]);
}
#elif defined(BUILD_B)
extern "C" __global__ void blend(const float* a, const float* b, float* out, float t, float bias)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + t * (b[i] - a[i]) - bias;
}

extern "C" __global__ void fresh_clamp(float* x, float lo, float hi, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fminf(fmaxf(x[i], lo), hi);
}
#else
#error "compile with -DBUILD_A or -DBUILD_B"
#endif
