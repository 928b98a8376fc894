// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// A dense switch over 0..11 (plus default) with unrelated work in every arm (so it cannot become a lookup
// table), and a sparse switch. nvcc 13 lowers both to binary compare trees: no brx.idx was obtained from nvcc
// 13 or clang 16 with 16, 32 or 64 dense arms, so this case covers the compare-tree form and the call arms.
__device__ __noinline__ unsigned never_inlined_mix(unsigned v) { return v * 0x9E3779B9u ^ (v >> 15); }

extern "C" __global__ void switch_dense(const unsigned* in, unsigned* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    unsigned sel = x % 13u;
    unsigned r;
    switch (sel) {
    case 0: r = x + 17u; break;
    case 1: r = x * 3u; break;
    case 2: r = x ^ 0xA5A5A5A5u; break;
    case 3: r = __brev(x); break;
    case 4: r = never_inlined_mix(x); break;
    case 5: r = x >> 3; break;
    case 6: r = __popc(x) * 1000u; break;
    case 7: r = x / 7u; break;
    case 8: r = __clz(x) + (x << 5); break;
    case 9: r = never_inlined_mix(x + 1u) + 9u; break;
    case 10: r = x % 1000u; break;
    case 11: r = ~x; break;
    default: r = 0xDEADBEEFu; break;
    }

    unsigned key = x >> 24, s;
    switch (key) {
    case 3: s = 1u; break;
    case 40: s = 2u; break;
    case 77: s = 3u; break;
    case 150: s = 4u; break;
    case 201: s = 5u; break;
    case 255: s = 6u; break;
    default: s = key & 0xFu; break;
    }
    out[2 * i] = r;
    out[2 * i + 1] = s;
}
