// clang-16 --cuda-gpu-arch=sm_80 --cuda-device-only -S -O3 -nocudainc -nocudalib -Wno-unknown-cuda-version kernel.cu -o kernel.ptx
// 64-bit integer and bit code through clang's NVPTX back end (target sm_80): generic builtins
// (__builtin_popcountll, __builtin_clzll, __builtin_ctzll, __builtin_bitreverse32/64, rotates) and NVVM
// builtins (__nvvm_mulhi_ull/ll, __nvvm_prmt, __nvvm_sad_ui, __nvvm_mul24_i), u64 and s64 division by non-zero
// values (clang emits its own 32-bit fast path when both operands fit), and 128-bit multiplication via
// unsigned __int128 (split into mul.lo/mul.hi). Declarations normally from the CUDA headers are written here.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
static __device__ inline unsigned global_index()
{
    return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

extern "C" __global__ void clang_int64_bits(const unsigned long long* in, unsigned long long* out)
{
    unsigned i = global_index();
    unsigned long long x = in[2 * i], y = in[2 * i + 1];
    unsigned long long* o = out + 12 * i;

    o[0] = (unsigned long long)__builtin_popcountll(x) | ((unsigned long long)(x ? __builtin_clzll(x) : 64) << 8) |
           ((unsigned long long)(y ? __builtin_ctzll(y) : 64) << 16);
    o[1] = __builtin_bitreverse64(x) ^ __builtin_rotateleft64(y, (unsigned)x & 63u);
    o[2] = __builtin_rotateright64(x, (unsigned)(y >> 58));
    o[3] = __nvvm_mulhi_ull(x, y);
    o[4] = (unsigned long long)__nvvm_mulhi_ll((long long)x, (long long)y);
    unsigned __int128 p = (unsigned __int128)x * y;
    o[5] = (unsigned long long)(p >> 64) ^ (unsigned long long)p;
    unsigned lo = (unsigned)x, hi = (unsigned)(x >> 32);
    o[6] = ((unsigned long long)__nvvm_prmt(lo, hi, (unsigned)y) << 32) | __nvvm_sad_ui(lo, hi, (unsigned)y);
    o[7] = ((unsigned long long)(unsigned)__nvvm_mul24_i((int)lo, (int)hi) << 32) | __builtin_bitreverse32(lo);
    unsigned long long d = (y >> (x & 31u)) | 1ull;
    o[8] = x / d;
    o[9] = x % (y | 0x100ull);
    long long sd = (long long)y >> 33;
    if (sd == 0 || sd == -1) sd = 7;
    o[10] = (unsigned long long)((long long)x / sd);
    o[11] = (unsigned long long)((long long)x % sd) + (x >> (y & 63u)) + ((long long)x >> ((y >> 6) & 63u));
}
