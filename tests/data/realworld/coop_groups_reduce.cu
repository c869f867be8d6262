// Reductions written with cooperative groups: a warp tile's reduce, a block
// of tiles, and an atomic per block, as in many training-code kernels.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void sum_squares(const float *x, float *result, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];

    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
         i += gridDim.x * block.size())
        v += x[i] * x[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0)
            atomicAdd(result, v);
    }
}

__global__ void row_max(const float *m, float *out, int rows, int cols)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int row = blockIdx.x * (blockDim.x / 32) + warp.meta_group_rank();
    if (row >= rows)
        return;
    float best = -INFINITY;
    for (int c = warp.thread_rank(); c < cols; c += warp.size())
        best = fmaxf(best, m[row * cols + c]);
    best = cg::reduce(warp, best, cg::greater<float>());
    if (warp.thread_rank() == 0)
        out[row] = best;
}

void launch_all(const float *x, float *r, float *out, int n, int rows, int cols)
{
    sum_squares<<<132 * 4, 256>>>(x, r, n);
    row_max<<<(rows + 7) / 8, 256>>>(x, out, rows, cols);
}
