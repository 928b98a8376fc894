// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Scalar kernel parameters of several PTX types: f32 (alpha), u64 (element count and a hash seed), int, u8,
// short (small types are widened when loaded from .param) and f64. The PTX declares int as .u32 and short as
// .u16, so case.json gives bias = -5 and step = -3 as their u32/u16 bit patterns. A saxpy-like update plus a
// 64-bit hash (xorshift-multiply) of the seed and the index, so every parameter's bytes reach the output.
// n = 3001 is not a multiple of the block: the tail threads return early.
extern "C" __global__ void scalar_params(float alpha, const float* x, float* y, unsigned long long n,
                                         unsigned long long seed, int bias, unsigned char mode, short step,
                                         double scale, unsigned long long* hash_out)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = alpha * x[i] + y[i];
    if (mode & 1u) v = v + (float)(bias + step * (int)(i & 7u));
    y[i] = (mode & 2u) ? (float)((double)v * scale) : v;

    unsigned long long h = seed ^ (i * 0x9E3779B97F4A7C15ull);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 29;
    hash_out[i] = h + (unsigned long long)(long long)bias;
}
