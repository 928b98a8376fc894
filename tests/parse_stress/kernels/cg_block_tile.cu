// nvcc -ptx -O3 -arch=sm_90 kernels/cg_block_tile.cu -o ptx/cg_block_tile.ptx
// Cooperative groups inside a block: thread_block sync, tiled_partition<32>/<8> with cg::reduce (redux.sync for
// ints on sm_80+, shuffles for floats), shfl_down through the tile, and coalesced_threads under divergence.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce(const int* __restrict__ in, const float* __restrict__ fin, int* __restrict__ out,
                          float* __restrict__ fout, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> oct = cg::tiled_partition<8>(warp);
  __shared__ int partial[32];
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  float f = i < n ? fin[i] : 0.0f;
  int wsum = cg::reduce(warp, v, cg::plus<int>());
  int wmax = cg::reduce(oct, v, cg::greater<int>());
  float fsum = cg::reduce(warp, f, cg::plus<float>());
  for (int o = oct.size() / 2; o > 0; o /= 2) f += oct.shfl_down(f, o);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = wsum;
  block.sync();
  if (v & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    int c = odd.size();
    if (odd.thread_rank() == 0) atomicAdd(out + 1, c);
  }
  if (warp.meta_group_rank() == 0) {
    int p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
    p = cg::reduce(warp, p, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(out, p);
  }
  if (oct.thread_rank() == 0) atomicMax(out + 2, wmax);
  if (warp.thread_rank() == 0) atomicAdd(fout, fsum + f);
}
