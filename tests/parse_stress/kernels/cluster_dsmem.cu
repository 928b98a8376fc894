// nvcc -ptx -O3 -arch=sm_90 kernels/cluster_dsmem.cu -o ptx/cluster_dsmem.ptx
// Thread block clusters (sm_90): __cluster_dims__ (.reqnctapercluster), %cluster_ctarank/%clusterid special
// registers, barrier.cluster.arrive/wait, and distributed shared memory through mapa.shared::cluster +
// ld.shared::cluster.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) cluster_hist(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int bins[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  cluster.sync();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    int v = in[i] & 255;
    int* dst = cluster.map_shared_rank(bins, (unsigned)(v >> 6));
    atomicAdd(dst + (v & 63), 1);
  }
  cluster.sync();
  if (t < 64) {
    int* peer = cluster.map_shared_rank(bins, (rank + 1) % cluster.num_blocks());
    out[blockIdx.x * 64 + t] = bins[t] + peer[t] * 1000 + (int)cluster.dim_blocks().x;
  }
  cluster.sync();
}

__global__ void __launch_bounds__(128, 2) cluster_ids(unsigned* __restrict__ out) {
  unsigned cid, nc, ctarank;
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nc));
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = cid * 100 + nc * 10 + ctarank;
}
