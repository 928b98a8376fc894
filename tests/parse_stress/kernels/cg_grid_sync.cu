// nvcc -ptx -O3 -arch=sm_90 -rdc=true kernels/cg_grid_sync.cu -o ptx/cg_grid_sync.ptx
// Grid-wide synchronization (cooperative launch): grid.sync() becomes a barrier on a global counter reached
// through the grid workspace, with fences and atom.add.release.gpu; built relocatable as CUDA requires.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_two_phase(float* __restrict__ data, float* __restrict__ sums, int n) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long rank = grid.thread_rank();
  unsigned long long stride = grid.size();
  for (unsigned long long i = rank; i < (unsigned long long)n; i += stride) data[i] = data[i] * 2.0f + 1.0f;
  grid.sync();
  float acc = 0.0f;
  for (unsigned long long i = rank; i < (unsigned long long)n; i += stride) acc += data[(i + 1) % n];
  atomicAdd(sums + (rank % 4), acc);
  grid.sync();
  if (rank == 0) sums[4] = sums[0] + sums[1] + sums[2] + sums[3] + (float)grid.num_blocks();
}
