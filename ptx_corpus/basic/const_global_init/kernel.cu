// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// Module-scope memory with initialisers: __constant__ tables (.const with an initialiser list, read with
// ld.const at constant and data-dependent indices: f32, u16 and u8 element types) and __device__ arrays in
// .global with initial values (gOffsets: read-only lookups through a truncated initialiser; gScratch: a writable
// module global, each thread writes its own slot and reads it back). The kernel stays idempotent: a second launch
// on the same module (warm-up, timing repeats) gives the same outputs, because no output depends on what an
// earlier launch left in gScratch.
__constant__ float kCoeff[8] = {0.5f, -1.25f, 3.0f, 0.1f, -0.3f, 7.5f, 1e-3f, -2.0f};
__constant__ unsigned short kWeights[16] = {1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095,
                                            8191, 16383, 32767, 65535};
__constant__ unsigned char kSbox[16] = {0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD,
                                        0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2};
__device__ int gOffsets[8] = {-7, 11, -13, 17, -19, 23, -29, 31};
__device__ unsigned gScratch[1024] = {0xDEADBEEFu, 0x12345678u};  // the rest zero-initialised
__device__ unsigned gMasks[4] = {0xFFFFFFFFu, 0x0F0F0F0Fu, 0x33333333u};  // [3] is implicitly zero

extern "C" __global__ void const_global_init(const unsigned* in, const float* xs, float* outf, unsigned* outu)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    float x = xs[i];

    // Fixed-index reads (may fold into immediates) and data-dependent reads (must stay ld.const).
    float r = kCoeff[0] * x + kCoeff[3];
    r = r * x + kCoeff[v & 7u];
    outf[i] = r;

    unsigned sub = 0;
    for (int k = 0; k < 8; ++k) sub |= (unsigned)kSbox[(v >> (4 * k)) & 15u] << (4 * k);
    unsigned w = kWeights[(v >> 3) & 15u];
    int off = gOffsets[v % 8u];

    gScratch[i] = sub ^ gMasks[v >> 30];
    outu[3 * i] = sub;
    outu[3 * i + 1] = w * 3u + (unsigned)off;
    outu[3 * i + 2] = gScratch[i] + v;  // own slot only: no other thread touches it
}
