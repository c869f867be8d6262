// Thread block clusters (sm_90): blocks of a cluster read each other's
// shared memory (distributed shared memory) after a cluster barrier.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) neighbour_sum(const float *in, float *out, int n)
{
    __shared__ float tile[256];
    cg::cluster_group cluster = cg::this_cluster();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    cluster.sync();
    unsigned rank = cluster.block_rank();
    unsigned next = (rank + 1) % cluster.num_blocks();
    float *remote = cluster.map_shared_rank(tile, next);
    float v = tile[threadIdx.x] + remote[threadIdx.x];
    cluster.sync();
    if (i < n)
        out[i] = v;
}

void run(const float *in, float *out, int n)
{
    neighbour_sum<<<(n + 255) / 256 / 4 * 4, 256>>>(in, out, n);
}
