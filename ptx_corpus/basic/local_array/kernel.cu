// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Per-thread arrays indexed with data-dependent indices, so nvcc cannot promote them to registers and they stay
// in .local memory (a __local_depot frame with ld.local/st.local): a 32-entry u32 table filled, shuffled with
// random swaps and read back at random positions, and a small f32 histogram with dynamic increments.
extern "C" __global__ void local_array(const unsigned* in, unsigned* out, float* hist_out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned seed = in[i];
    unsigned table[32];
    float hist[8];
    for (int k = 0; k < 32; ++k) table[k] = (unsigned)k * 0x01010101u ^ seed;
    for (int k = 0; k < 8; ++k) hist[k] = 0.0f;

    unsigned s = seed | 1u;
#pragma unroll 1  // keeps the PTX short; the fill and read-back loops unroll but still index dynamically
    for (int k = 0; k < 48; ++k) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        unsigned a = s & 31u, b = (s >> 5) & 31u;
        unsigned t = table[a];
        table[a] = table[b];
        table[b] = t + (unsigned)k;
        hist[(s >> 10) & 7u] += 0.5f * (float)(k & 3);
    }
    unsigned acc = 0;
    for (int k = 0; k < 8; ++k) acc = acc * 31u + table[(seed >> (4 * k)) & 31u];
    out[2 * i] = acc;
    out[2 * i + 1] = table[s & 31u];
    for (int k = 0; k < 8; ++k) hist_out[8 * i + k] = hist[k];
}
