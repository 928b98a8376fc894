// nvcc -ptx -O3 -arch=sm_86 kernel.cu -o kernel.ptx
// 2D grid of 2D blocks (16x16): a tiled matrix transpose through a padded shared tile (17 columns, the classic
// bank-conflict padding), with bounds checks on both axes because the matrix (200 x 136) is not a multiple of
// the tile. Each element is also scaled by its row so a mix-up of x and y shows in the output.
#define TILE 16

extern "C" __global__ void transpose_2d(const float* in, float* out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x] * (float)(y + 1);
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;  // column in the transposed matrix (= source row)
    int ty = blockIdx.x * TILE + threadIdx.y;  // row in the transposed matrix (= source column)
    if (tx < height && ty < width) out[ty * height + tx] = tile[threadIdx.x][threadIdx.y];
}
