// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// A 3D block (8, 4, 2) in a 3D grid (3, 2, 2): every special register of the launch geometry (%tid.x/y/z,
// %ntid.x/y/z, %ctaid.x/y/z, %nctaid.x/y/z) feeds the output, plus a shared-memory exchange between the two z
// slices of the block (each thread reads the value its mirror thread in the other slice wrote).
extern "C" __global__ void block3d_index(const unsigned* in, unsigned* out)
{
    __shared__ unsigned slice[2][4][8];
    unsigned flat_block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned flat_thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = flat_block * threads_per_block + flat_thread;

    unsigned v = in[g];
    slice[threadIdx.z][threadIdx.y][threadIdx.x] = v;
    __syncthreads();
    unsigned mirror = slice[1 - threadIdx.z][3 - threadIdx.y][7 - threadIdx.x];

    unsigned geometry = threadIdx.x | (threadIdx.y << 4) | (threadIdx.z << 8) | (blockIdx.x << 12) |
                        (blockIdx.y << 16) | (blockIdx.z << 20) | (gridDim.x << 24) | (gridDim.y << 28);
    out[2 * g] = geometry ^ (gridDim.z << 30);
    out[2 * g + 1] = mirror + v * flat_thread;
}
