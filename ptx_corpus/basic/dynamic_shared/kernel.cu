// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Dynamic shared memory (extern __shared__, size given at launch: case.json dynamic_shared_bytes = 3 * 4 *
// blockDim.x): the one extern array is carved into an f32 region and a u32 region at a runtime offset. The block
// reverses its slice, then each thread averages three neighbours (wrapping) and counts equal low bytes.
extern __shared__ unsigned char dyn_smem[];

extern "C" __global__ void dynamic_shared(const float* in, float* out, unsigned* tags_out)
{
    unsigned n = blockDim.x;
    float* vals = reinterpret_cast<float*>(dyn_smem);
    unsigned* tags = reinterpret_cast<unsigned*>(dyn_smem + 2 * n * sizeof(float));  // after two f32 arrays
    float* rev = vals + n;
    unsigned tid = threadIdx.x;
    unsigned g = blockIdx.x * n + tid;

    float v = in[g];
    vals[tid] = v;
    tags[tid] = __float_as_uint(v) & 0xFFu;
    __syncthreads();
    rev[tid] = vals[n - 1 - tid];
    __syncthreads();
    float left = rev[(tid + n - 1) % n], right = rev[(tid + 1) % n];
    unsigned same = 0;
    for (unsigned k = 0; k < n; k += 7) same += tags[k] == tags[tid];
    out[g] = (left + rev[tid] + right) / 3.0f;
    tags_out[g] = same;
}
