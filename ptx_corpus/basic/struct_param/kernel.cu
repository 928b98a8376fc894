// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// A struct passed by value as a kernel parameter. nvcc lowers it to one `.param .align 8 .b8 p[48]` block read
// with ld.param at field offsets: two pointers (offsets 0 and 8), an f32 scale (16), an f32 bias (20), a u32
// count (24), a u8 flag (28), a u16 shift (30), an s64 offset (32) and an f64 (40). case.json places each field
// at its byte offset; the padding bytes (29) stay zero.
struct Params {
    const float* src;        // 0
    float* dst;              // 8
    float scale;             // 16
    float bias;              // 20
    unsigned count;          // 24
    unsigned char negate;    // 28
    unsigned short shift;    // 30
    long long offset;        // 32
    double weight;           // 40
};

extern "C" __global__ void struct_param(Params p, unsigned* info)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.count) return;
    float v = p.src[i] * p.scale + p.bias;
    if (p.negate) v = -v;
    p.dst[i] = v + (float)(p.weight * (double)(i >> p.shift));
    if (i == 0) {
        info[0] = (unsigned)p.offset;
        info[1] = (unsigned)(p.offset >> 32);
        info[2] = p.count;
        info[3] = p.shift;
    }
}
